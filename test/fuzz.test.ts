/**
 * Fuzzing every operation of the OpenAPI document (issue 14): for each one, a bounded, deterministic
 * set of hostile inputs in its path parameters, query string, body and headers (deep nesting, huge and
 * non-finite numbers, NUL, unicode and lone surrogates, wrong types, prototype keys, oversized parts,
 * bodies that are not JSON). Whatever the input, the answer is never a 5xx, and every 4xx carries
 * `error.code` in the envelope. Runs on the engine of the suite (SQLite, or PostgreSQL with DATABASE_URL).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHarness, type Harness, type TestAccount } from './harness.ts';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
interface Parameter {
  in: 'path' | 'query' | 'header';
  name: string;
}
interface BodySchema {
  properties?: Record<string, unknown>;
  $ref?: string;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: BodySchema }> };
}
interface Shot {
  method: string;
  url: string;
  headers?: Record<string, string>;
  payload?: string;
}

const DEEP = 2_000;
/** Values for a path segment or a query parameter, before URL encoding. */
const TEXTS = [
  '',
  '\u0000',
  'a\u0000b',
  '💥'.repeat(40),
  '\ud800',
  'x'.repeat(5_000),
  '__proto__',
  'constructor',
  '../../etc/passwd',
  "'; DROP TABLE accounts;--",
  '<script>alert(1)</script>',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e309',
  '-1',
  '0',
  '1.5',
  '99999999999999999999999999',
  'true',
  'null',
  '[]',
  '{}',
  ' ',
  '%',
  'ção',
  '0000000-00.0000.0.00.0000',
  '1e-309',
  '0x10',
  '1_000',
  '+1',
  '٣',
  '１',
  ' 1',
  '1 ',
  '\t\n',
  '\u202e',
  '\ufeff',
  'a'.repeat(101),
  '2026-02-30',
  '9999-12-31T99:99:99Z',
];
/** Raw pieces of a URL that no encoder would write. */
const RAW_SEGMENTS = ['%zz', '%00', '%', '%C0%AF', '..%2f..%2f', '%E2%82'];
/** Values for every property of a JSON body. */
const VALUES: Json[] = [
  null,
  true,
  -1,
  0,
  1.5,
  1e308,
  -1e308,
  2 ** 53 + 1,
  '',
  '\u0000',
  'x'.repeat(100_000),
  '💥',
  '\ud800',
  [],
  {},
  [null],
  { __proto__: null } as unknown as Json,
  ['x'.repeat(300)],
];
/** Whole bodies sent as application/json text, valid JSON or not. */
const RAW_BODIES = [
  '',
  'null',
  '[]',
  '"texto"',
  '0',
  '{',
  '{"a":',
  '{"a":1e309}',
  '{"a":-1e309}',
  `{"a":${'['.repeat(DEEP)}${']'.repeat(DEEP)}}`,
  `${'{"a":'.repeat(DEEP)}1${'}'.repeat(DEEP)}`,
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"a":"\\u0000"}',
  '{"a":"\\ud800"}',
  `{"${'k'.repeat(10_000)}":1}`,
];
/** Headers each operation is also sent with, replacing the account's where they collide. */
const HEADERS: Record<string, string>[] = [
  { 'x-api-key': '' },
  { 'x-api-key': 'trm_x' },
  { 'x-api-key': `trm_${'x'.repeat(5_000)}` },
  { 'x-api-key': 'trm_0000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
  { authorization: 'Bearer ' },
  { authorization: 'Basic YTpi' },
  { authorization: `Bearer ${'a'.repeat(3_000)}` },
  { prefer: 'respond-async, wait=1e309' },
  { prefer: 'wait=-1' },
  { prefer: 'return=estimate' },
  { prefer: 'x'.repeat(5_000) },
  { accept: 'application/xml' },
  { 'accept-encoding': 'x'.repeat(2_000) },
  { 'x-request-id': '\u0000'.repeat(100) },
];
const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=latin1',
  'application/xml',
];

function sample(path: string, params: Parameter[]): string {
  return path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    if (params.some((p) => p.name === name && p.in === 'path')) return name === 'id' ? 'x1' : '00000000000000000000';
    return name;
  });
}

function withSegment(path: string, name: string, raw: string): string {
  return path.replace(`{${name}}`, raw).replace(/\{(\w+)\}/g, 'x1');
}

