/**
 * Generates packages/sdk/src/generated.ts from Tramita's own OpenAPI document (GET /v1/openapi.json):
 * a type per named schema, the parameters and result of every operation, the table the client reads
 * (method, path, charged, answers files) and one method per operation. Run by the SDK's build
 * (`npm run build -w packages/sdk`); test/sdk-types.test.ts regenerates it and compares, so the SDK
 * cannot drift from the API. Our own small JSON Schema → TypeScript printer: the schemas come from
 * TypeBox and use a handful of keywords (type, properties, required, items, enum, const, anyOf, allOf,
 * additionalProperties, $ref).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../src/config.ts';
import { EVENTS } from '../src/platform/events/catalog.ts';
import { deliveredSchema } from '../src/platform/events/declare.ts';
import { EVENT_NAMES, LEGACY_NAMES } from '../src/platform/events/kinds.ts';

// A JSON Schema or OpenAPI node as parsed JSON, read keyword by keyword; each keyword's shape is checked where it is read.
// biome-ignore lint/suspicious/noExplicitAny: see above
type Schema = Record<string, any>;
/** An OpenAPI operation object, parsed JSON as a schema is. */
type Operation = Schema;

export const GENERATED_SDK_FILE = path.join(PROJECT_ROOT, 'packages', 'sdk', 'src', 'generated.ts');
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const key = (name: string) => (IDENTIFIER.test(name) ? name : JSON.stringify(name));
const refName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);

/** The formatter's line width (biome.json): a description longer than a line is wrapped at words. */
const WIDTH = 160;

