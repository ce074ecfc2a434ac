/**
 * OpenAPI 3.1 generated from the route schemas (spec §9), for tools as well as people: every operation
 * has an `operationId`, named schemas under `components` (`<OperationId>Response`, `<OperationId>Request`,
 * `Error`, `Pending`) so generated clients get named types, an example built from its schema, the
 * headers of spec §2.2 (Location, Retry-After), of rate limits (RateLimit-*) and of idempotency, and
 * binary responses where the answer is a file. Error responses come from the error registry: each
 * operation lists the statuses it can answer, with the codes of each status. `redocly lint` checks it
 * in the suite (test/openapi.test.ts).
 */
import type { SwaggerOptions } from '@fastify/swagger';
import type { Services } from '../services.ts';
import { ERRORS } from '../errors.ts';
import type { RouteMeta } from './route.ts';
import { createRequire } from 'node:module';
import type { TSchema } from 'typebox';
import type * as TypeBoxValue from 'typebox/value';

/**
 * TypeBox's value checker (about 300 modules and 3–4 MB of heap), loaded when the document is first
 * built (`transform` is synchronous), not at start: idle memory, issue 34.
 */
let value: typeof TypeBoxValue.Value | undefined;
const checker = () => (value ??= (createRequire(import.meta.url)('typebox/value') as typeof TypeBoxValue).Value);

type Json = Record<string, unknown>;

const ERROR_SCHEMA = {
  type: 'object',
  required: ['error', 'meta'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', enum: Object.keys(ERRORS) },
        message: { type: 'string', description: 'For a person: Portuguese by default, English with `Accept-Language: en`.' },
        detail: { type: 'string', description: 'The English text, when the message is Portuguese.' },
        details: { type: 'object', additionalProperties: true },
      },
    },
    meta: { type: 'object', properties: { requestId: { type: 'string' } } },
  },
};

const PENDING_SCHEMA = {
  type: 'object',
  title: 'Pending',
  description: 'The operation outlived the synchronous window and continues; poll `data.statusUrl` (same as `Location`).',
  properties: {
    data: {
      type: 'object',
      properties: {
        requestId: { type: 'string' },
        status: { type: 'string', const: 'PROCESSANDO' },
        statusUrl: { type: 'string', format: 'uri' },
        submittedAt: { type: 'string', format: 'date-time' },
        pollAfterSeconds: { type: 'integer' },
        pollAfterMs: { type: 'integer' },
        nextPollAt: { type: 'string', format: 'date-time' },
        message: { type: 'string' },
      },
    },
    pollAfterSeconds: { type: 'integer' },
    pollAfterMs: { type: 'integer' },
    nextPollAt: { type: 'string', format: 'date-time' },
    meta: { type: 'object', properties: { requestId: { type: 'string' } } },
  },
};

const ESTIMATE_SCHEMA = {
  type: 'object',
  title: 'Estimate',
  description: 'The answer to `Prefer: return=estimate`: the operation priced, neither run nor charged (header `Preference-Applied: return=estimate`).',
  required: ['data', 'meta'],
  properties: {
    data: {
      type: 'object',
      required: ['queryType', 'currency', 'priceCentavos', 'balanceCentavos', 'sufficient'],
      properties: {
        queryType: { type: ['string', 'null'], description: 'The price table entry; null for a free operation.' },
        plan: { type: ['string', 'null'] },
        currency: { type: 'string', const: 'BRL' },
        price: { type: 'number' },
        priceCentavos: { type: 'integer' },
        balance: { type: 'number' },
        balanceCentavos: { type: 'integer' },
        sufficient: { type: 'boolean', description: 'Whether the balance covers the price now.' },
        chargedOn: {
          type: ['string', 'null'],
          enum: ['success', 'creation', 'completion', null],
          description:
            'When the price is charged: `success` with the answer, `creation` in the transaction that creates the monitor or radar, ' +
            '`completion` when the work the request started completes (its job); null for a free operation.',
        },
      },
    },
    meta: {
      type: 'object',
      properties: { requestId: { type: 'string' }, creditsCharged: { type: 'integer', const: 0 }, estimate: { type: 'boolean', const: true } },
    },
  },
};
const ESTIMATE_REF = { $ref: '#/components/schemas/Estimate' };

