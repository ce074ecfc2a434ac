/**
 * The suite every registered /v1 route must pass (Unkey-style `runCommonRouteTests`): auth (missing,
 * malformed, unknown, revoked key; inactive account; Bearer accepted), the error and success envelopes,
 * unknown parameters, tenancy (another account's object is a 404) and per-class rate limits.
 * A new route with path parameters must add a fixture (`owned`) to its capability's testing.ts
 * (test/route-fixtures.ts), or this suite fails.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import type { RegisteredRoute } from '../src/platform/http/route.ts';
import { createHarness, json, type Harness } from './harness.ts';
import { closeReceiver, FILES, OWNED, PUBLIC_DATA, samples, validCall } from './all-route-fixtures.ts';

test.after(() => closeReceiver());

function assertErrorEnvelope(res: LightMyRequestResponse, status: number, code: string): void {
  assert.equal(res.statusCode, status, res.body);
  const body = json(res);
  assert.equal(body.error.code, code);
  assert.equal(typeof body.error.message, 'string');
  assert.equal(body.meta.requestId, res.headers['x-request-id']);
  assert.match(String(res.headers['content-type']), /^application\/json/);
}

async function request(h: Harness, route: RegisteredRoute, headers: Record<string, string>, params: Record<string, string> = {}, extraQuery = '') {
  const call = validCall(h, route, params, extraQuery);
  return h.inject({
    method: call.method as 'GET',
    url: call.path + (call.query ? `?${call.query}` : ''),
    headers,
    ...(call.body === undefined ? {} : { payload: call.body as object }),
  });
}

// The feed's settling window would hide the fixture's fresh event on PostgreSQL (webhooks.test.ts covers the window).
const harness = await createHarness({
  env: {
    TRAMITA_WEBHOOK_ALLOW_PRIVATE: 'true',
    TRAMITA_FEED_SETTLE_MS: '0',
    TRAMITA_RATE_LIMITS: 'reference=1000/60s,lookup=1000/60s,search=1000/60s,async=1000/60s,monitor=1000/60s,download=1000/60s,account=1000/60s',
  },
});
const routes = harness.app.tramita.routes;

test('the suite covers every route, and every route with path parameters has an ownership fixture', () => {
  assert.ok(routes.length >= 8);
  for (const r of routes) if (r.url.includes(':')) assert.ok(OWNED[r.url], `add an owned fixture for ${r.method} ${r.url} to its capability's testing.ts`);
});

for (const route of routes.filter((r) => r.meta.auth)) {
  const name = `${route.method} ${route.url}`;

  test(`${name}: no key is 401 MISSING_API_KEY with WWW-Authenticate`, async () => {
    const owner = await harness.createAccount();
    const res = await request(harness, route, {}, await samples(route)(harness, owner));
    assertErrorEnvelope(res, 401, 'MISSING_API_KEY');
    assert.ok(res.headers['www-authenticate']);
  });

  test(`${name}: a malformed, unknown or revoked key is 401 INVALID_API_KEY`, async () => {
    const owner = await harness.createAccount();
    const params = await samples(route)(harness, owner);
    for (const key of ['nope', 'trm_0000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA']) {
      assertErrorEnvelope(await request(harness, route, { 'x-api-key': key }, params), 401, 'INVALID_API_KEY');
    }
    await harness.services.accounts.revokeKey(owner.keyId);
    assertErrorEnvelope(await request(harness, route, owner.headers, params), 401, 'INVALID_API_KEY');
  });

  test(`${name}: an inactive account is 403 ACCOUNT_INACTIVE`, async () => {
    const owner = await harness.createAccount({ credits: 1000 });
    const params = await samples(route)(harness, owner);
    await harness.services.accounts.setStatus(owner.accountId, 'inactive');
    assertErrorEnvelope(await request(harness, route, owner.headers, params), 403, 'ACCOUNT_INACTIVE');
  });

  test(`${name}: the owner gets the {data, meta} envelope, by x-api-key or Bearer alike`, async () => {
    const owner = await harness.createAccount({ credits: 1000 });
    const params = await samples(route)(harness, owner);
    for (const headers of [owner.headers, { authorization: `Bearer ${owner.key}` }]) {
      const res = await request(harness, route, headers, params);
      assert.ok(res.statusCode >= 200 && res.statusCode < 300, `${res.statusCode} ${res.body}`);
      if (FILES.has(route.url)) {
        // A file is sent as is: its request id and charge travel in headers.
        assert.ok(res.headers['x-request-id'] && res.headers['x-credits-charged'] !== undefined);
        continue;
      }
      const body = json(res);
      assert.ok('data' in body);
      // The status URL replays the operation's own meta.requestId; every other route uses this exchange's.
      assert.equal(body.meta.requestId, route.url === '/v1/requests/:requestId' ? params.requestId : res.headers['x-request-id']);
    }
  });

  test(`${name}: an unknown query parameter is 400 UNKNOWN_PARAMETER naming it`, async () => {
    const owner = await harness.createAccount({ credits: 1000 });
    const res = await request(harness, route, owner.headers, await samples(route)(harness, owner), 'definitelyNotAParameter=1');
    assertErrorEnvelope(res, 400, 'UNKNOWN_PARAMETER');
    assert.equal(json(res).error.details.field, 'definitelyNotAParameter');
  });

  if (route.url.includes(':') && PUBLIC_DATA.has(route.url)) {
    test(`${name}: public court data answers another account as it answers the owner`, async () => {
      const owner = await harness.createAccount({ credits: 1000 });
      const stranger = await harness.createAccount({ credits: 1000 });
      const res = await request(harness, route, stranger.headers, await OWNED[route.url](harness, owner));
      assert.ok(res.statusCode >= 200 && res.statusCode < 300, `${res.statusCode} ${res.body}`);
    });
  } else if (route.url.includes(':')) {
    test(`${name}: another account's object is 404, never 403 or its data`, async () => {
      const owner = await harness.createAccount({ credits: 1000 });
      const stranger = await harness.createAccount({ credits: 1000 });
      const res = await request(harness, route, stranger.headers, await OWNED[route.url](harness, owner));
      assert.equal(res.statusCode, 404, res.body);
    });
  }
}

test('GET /v1 answers without a key', async () => {
  const res = await harness.inject({ method: 'GET', url: '/v1' });
  assert.equal(res.statusCode, 200);
  assert.equal(json(res).meta.requestId, res.headers['x-request-id']);
});

test('every route class is rate limited per key: the request past the limit is 429 RATE_LIMITED with Retry-After and RateLimit-* headers', async (t) => {
  // Hour-long windows: on PostgreSQL windows are aligned to the clock (http/shared-windows.ts), and a
  // route's three requests must not straddle a window's end (with 60 s windows, 1 run in 20 did).
  const h = await createHarness({
    env: {
      TRAMITA_WEBHOOK_ALLOW_PRIVATE: 'true',
      TRAMITA_FEED_SETTLE_MS: '0',
      TRAMITA_RATE_LIMITS: 'reference=2/60m,lookup=2/60m,search=2/60m,async=2/60m,monitor=2/60m,download=2/60m,account=2/60m',
    },
  });
  t.after(() => h.close());
  for (const route of h.app.tramita.routes.filter((r) => r.meta.class)) {
    const owner = await h.createAccount({ credits: 1000 });
    const params = await samples(route)(h, owner);
    const headers = route.meta.auth ? owner.headers : {};
    const statuses: number[] = [];
    let last: LightMyRequestResponse | undefined;
    for (let i = 0; i < 3; i++) {
      last = await request(h, route, headers, params);
      statuses.push(last.statusCode);
    }
    if (!route.meta.auth && statuses[2] !== 429) continue; // keyed by IP: an earlier public route may share the counter
    assertErrorEnvelope(last!, 429, 'RATE_LIMITED');
    assert.ok(Number(last!.headers['retry-after']) >= 1, `${route.url}: Retry-After`);
    assert.equal(last!.headers['ratelimit-limit'], '2');
    assert.equal(last!.headers['ratelimit-remaining'], '0');
    assert.ok(last!.headers['ratelimit-reset'] !== undefined);
  }
  // another key keeps its own budget
  const fresh = await h.createAccount();
  assert.equal((await h.inject({ method: 'GET', url: '/v1/conta/saldo', headers: fresh.headers })).statusCode, 200);
});

test.after(() => harness.close());