function shotsFor(method: string, path: string, op: Operation, schemas: Record<string, BodySchema>): Shot[] {
  const params = op.parameters ?? [];
  const base = sample(path, params);
  const shots: Shot[] = [];
  for (const p of params.filter((q) => q.in === 'path')) {
    for (const t of TEXTS) shots.push({ method, url: withSegment(path, p.name, encodeURIComponent(t.replace(/\ud800/, '\ufffd'))) });
    for (const raw of RAW_SEGMENTS) shots.push({ method, url: withSegment(path, p.name, raw) });
  }
  for (const p of params.filter((q) => q.in === 'query')) {
    for (const t of TEXTS) shots.push({ method, url: `${base}?${p.name}=${encodeURIComponent(t.replace(/\ud800/, '\ufffd'))}` });
    for (const raw of RAW_SEGMENTS) shots.push({ method, url: `${base}?${p.name}=${raw}` });
    shots.push(
      { method, url: `${base}?${p.name}=1&${p.name}=2` },
      { method, url: `${base}?${p.name}[]=1` },
      { method, url: `${base}?${p.name}[__proto__][x]=1` },
    );
  }
  shots.push(
    { method, url: `${base}?__proto__[polluted]=1` },
    { method, url: `${base}?constructor[prototype][polluted]=1` },
    { method, url: `${base}?${'q'.repeat(3_000)}=1` },
    { method, url: `${base}?a=${'%00'.repeat(500)}` },
  );
  for (const headers of HEADERS) shots.push({ method, url: base, headers });
  if (method === 'GET') return shots;
  const json = { 'content-type': 'application/json' };
  for (const body of RAW_BODIES) {
    shots.push({ method, url: base, headers: json, payload: body });
    shots.push({ method, url: base, headers: { ...json, 'idempotency-key': `fuzz-${shots.length}` }, payload: body });
  }
  for (const type of CONTENT_TYPES) shots.push({ method, url: base, headers: { 'content-type': type }, payload: 'a=1' });
  for (const key of ['', ' ', 'ç', 'x'.repeat(256)]) shots.push({ method, url: base, headers: { ...json, 'idempotency-key': key }, payload: '{}' });
  const body = op.requestBody?.content?.['application/json']?.schema;
  // Bodies are named schemas under components (`$ref`).
  const named = body?.$ref ? schemas[body.$ref.replace('#/components/schemas/', '')] : body;
  const properties = Object.keys(named?.properties ?? {});
  for (const name of properties) {
    for (const value of [...VALUES, ...TEXTS]) shots.push({ method, url: base, headers: json, payload: JSON.stringify({ [name]: value }) });
  }
  return shots;
}

/** Why an answer breaks the rule, or undefined when it keeps it. */
function violation(status: number, body: string): string | undefined {
  if (status >= 500) return `${status}`;
  if (status < 400) return undefined;
  try {
    const code = (JSON.parse(body) as { error?: { code?: unknown } }).error?.code;
    return typeof code === 'string' && /^[A-Z_]+$/.test(code) ? undefined : `${status} without error.code`;
  } catch {
    return `${status} not JSON`;
  }
}

async function fire(h: Harness, account: TestAccount, shot: Shot): Promise<string | undefined> {
  const res = await h.inject({ method: shot.method as 'GET', url: shot.url, headers: { ...account.headers, ...shot.headers }, payload: shot.payload });
  const broken = violation(res.statusCode, res.body);
  return broken && `${broken}: ${shot.method} ${shot.url.slice(0, 160)} ${String(shot.payload ?? '').slice(0, 80)} -> ${res.body.slice(0, 200)}`;
}

test('hostile inputs to every operation of the OpenAPI document: no 5xx, and error.code on every 4xx', { timeout: 300_000 }, async (t) => {
  const h = await createHarness({ env: { TRAMITA_WEBHOOK_ALLOW_PRIVATE: 'false' } });
  t.after(() => h.close());
  const account = await h.createAccount({ credits: 10_000 });
  const doc = JSON.parse((await h.inject({ method: 'GET', url: '/v1/openapi.json', headers: account.headers })).body) as {
    paths: Record<string, Record<string, Operation>>;
    components: { schemas: Record<string, BodySchema> };
  };
  const failures: string[] = [];
  let sent = 0;
  const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
  );
  assert.ok(operations.length >= 50, `the document lists every operation (${operations.length})`);
  for (const { path, method, op } of operations) {
    for (const shot of shotsFor(method, path, op, doc.components.schemas)) {
      sent++;
      const broken = await fire(h, account, shot);
      if (broken) failures.push(broken);
    }
  }
  // Methods no route has, and paths no route has: still the envelope.
  for (const method of ['PATCH', 'PUT', 'DELETE', 'OPTIONS', 'TRACE', 'PROPFIND']) {
    for (const url of ['/v1/processos/cnj/00000000000000000000', '/v1/nada', '/%zz', `/v1/${'x'.repeat(200)}`]) {
      sent++;
      const broken = await fire(h, account, { method, url });
      if (broken) failures.push(broken);
    }
  }
  t.diagnostic(`${sent} requests over ${operations.length} operations`);
  assert.ok(sent > 10_000, `the drill's size at least (${sent})`);
  assert.equal(({} as Record<string, unknown>).polluted, undefined, 'no prototype was polluted');
  assert.deepEqual(failures.slice(0, 40), [], `${failures.length} of ${sent} answers broke the rule`);
});
