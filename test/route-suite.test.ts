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
import type { Fixture, RouteFixtures } from './route-fixtures.ts';
import { routeFixtures as pollFixtures } from '../src/platform/async/testing.ts';
import { routeFixtures as caseFixtures } from '../src/capabilities/processes/testing.ts';
import { routeFixtures as partyFixtures } from '../src/capabilities/parties/testing.ts';
import { routeFixtures as searchFixtures } from '../src/capabilities/search/testing.ts';
import { closeReceiver, routeFixtures as webhookFixtures } from '../src/capabilities/webhooks/testing.ts';
import { routeFixtures as eventFixtures } from '../src/capabilities/events/testing.ts';
import { routeFixtures as monitorFixtures } from '../src/capabilities/monitors/testing.ts';
import { routeFixtures as radarFixtures } from '../src/capabilities/radars/testing.ts';
import { routeFixtures as intimationFixtures } from '../src/capabilities/intimations/testing.ts';
import { routeFixtures as publicationMonitorFixtures } from '../src/capabilities/publication-monitors/testing.ts';
import { routeFixtures as lawyerFixtures } from '../src/capabilities/lawyers/testing.ts';
import { routeFixtures as gazetteFixtures } from '../src/capabilities/gazettes/testing.ts';
import { routeFixtures as muralFixtures } from '../src/capabilities/mural/testing.ts';
import { routeFixtures as warrantFixtures } from '../src/capabilities/warrants/testing.ts';
import { routeFixtures as summaryFixtures } from '../src/capabilities/summaries/testing.ts';
import { routeFixtures as administrativeFixtures } from '../src/capabilities/administrative/testing.ts';

/** Every capability's fixtures, kept beside its routes (its testing.ts). */
const FIXTURES: RouteFixtures[] = [pollFixtures, caseFixtures, summaryFixtures, partyFixtures, searchFixtures, webhookFixtures, eventFixtures,
  monitorFixtures, radarFixtures, intimationFixtures, publicationMonitorFixtures, lawyerFixtures, gazetteFixtures, muralFixtures, warrantFixtures, administrativeFixtures];
const merged = <K extends 'owned' | 'setups' | 'bodies' | 'queries'>(k: K) => Object.assign({}, ...FIXTURES.map((f) => f[k] ?? {})) as NonNullable<RouteFixtures[K]>;

/** For each route with path parameters: creates an object owned by `owner` and returns its params. */
const OWNED = merged('owned');
/** Routes without path parameters that need some state of the owner first; the params they return feed the body. */
const SETUP = merged('setups');
/** Bodies of the routes that need one (others get `{}`), by `METHOD url` or url. */
const BODY = merged('bodies');
/** Routes with required query parameters, and a valid query string for them (by `METHOD url` or url). */
const QUERY = merged('queries');
/** Public court data is the same for every account: these routes answer a stranger like the owner. */
const PUBLIC_DATA = new Set(FIXTURES.flatMap((f) => f.publicData ?? []));
/** Routes that answer a file instead of the JSON envelope. */
const FILES = new Set(FIXTURES.flatMap((f) => f.files ?? []));

test.after(() => closeReceiver());

function fill(url: string, params: Record<string, string>): string {
  return url.replace(/:([A-Za-z_]+)/g, (_, name) => {
    if (!(name in params)) throw new Error(`no fixture value for :${name} in ${url}`);
    return params[name];
  });
}

function assertErrorEnvelope(res: LightMyRequestResponse, status: number, code: string): void {
  assert.equal(res.statusCode, status, res.body);
  const body = json(res);
  assert.equal(body.error.code, code);
  assert.equal(typeof body.error.message, 'string');
  assert.equal(body.meta.requestId, res.headers['x-request-id']);
  assert.match(String(res.headers['content-type']), /^application\/json/);
}

async function request(h: Harness, route: RegisteredRoute, headers: Record<string, string>, params: Record<string, string> = {}, extraQuery = '') {
  const method = route.method as 'GET';
  const query = [(QUERY[`${route.method} ${route.url}`] ?? QUERY[route.url])?.(h), extraQuery].filter(Boolean).join('&');
  const body = (BODY[`${route.method} ${route.url}`] ?? BODY[route.url])?.(h, params) ?? {};
  return h.inject({ method, url: fill(route.url, params) + (query ? `?${query}` : ''), headers, ...(method === 'GET' || method === 'DELETE' ? {} : { payload: body as object }) });
}

// The feed's settling window would hide the fixture's fresh event on PostgreSQL (webhooks.test.ts covers the window).
const harness = await createHarness({ env: { TRAMITA_WEBHOOK_ALLOW_PRIVATE: 'true', TRAMITA_FEED_SETTLE_MS: '0', TRAMITA_RATE_LIMITS: 'reference=1000/60s,lookup=1000/60s,search=1000/60s,async=1000/60s,monitor=1000/60s,download=1000/60s,account=1000/60s' } });
const routes = harness.app.tramita.routes;
const samples = (route: RegisteredRoute): Fixture => (route.url.includes(':') ? OWNED[route.url] : SETUP[route.url] ?? (async () => ({})));

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
  const h = await createHarness({ env: { TRAMITA_WEBHOOK_ALLOW_PRIVATE: 'true', TRAMITA_FEED_SETTLE_MS: '0', TRAMITA_RATE_LIMITS: 'reference=2/60m,lookup=2/60m,search=2/60m,async=2/60m,monitor=2/60m,download=2/60m,account=2/60m' } });
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