/** A response header as @fastify/swagger takes it (a JSON schema; it writes the OpenAPI header object). */
const header = (description: string, type = 'string') => ({ type, description });
const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': header('Requests allowed per window in this route class.', 'integer'),
  'RateLimit-Remaining': header('Requests left in the current window.', 'integer'),
  'RateLimit-Reset': header('Seconds until the window resets.', 'integer'),
};
const PENDING_HEADERS = {
  Location: header('The status URL (`GET /v1/requests/{requestId}`), spec §2.2.'),
  'Retry-After': header('Seconds to wait before polling, spec §2.2.', 'integer'),
};
/** Carries "this body may be absent" from `transform` to `nameSchemas`, which sets `requestBody.required` (and drops it). */
const OPTIONAL_BODY = 'x-tramita-optional-body';
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function codesWithStatus(status: number): string[] {
  return Object.entries(ERRORS)
    .filter(([, e]) => e.status === status)
    .map(([code]) => code);
}

const ERROR_REF = { $ref: '#/components/schemas/Error' };

/** Whether the operation reads `Idempotency-Key` (idempotency.ts: writes and charged reads of a key holder). */
function takesIdempotencyKey(meta: RouteMeta, method: string): boolean {
  return meta.auth && (WRITE_METHODS.has(method) || Boolean(meta.charge));
}

/** The error statuses an operation can answer, by what the platform does around it. */
function errorResponses(meta: RouteMeta, hasInput: boolean, method: string): Record<string, unknown> {
  const statuses = new Set<number>([404, 405, 500]);
  if (hasInput || meta.auth) statuses.add(400);
  if (method !== 'GET') statuses.add(413);
  // The key is checked in storage: an outage is 503 STORAGE_UNAVAILABLE on every keyed operation.
  if (meta.auth) {
    statuses.add(401);
    statuses.add(403);
    statuses.add(503);
  }
  if (meta.class) statuses.add(429);
  // A reused key with another request is 422 IDEMPOTENCY_KEY_REUSED, one still running 409; input a handler cannot serve is 422.
  if (takesIdempotencyKey(meta, method)) {
    statuses.add(409);
    statuses.add(422);
  }
  if (hasInput) statuses.add(422);
  // Sources and models answer 502/503/504; a replay answers whatever the operation answered.
  if (meta.charge || meta.async || meta.replay) {
    statuses.add(502);
    statuses.add(503);
    statuses.add(504);
    statuses.add(422);
    statuses.add(409);
  }
  const out: Record<string, unknown> = {};
  for (const status of [...statuses].sort()) {
    const codes = codesWithStatus(status);
    if (codes.length === 0) continue;
    out[String(status)] = {
      description: `error.code one of: ${codes.join(', ')}`,
      content: { 'application/json': { schema: ERROR_REF } },
      ...(status === 429 || status === 503 ? { headers: { 'Retry-After': header('Seconds to wait before trying again.', 'integer') } } : {}),
    };
  }
  return out;
}

/**
 * The 2xx answers: `data`'s envelope under each status the route declares (meta.success, else 200), a
 * file or a replay instead where the route answers one, and the 202 of the async window.
 */
function successResponses(meta: RouteMeta, declared: Record<string, Json>): Record<string, unknown> {
  const { 200: envelope, ...rest } = declared;
  const out: Record<string, unknown> = { ...rest };
  const ok = binaryOk(meta) ?? (meta.replay ? replayOk() : envelope);
  const statuses = meta.replay ? [200, 201] : (meta.success ?? [200]);
  for (const status of ok ? statuses : []) {
    const headers = { ...(meta.class ? RATE_LIMIT_HEADERS : {}), ...(status === 202 ? PENDING_HEADERS : {}) };
    out[status] = Object.keys(headers).length ? { ...ok, headers } : ok;
  }
  if (meta.async || meta.replay) out[202] = { ...PENDING_SCHEMA, headers: PENDING_HEADERS };
  return out;
}

/** `GET /v1/processos/cnj/:cnj/movimentacoes` → `getProcessosCnjByCnjMovimentacoes`. */
export function operationIdOf(method: string, url: string): string {
  const words = url
    .replace(/^\/v1\/?/, '')
    .split('/')
    .filter(Boolean)
    .flatMap((segment) => {
      const param = /^:(.+)$/.exec(segment) ?? /^\{(.+)\}$/.exec(segment);
      return param ? ['by', param[1]] : segment.split(/[^A-Za-z0-9]+/);
    })
    .filter(Boolean);
  const pascal = words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
  return method.toLowerCase() + (pascal || 'Root');
}

