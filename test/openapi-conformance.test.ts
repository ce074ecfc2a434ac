/**
 * A validator we did not write agrees with the OpenAPI document (issue 33 item 6): every operation is
 * driven over a real socket on 127.0.0.1 through Stoplight Prism's HTTP library in proxy mode
 * (`@stoplight/prism-http` createInstance, `isProxy`, `errors: false`: it forwards each call unchanged
 * and reports what it finds), which checks the request (security, parameters, body) and the response
 * (status listed, media type, body schema, headers) against the operation. Prism reads our OpenAPI 3.1
 * (null in type unions, const) as it is, so no other validator is needed. Each route gets its valid call
 * (the route suite's fixtures, test/all-route-fixtures.ts) and the errors every route gives (401, 403,
 * 404, 400); then bodies left out, the 202 and its status URL, a replayed creation, 422 and 403 of
 * idempotency and credits, a bad body, a source down (503) and 429. A call made wrong on purpose must
 * get an answer the document lists; every other call, no finding at all. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { createInstance, getHttpOperationsFromSpec, type IHttpRequest } from '@stoplight/prism-http';
import type { IHttpOperation } from '@stoplight/types';
import { Value } from 'typebox/value';
import { createHarness, json } from './harness.ts';
import { closeReceiver, PUBLIC_DATA, samples, validCall, type ValidCall } from './all-route-fixtures.ts';

const h = await createHarness({
  env: {
    TRAMITA_WEBHOOK_ALLOW_PRIVATE: 'true',
    TRAMITA_FEED_SETTLE_MS: '0',
    TRAMITA_RATE_LIMITS: 'reference=1000/60s,lookup=1000/60s,search=1000/60s,async=1000/60s,monitor=1000/60s,download=1000/60s,account=1000/60s',
  },
});
test.after(async () => {
  closeReceiver();
  await h.close();
});
await h.app.listen({ host: '127.0.0.1', port: 0 });
const upstream = new URL(`http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`);
const doc = json(await h.inject({ method: 'GET', url: '/v1/openapi.json' }));
const operations: IHttpOperation[] = await getHttpOperationsFromSpec(doc);
const prism = createInstance(
  {
    isProxy: true,
    upstream,
    upstreamProxy: undefined,
    errors: false,
    checkSecurity: true,
    validateRequest: true,
    validateResponse: true,
    mock: { dynamic: false },
  },
  { logger: pino({ level: 'silent' }) as never },
);

interface Seen {
  label: string;
  status: number;
  request: string[];
  response: string[];
}
const seen: Seen[] = [];

/** One call through Prism's proxy: what the server answered, and every violation Prism found in the exchange. */
async function viaPrism(
  label: string,
  call: ValidCall,
  headers: Record<string, string>,
  config?: Parameters<typeof prism.request>[2],
): Promise<Seen & { body: any; headers: Record<string, string> }> {
  const input: IHttpRequest = {
    method: call.method.toLowerCase() as IHttpRequest['method'],
    url: { path: call.path, query: Object.fromEntries(new URLSearchParams(call.query)) },
    headers: { ...(call.body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(call.body === undefined ? {} : { body: call.body }),
  };
  const result = await prism.request(input, operations, config)();
  if (result._tag === 'Left') throw result.left;
  const { output, validations } = result.right;
  const show = (d: { path?: string[]; message: string }) => `${(d.path ?? []).join('.')}: ${d.message}`;
  const s = { label, status: output.statusCode, request: validations.input.map(show), response: validations.output.map(show) };
  seen.push(s);
  return { ...s, body: output.body, headers: output.headers ?? {} };
}

const routes = h.app.tramita.routes;
const route = (method: string, url: string) => routes.find((r) => r.method === method && r.url === url)!;
const SECURITY = ': Invalid security scheme used';

/** A call the server must serve: no violation at all, on the request or the response. */
function assertClean(s: Seen): void {
  assert.deepEqual({ request: s.request, response: s.response }, { request: [], response: [] }, s.label);
}

/** A call made wrong on purpose: the answer must still be one the document lists, and the request's faults exactly `expected`. */
function assertAnswerListed(s: Seen, expected: string[] = []): void {
  assert.deepEqual({ request: s.request, response: s.response }, { request: expected, response: [] }, s.label);
}

test('Prism reads the document: every registered route is one of its operations', () => {
  assert.equal(operations.length, routes.length);
});

for (const r of routes) {
  const name = `${r.method} ${r.url}`;
  test(`${name}: its valid call, and the error answers every route gives, agree with the document`, async () => {
    const owner = await h.createAccount({ credits: 1000 });
    const params = await samples(r)(h, owner);
    const ok = await viaPrism(`${name} owner`, validCall(h, r, params), owner.headers);
    assert.ok(ok.status >= 200 && ok.status < 300, `${ok.status} ${JSON.stringify(ok.body)}`);
    assertClean(ok);
    if (!r.meta.auth) return;
    assertAnswerListed(await viaPrism(`${name} no key`, validCall(h, r, params), {}), [SECURITY]);
    assertAnswerListed(await viaPrism(`${name} unknown key`, validCall(h, r, params), { 'x-api-key': 'trm_0000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }));
    // Prism does not refuse a query parameter the operation does not list; the server does (400 UNKNOWN_PARAMETER).
    const unknown = await viaPrism(`${name} unknown parameter`, validCall(h, r, params, 'definitelyNotAParameter=1'), owner.headers);
    assert.equal(unknown.status, 400);
    assertAnswerListed(unknown);
    if (r.url.includes(':') && !PUBLIC_DATA.has(r.url)) {
      const stranger = await h.createAccount({ credits: 1000 });
      const notFound = await viaPrism(`${name} stranger`, validCall(h, r, params), stranger.headers);
      assert.equal(notFound.status, 404);
      assertAnswerListed(notFound);
    }
    const inactive = await h.createAccount({ credits: 1000 });
    const theirs = await samples(r)(h, inactive);
    await h.services.accounts.setStatus(inactive.accountId, 'inactive');
    const refused = await viaPrism(`${name} inactive`, validCall(h, r, theirs), inactive.headers);
    assert.equal(refused.status, 403);
    assertAnswerListed(refused);
  });
}

/** The POSTs integrators send with no body (Prism found them declared with a required body). */
const NEED_NOTHING = new Set([
  '/v1/processos/cnj/:cnj/solicitar-atualizacao',
  '/v1/conta/webhook/teste',
  '/v1/processos/cnj/:cnj/resumo-ia/solicitar-atualizacao',
]);

test('a body the schema lets be empty may be absent, as integrators send it (Content-Type and no body)', async () => {
  const optional = routes.filter((r) => r.schema.body && r.method !== 'GET' && Value.Check(r.schema.body, {}));
  assert.ok(optional.length >= 3);
  for (const r of optional) {
    const owner = await h.createAccount({ credits: 1000 });
    const call = { ...validCall(h, r, await samples(r)(h, owner)), body: undefined };
    const res = await viaPrism(`${r.method} ${r.url} no body`, call, { ...owner.headers, 'content-type': 'application/json' });
    // A body schema whose fields are all optional (aliases) may still need one of them: a 400 the document lists.
    if (NEED_NOTHING.has(r.url)) assert.ok(res.status < 300, `${res.label}: ${res.status} ${JSON.stringify(res.body)}`);
    assertClean(res);
  }
});

test('the async window: 202 with Prefer: respond-async, the status URL while it runs and once done', async () => {
  const owner = await h.createAccount({ credits: 1000 });
  const cover = route('GET', '/v1/processos/cnj/:cnj');
  const pending = await viaPrism('cover respond-async', validCall(h, cover, await samples(cover)(h, owner)), { ...owner.headers, prefer: 'respond-async' });
  assert.equal(pending.status, 202);
  assertClean(pending);
  const poll = { method: 'GET', path: `/v1/requests/${pending.body.data.requestId}`, query: '', body: undefined };
  for (let i = 0; i < 200; i++) {
    const res = await viaPrism('status URL', poll, owner.headers);
    assertClean(res);
    if (res.status !== 202) return assert.equal(res.status, 200);
    await new Promise((done) => setTimeout(done, 25));
  }
  assert.fail('the operation never completed');
});

test('estimates (Prefer: return=estimate) of a JSON, a file and a free operation, in their own media type', async () => {
  const owner = await h.createAccount({ credits: 1000 });
  for (const url of ['/v1/processos/cnj/:cnj', '/v1/processos/cnj/:cnj/pdf', '/v1/conta/saldo']) {
    const r = route('GET', url);
    const res = await viaPrism(`${url} estimate`, validCall(h, r, await samples(r)(h, owner)), { ...owner.headers, prefer: 'return=estimate' });
    assert.equal(res.status, 200);
    assertClean(res);
  }
});

test('idempotency: a replayed creation, a key reused with another body (422), a charge the balance cannot cover (403)', async () => {
  const owner = await h.createAccount({ credits: 1000 });
  const create = route('POST', '/v1/monitoramentos/processos');
  const call = validCall(h, create, await samples(create)(h, owner));
  const headers = { ...owner.headers, 'idempotency-key': 'conformance-1' };
  const first = await viaPrism('creation', call, headers);
  const replay = await viaPrism('creation replayed', call, headers);
  assert.deepEqual([first.status, replay.status], [201, 201]);
  assertClean(first);
  assertClean(replay);
  const other = validCall(h, create, await samples(create)(h, owner));
  const reused = await viaPrism('key reused', other, headers);
  assert.equal(reused.status, 422);
  assertAnswerListed(reused);
  const poor = await h.createAccount();
  const refused = await viaPrism('no credits', validCall(h, create, await samples(create)(h, poor)), poor.headers);
  assert.equal(refused.status, 403);
  assertAnswerListed(refused);
});

test('bad input is a 400 the document lists, and Prism flags the request too', async () => {
  const owner = await h.createAccount({ credits: 1000 });
  const res = await viaPrism(
    'bad monitor body',
    { method: 'POST', path: '/v1/monitoramentos/processos', query: '', body: { frequencia: 'NUNCA' } },
    owner.headers,
  );
  assert.equal(res.status, 400);
  assert.equal(res.response.length, 0, res.response.join('; '));
  assert.ok(res.request.length > 0);
  const cnj = await viaPrism('bad CNJ', { method: 'GET', path: '/v1/processos/cnj/123', query: '', body: undefined }, owner.headers);
  assert.equal(cnj.status, 400);
  assertAnswerListed(cnj, cnj.request); // the path parameter has no pattern: what Prism finds is reported, the answer must be listed
});

test('a source that fails is a 503 the document lists', async (t) => {
  t.after(() => h.sources.sandbox!.faults.reset());
  h.sources.sandbox!.faults.set({ upstream: 'all', status: 503 });
  const owner = await h.createAccount({ credits: 1000 });
  const cover = route('GET', '/v1/processos/cnj/:cnj');
  // A case without documents: no fixture asked for it, so it is not in the store and the source must answer.
  const unseen = h.sources.sandbox!.dataset.cases.find((c) => c.filedAt <= h.sources.sandbox!.dataset.now() && c.documentos.length === 0)!.numero;
  const res = await viaPrism('source down', validCall(h, cover, { cnj: unseen }), owner.headers);
  assert.ok(res.status >= 500, `${res.status} ${JSON.stringify(res.body)}`);
  assertAnswerListed(res);
});

test('past the rate limit: 429 with Retry-After, as the document lists it', async (t) => {
  const limited = await createHarness({ env: { TRAMITA_RATE_LIMITS: 'lookup=1/60m,account=1/60m' } });
  t.after(() => limited.close());
  await limited.app.listen({ host: '127.0.0.1', port: 0 });
  const config = {
    isProxy: true as const,
    upstream: new URL(`http://127.0.0.1:${(limited.app.server.address() as AddressInfo).port}`),
    upstreamProxy: undefined,
    errors: false,
    checkSecurity: true,
    validateRequest: true,
    validateResponse: true,
    mock: { dynamic: false },
  };
  const owner = await limited.createAccount({ credits: 1000 });
  for (const call of [{ method: 'GET', path: '/v1/conta/saldo', query: '', body: undefined }]) {
    await viaPrism('within the limit', call, owner.headers, config);
    const res = await viaPrism('past the limit', call, owner.headers, config);
    assert.equal(res.status, 429);
    assertAnswerListed(res);
  }
});

test.after(() => console.log(`# ${seen.length} calls through Prism's proxy`));