function doc(text: string | undefined, indent: string): string {
  if (!text) return '';
  const lines = text
    .replace(/\*\//g, '*\\/')
    .split('\n')
    .flatMap((l) => wrapWords(l, WIDTH - indent.length - 3));
  if (lines.length === 1 && indent.length + lines[0].length + 7 <= WIDTH) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((l) => `${indent} * ${l}`.trimEnd()).join('\n')}\n${indent} */\n`;
}

function wrapWords(line: string, width: number): string[] {
  const out: string[] = [];
  let current = '';
  for (const word of line.split(' ')) {
    if (current && current.length + 1 + word.length > width) {
      out.push(current);
      current = word;
    } else current = current ? `${current} ${word}` : word;
  }
  return [...out, current];
}

/** The TypeScript type of a JSON Schema, `indent` being the indentation of the line it starts on. */
export function tsType(schema: Schema | boolean | undefined, indent = ''): string {
  if (schema === undefined || schema === true) return 'unknown';
  if (schema === false) return 'never';
  if (schema.$ref) return refName(schema.$ref);
  if ('const' in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((v: unknown) => JSON.stringify(v)).join(' | ');
  if (Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf))
    return union(
      (schema.anyOf ?? schema.oneOf).map((s: Schema) => tsType(s, indent)),
      ' | ',
    );
  if (Array.isArray(schema.allOf))
    return union(
      schema.allOf.map((s: Schema) => tsType(s, indent)),
      ' & ',
    );
  if (Array.isArray(schema.type))
    return union(
      schema.type.map((t: string) => tsType({ ...schema, type: t }, indent)),
      ' | ',
    );
  switch (schema.type) {
    case 'string':
      return schema.format === 'binary' ? 'Uint8Array' : 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return `Array<${tsType(schema.items, indent)}>`;
    case 'object':
      return objectType(schema, indent);
    default:
      return schema.properties ? objectType(schema, indent) : 'unknown';
  }
}

function union(parts: string[], sep: string): string {
  const unique = [...new Set(parts)];
  return unique.length === 1 ? unique[0]! : unique.map((p) => (p.includes(' | ') || p.includes(' & ') ? `(${p})` : p)).join(sep);
}

function objectType(schema: Schema, indent: string): string {
  const props = Object.entries((schema.properties ?? {}) as Record<string, Schema>);
  const required = new Set<string>(schema.required ?? []);
  const inner = `${indent}  `;
  const lines = props.map(([name, s]) => `${doc(s.description, inner)}${inner}${key(name)}${required.has(name) ? '' : '?'}: ${tsType(s, inner)};`);
  const extra = schema.additionalProperties;
  if (extra && extra !== false) lines.push(`${inner}[key: string]: ${extra === true ? 'unknown' : tsType(extra, inner)};`);
  if (lines.length === 0) return extra === false ? 'Record<string, never>' : 'Record<string, unknown>';
  return `{\n${lines.join('\n')}\n${indent}}`;
}

interface OperationInfo {
  id: string;
  method: string;
  path: string;
  summary: string;
  charged: boolean;
  binary: boolean;
  params: string;
  paramsRequired: boolean;
  result: string;
}

function resolve(api: Schema, schema: Schema): Schema {
  return schema.$ref ? (api.components?.schemas?.[refName(schema.$ref)] ?? {}) : schema;
}

function operations(api: Schema): OperationInfo[] {
  const out: OperationInfo[] = [];
  for (const [p, item] of Object.entries(api.paths as Record<string, Record<string, Operation>>)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const params = ((op.parameters ?? []) as Schema[]).filter((x) => x.in === 'path' || x.in === 'query');
      const fields = params.map((x) => `${doc(x.description, '    ')}    ${key(x.name)}${x.required ? '' : '?'}: ${tsType(x.schema, '    ')};`);
      const body = op.requestBody?.content?.['application/json']?.schema;
      // A body whose fields are all optional may be left out (fastify-swagger marks every body required).
      const bodyRequired = Boolean(body && op.requestBody.required && (resolve(api, body).required ?? []).length > 0);
      if (body) fields.push(`    body${bodyRequired ? '' : '?'}: ${tsType(body, '    ')};`);
      const { binary, jsonResult } = answerOf(op);
      out.push({
        id: op.operationId,
        method: method.toUpperCase(),
        path: p,
        summary: op.summary ?? '',
        charged: Boolean(op['x-tramita-query-type']),
        binary,
        params: fields.length > 0 ? `{\n${fields.join('\n')}\n  }` : 'Record<string, never>',
        paramsRequired: params.some((x) => x.required) || bodyRequired,
        result: binary ? 'FileResult' : jsonResult ? tsType(jsonResult, '  ') : 'unknown',
      });
    }
  }
  return out.sort((a, b) => (a.id < b.id ? -1 : 1));
}

const ESTIMATE = '#/components/schemas/Estimate';

/**
 * The operation's own answer: the first 2xx that is more than the estimate every keyed operation can
 * give (`Prefer: return=estimate`, whose JSON the document adds beside the envelope), a file if it has
 * no JSON of its own.
 */
function answerOf(op: Operation): { binary: boolean; jsonResult: Schema | undefined } {
  for (const status of ['200', '201', '202']) {
    const content = op.responses?.[status]?.content as Record<string, { schema?: Schema }> | undefined;
    if (!content) continue;
    const json = content['application/json']?.schema;
    const own = json?.$ref === ESTIMATE ? undefined : ((json?.anyOf as Schema[] | undefined)?.find((b) => b.$ref !== ESTIMATE) ?? json);
    const files = Object.keys(content).some((type) => type !== 'application/json');
    if (own || files) return { binary: !own && files, jsonResult: own };
  }
  return { binary: false, jsonResult: undefined };
}

/** The whole generated module, as the formatter writes it (biome.json), so `npm run lint` passes on it. */
export function sdkSource(api: Schema): string {
  const biome = path.join(PROJECT_ROOT, 'node_modules', '.bin', 'biome');
  return execFileSync(biome, ['format', `--stdin-file-path=${GENERATED_SDK_FILE}`], { input: unformattedSource(api), encoding: 'utf8', cwd: PROJECT_ROOT });
}

function unformattedSource(api: Schema): string {
  const schemas = Object.entries((api.components?.schemas ?? {}) as Record<string, Schema>).sort(([a], [b]) => (a < b ? -1 : 1));
  const ops = operations(api);
  return [
    '// Generated by scripts/sdk-types.ts from GET /v1/openapi.json: do not edit (npm run build -w packages/sdk regenerates it).',
    `// ${api.info?.title ?? 'Tramita'} ${api.info?.version ?? ''}`.trimEnd(),
    '',
    "import type { CallOptions, FileResult } from './types.ts';",
    '',
    ...schemas.map(([name, s]) => `${doc(s.description, '')}export type ${name} = ${tsType(s, '')};\n`),
    '/** Parameters (path and query by name, the JSON body as `body`) and result of each operation. */',
    'export interface Operations {',
    ...ops.map((o) => `  ${o.id}: {\n    params: ${o.params.replace(/\n/g, '\n  ')};\n    result: ${o.result};\n  };`),
    '}',
    '',
    'export type OperationId = keyof Operations;',
    '',
    '/** What the client needs to call each operation; `charged` ones get an Idempotency-Key. */',
    'export const OPERATIONS: Record<OperationId, { method: string; path: string; charged: boolean }> = {',
    ...ops.map((o) => `  ${o.id}: { method: '${o.method}', path: '${o.path}', charged: ${o.charged} },`),
    '};',
    '',
    ...eventTypes(),
    '/** One method per operation, named by its operationId. */',
    'export abstract class OperationMethods {',
    "  protected abstract call<K extends OperationId>(operation: K, params: Operations[K]['params'] | undefined, options?: CallOptions): " +
      "Promise<Operations[K]['result']>;",
    ...ops.map(
      (o) =>
        `\n${doc(`${o.summary} (\`${o.method} ${o.path}\`${o.charged ? ', charged' : ''})`, '  ')}  ${o.id}(params${o.paramsRequired ? '' : '?'}: ` +
        `Operations['${o.id}']['params'], options?: CallOptions): Promise<Operations['${o.id}']['result']> {\n    return ` +
        `this.call('${o.id}', params, options);\n  }`,
    ),
    '}',
    '',
  ].join('\n');
}

/**
 * The events' names and types, from their declarations (src/platform/events/catalog.ts): `data` as a
 * receiver gets it (the emitter's fields and what the integrator shape adds), and the body as a union
 * discriminated by `event`. A legacy twin carries its kind's data.
 */
function eventTypes(): string[] {
  const legacy = Object.entries(LEGACY_NAMES).map(([kind, name]) => `  ${name}: EventData['${kind}'];`);
  return [
    '/** The webhook event names Tramita sends (docs/webhooks.md), legacy twins included; receivers must accept others too (spec §6.4). */',
    `export type EventName =\n${[...EVENT_NAMES, ...Object.values(LEGACY_NAMES)].map((n) => `  | '${n}'`).join('\n')};`,
    '',
    "/** Each event's `data` as a receiver gets it (src/platform/events/catalog.ts declares them; docs/webhooks.md lists them). */",
    'export interface EventData {',
    ...EVENT_NAMES.map((k) => `${doc(EVENTS[k].summary, '  ')}  ${k}: ${tsType(deliveredSchema(EVENTS[k]), '  ')};`),
    ...legacy,
    '}',
    '',
    "/** A delivery's body (`NORMALIZED`; `BOTH` adds `raw`), discriminated by `event`: `switch (e.event)` narrows `data`. */",
    'export type TramitaEvent = {',
    '  [K in keyof EventData]: { id: string; event: K; source: string; created_at: string; data: EventData[K]; raw?: unknown };',
    '}[keyof EventData];',
    '',
  ];
}

/** The OpenAPI document of a Tramita built in-process (small sandbox, no server started). */
export async function currentOpenApi(): Promise<Schema> {
  const { createHarness, json } = await import('../test/harness.ts');
  const h = await createHarness({ env: { TRAMITA_LOG_LEVEL: 'warn' } });
  try {
    return json(await h.inject({ method: 'GET', url: '/v1/openapi.json' }));
  } finally {
    await h.close();
  }
}

if (import.meta.main) {
  fs.writeFileSync(GENERATED_SDK_FILE, sdkSource(await currentOpenApi()));
  console.log(`wrote ${path.relative(PROJECT_ROOT, GENERATED_SDK_FILE)}`);
}