/** The request headers an operation reads beyond the key: the language, and idempotency and estimates where they apply. */
function headerParameters(meta: RouteMeta, method: string): Json {
  const properties: Json = {
    'accept-language': { type: 'string', description: '`en` for English error messages; Portuguese otherwise.' },
  };
  if (takesIdempotencyKey(meta, method)) {
    properties['idempotency-key'] = {
      type: 'string',
      maxLength: 255,
      description: 'Replays the first answer of this key (24 h) without running or charging again.',
    };
  }
  if (meta.charge || meta.async) {
    properties.prefer = {
      type: 'string',
      description: '`return=estimate` prices the call without running it; `respond-async` asks for the 202 at once; `wait=N` shortens the window.',
    };
  } else if (meta.auth) {
    properties.prefer = { type: 'string', description: '`return=estimate` prices the call without running it (a free operation: 0).' };
  }
  return { type: 'object', properties };
}

export function openApiOptions(services: Services): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Tramita: Judicial Process Data Service',
        version: '1.0.0',
        license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
        description:
          'Public Brazilian court-process data under /v1. Send the API key in `x-api-key` (or `Authorization: Bearer`). ' +
          'Charged operations report `meta.creditsCharged` and `meta.creditsRemaining`; `Prefer: return=estimate` prices one without running it. ' +
          'Past the synchronous window an eligible operation answers 202 with a status URL (`/v1/requests/{requestId}`). ' +
          'Guide in Portuguese: docs/integracao.md.',
      },
      // Relative to where this document is served, unless TRAMITA_PUBLIC_URL names the public address.
      servers: [{ url: services.config.publicUrl ?? '/', description: 'This Tramita server' }],
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
          bearer: { type: 'http', scheme: 'bearer', description: 'The same API key as a bearer token.' },
        },
      },
    },
    transform: ({ schema, url, route }) => {
      const meta = route.config?.tramita as RouteMeta | undefined;
      if (!meta) return { schema: { ...schema, hide: true }, url };
      const method = String(Array.isArray(route.method) ? route.method[0] : route.method);
      const s = { ...(schema as Record<string, unknown>) };
      const hasInput = Boolean(s.params || s.body || (s.querystring as { properties?: object })?.properties);
      s.response = { ...successResponses(meta, (s.response ?? {}) as Record<string, Json>), ...errorResponses(meta, hasInput, method) };
      s.headers = headerParameters(meta, method);
      s.operationId = operationIdOf(method, url);
      // An absent body is validated as `{}` (json-body.ts): the body is required only when `{}` is refused.
      if (s.body && checker().Check(s.body as TSchema, {})) s[OPTIONAL_BODY] = true;
      s.security = meta.auth ? [{ apiKey: [] }, { bearer: [] }] : [];
      if (meta.charge) Object.assign(s, { 'x-tramita-query-type': meta.charge, 'x-tramita-charge-way': meta.chargeWay ?? 'on-success' });
      if (meta.class) s['x-tramita-route-class'] = meta.class;
      return { schema: s, url };
    },
    transformObject: (doc) => nameSchemas((doc as { openapiObject: Json }).openapiObject),
  };
}

function binaryOk(meta: RouteMeta) {
  if (!meta.binary) return undefined;
  return {
    description: `The file (${meta.binary}); the charge is in the x-credits-* headers.`,
    content: { [meta.binary]: { schema: { type: 'string', format: 'binary' } } },
  };
}

function replayOk() {
  return {
    description: 'The final response of the operation, exactly as it would have answered (its own status and body).',
    content: { 'application/json': { schema: { type: 'object', additionalProperties: true } } },
  };
}

/**
 * Moves each operation's JSON bodies into `components.schemas` under names derived from its
 * operationId, with the shared `Error` and `Pending`, and gives each JSON response an example.
 */
function nameSchemas(doc: Json): Json {
  const components = (doc.components ?? {}) as Json;
  const schemas: Json = { ...((components.schemas as Json) ?? {}), Error: ERROR_SCHEMA, Pending: PENDING_SCHEMA, Estimate: ESTIMATE_SCHEMA };
  for (const item of Object.values((doc.paths ?? {}) as Record<string, Json>)) {
    for (const op of Object.values(item) as Json[]) {
      if (typeof op !== 'object' || op === null || typeof op.operationId !== 'string') continue;
      const name = op.operationId.charAt(0).toUpperCase() + op.operationId.slice(1);
      if (op[OPTIONAL_BODY]) {
        delete op[OPTIONAL_BODY];
        if (op.requestBody) (op.requestBody as Json).required = false;
      }
      const body = (op.requestBody as Json | undefined)?.content as Record<string, Json> | undefined;
      if (body?.['application/json']?.schema) {
        schemas[`${name}Request`] = body['application/json'].schema;
        body['application/json'] = { ...body['application/json'], schema: { $ref: `#/components/schemas/${name}Request` } };
      }
      for (const [status, response] of Object.entries((op.responses ?? {}) as Record<string, Json>)) {
        const json = (response.content as Record<string, Json> | undefined)?.['application/json'];
        if (!json?.schema) continue;
        const ref = (json.schema as Json).$ref;
        if ((json.schema as Json).title === PENDING_SCHEMA.title) json.schema = { $ref: '#/components/schemas/Pending' };
        else if (status.startsWith('2') && !ref) {
          // Every 2xx of `data` (200, 201, 202) carries the same envelope: one named schema.
          schemas[`${name}Response`] = json.schema;
          json.schema = { $ref: `#/components/schemas/${name}Response` };
        }
        const target = resolve(json.schema as Json, schemas);
        if (status.startsWith('2')) json.example = sampleOf(target, schemas, 0);
      }
      if ((op.security as unknown[] | undefined)?.length) addEstimate(op.responses as Record<string, Json>);
    }
  }
  return { ...doc, components: { ...components, schemas } };
}

/**
 * Every keyed operation answers `Prefer: return=estimate` with a 200 whose JSON is the Estimate (the
 * header `Preference-Applied: return=estimate` and `meta.estimate` tell it apart). A request header
 * cannot select a schema, so the 200's JSON is the operation's envelope or the Estimate; the envelope
 * stays `<OperationId>Response` for generated clients. Not a media type of its own: validators such as
 * Prism match any `+json` type as `application/json`.
 */
function addEstimate(responses: Record<string, Json>): void {
  const ok = responses['200'];
  if (!ok) {
    responses['200'] = {
      description: 'Only the estimate (`Prefer: return=estimate`): the operation itself answers another status.',
      content: { 'application/json': estimateOnly() },
    };
    return;
  }
  if (!ok.content) ok.content = {};
  const content = ok.content as Record<string, Json>;
  const json = content['application/json'];
  if (!json) content['application/json'] = estimateOnly();
  else if (typeof (json.schema as Json | undefined)?.$ref === 'string') json.schema = { anyOf: [json.schema, ESTIMATE_REF] };
}

const estimateOnly = () => ({ schema: ESTIMATE_REF, example: sampleOf(ESTIMATE_SCHEMA, {}, 0) });

function resolve(schema: Json, schemas: Json): Json {
  const ref = typeof schema.$ref === 'string' ? schema.$ref.replace('#/components/schemas/', '') : null;
  return ref ? (schemas[ref] as Json) : schema;
}

const SAMPLE_STRINGS: Record<string, string> = {
  'date-time': '2026-03-10T14:32:10.000Z',
  date: '2026-03-10',
  uri: 'https://api.example.com/v1/requests/req_0mwv000000000000000000',
  binary: '',
};

/** A plausible value of a JSON schema: its example, default, const or first enum value, else one of its type. */
export function sampleOf(schema: Json | undefined, schemas: Json, depth: number): unknown {
  if (!schema || depth > 40) return null; // schemas are not recursive: this only guards against a cycle
  if (typeof schema.$ref === 'string') return sampleOf(resolve(schema, schemas), schemas, depth + 1);
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ('default' in schema) return schema.default;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const branches = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (branches) return sampleOf(branches.find((b) => b.type !== 'null') ?? branches[0], schemas, depth + 1);
  if (Array.isArray(schema.allOf)) return Object.assign({}, ...schema.allOf.map((b) => sampleOf(b as Json, schemas, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object':
      return Object.fromEntries(Object.entries((schema.properties ?? {}) as Record<string, Json>).map(([k, v]) => [k, sampleOf(v, schemas, depth + 1)]));
    case 'array':
      return [sampleOf(schema.items as Json, schemas, depth + 1)];
    case 'integer':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'number':
      return 0.5;
    case 'boolean':
      return true;
    case 'string':
      return SAMPLE_STRINGS[String(schema.format)] ?? 'string';
    case 'null':
      return null;
    default:
      return null;
  }
}
