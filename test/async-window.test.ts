/**
 * The synchronous window (spec §3.2, §8): past it an eligible operation answers 202 with a status URL,
 * continues, is charged once on completion, and the status URL replays the final response exactly.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../src/config.ts';
import { createHarness, json, type Harness, type TestAccount } from './harness.ts';
import { testNow } from './test-date.ts';
import { testRoutes } from './routes.ts';

const WINDOW = { TRAMITA_SYNC_WINDOW_MS: '300', TRAMITA_SYNC_WINDOW_MARGIN_MS: '50', TRAMITA_POLL_AFTER_MS: '1500' };

async function poll(h: Harness, a: TestAccount, url: string, until = (s: number) => s !== 202) {
  for (let i = 0; i < 100; i++) {
    const res = await h.inject({ method: 'GET', url, headers: a.headers });
    if (until(res.statusCode)) return res;
    await sleep(50);
  }
  throw new Error(`still pending: ${url}`);
}

function path(absolute: string): string {
  return new URL(absolute).pathname;
}

test(
  'an operation past the window answers 202 with Location, Retry-After and poll ' + 'hints, then the status URL returns the final body once, charged once',
  async (t) => {
    const h = await createHarness({ extraRoutes: testRoutes, env: WINDOW });
    t.after(() => h.close());
    const a = await h.createAccount({ credits: 100 });
    const res = await h.inject({ method: 'GET', url: '/v1/test/charged?delayMs=900', headers: { ...a.headers, host: 'api.example.test' } });
    assert.equal(res.statusCode, 202, res.body);
    // The 202 came while the work still ran: the status URL says so below (still 202), no wall clock read.
    const body = json(res);
    const requestId = res.headers['x-request-id'];
    // Built from the server's own address, not from the Host the client sent (issue 45).
    assert.equal(res.headers.location, `http://${h.config.host}:${h.config.port}/v1/requests/${requestId}`);
    assert.equal(body.data.statusUrl, res.headers.location);
    assert.equal(res.headers['retry-after'], '2');
    assert.equal(body.data.pollAfterMs, 1500);
    assert.equal(body.data.pollAfterSeconds, 2);
    assert.equal(body.pollAfterMs, 1500);
    assert.ok(Date.parse(body.data.nextPollAt) > h.services.clock.now().getTime());
    assert.equal(body.data.status, 'PROCESSANDO');
    assert.equal(body.data.requestId, requestId);
    assert.ok(Date.parse(body.data.submittedAt) <= h.services.clock.now().getTime());
    assert.match(body.data.message, /processamento/);
    assert.equal(body.meta.creditsCharged, undefined, 'no debit while pending');

    const stillRunning = await h.inject({ method: 'GET', url: path(body.data.statusUrl), headers: a.headers });
    assert.equal(stillRunning.statusCode, 202);
    assert.ok(stillRunning.headers['retry-after']);
    assert.equal((await h.services.db.selectFrom('ledger').selectAll().where('kind', '=', 'debit').execute()).length, 0);

    const done = await poll(h, a, path(body.data.statusUrl));
    assert.equal(done.statusCode, 200);
    const final = json(done);
    assert.deepEqual(final.data, { ok: true, echo: 'charged' });
    assert.equal(final.meta.requestId, requestId);
    assert.equal(final.meta.creditsCharged, 0.05);
    assert.equal(final.meta.creditsRemaining, 0.95);
    // polling again replays the same bytes, never running or charging it again
    const again = await h.inject({ method: 'GET', url: path(body.data.statusUrl), headers: a.headers });
    assert.equal(again.body, done.body);
    const debits = await h.services.db.selectFrom('ledger').selectAll().where('kind', '=', 'debit').execute();
    assert.equal(debits.length, 1);
    assert.equal(debits[0].operation_id, requestId);
  },
);

test(
  "the window runs from the request's arrival: time spent before the handler counts, so " + 'the 202 still beats a 30 s client; the default window is 25 s',
  async (t) => {
    assert.equal(loadConfig({}).syncWindowMs, 25_000);
    const h = await createHarness({ extraRoutes: testRoutes, env: { ...WINDOW, TRAMITA_SYNC_WINDOW_MS: '600' } });
    t.after(() => h.close());
    const a = await h.createAccount({ credits: 100 });
    // 400 ms before the handler + 400 ms of work: within a window counted from the handler, past one counted from arrival.
    const res = await h.inject({ method: 'GET', url: '/v1/test/charged?arrivalDelayMs=400&delayMs=400', headers: a.headers });
    assert.equal(res.statusCode, 202, res.body);
  },
);

test("GET /v1/requests: the account's 202s newest first, running then finished, so a lost requestId is found again; another account sees none", async (t) => {
  const h = await createHarness({ extraRoutes: testRoutes, env: WINDOW });
  t.after(() => h.close());
  const a = await h.createAccount({ credits: 100 });
  const stranger = await h.createAccount({ credits: 100 });
  const first = await h.inject({ method: 'GET', url: '/v1/test/charged?delayMs=600', headers: a.headers });
  const second = await h.inject({ method: 'GET', url: '/v1/test/charged?delayMs=600&fail=source', headers: a.headers });
  assert.deepEqual([first.statusCode, second.statusCode], [202, 202]);
  const list = json(await h.inject({ method: 'GET', url: '/v1/requests', headers: a.headers })).data;
  assert.deepEqual(
    list.items.map((r: any) => r.requestId),
    [second.headers['x-request-id'], first.headers['x-request-id']],
  );
  assert.deepEqual(
    list.items.map((r: any) => r.status),
    ['PROCESSANDO', 'PROCESSANDO'],
  );
  assert.equal(list.items[1].statusUrl, json(first).data.statusUrl);
  assert.equal(list.items[1].path, '/v1/test/charged');
  await poll(h, a, path(json(first).data.statusUrl));
  await poll(h, a, path(json(second).data.statusUrl));
  const done = json(await h.inject({ method: 'GET', url: '/v1/requests?page=1&limit=1', headers: a.headers })).data;
  assert.equal(done.items.length, 1);
  assert.equal(done.items[0].status, 'CONCLUIDO');
  assert.equal(done.items[0].httpStatus, 503);
  assert.equal(done.pagination.hasNextPage, true);
  const next = json(await h.inject({ method: 'GET', url: '/v1/requests?page=2&limit=1', headers: a.headers })).data;
  assert.deepEqual([next.items[0].requestId, next.items[0].httpStatus], [first.headers['x-request-id'], 200]);
  assert.equal(
    json(await h.inject({ method: 'GET', url: '/v1/requests?page=3&limit=1', headers: a.headers })).data.items.length,
    0,
    'past the end: an empty page',
  );
  assert.equal(json(await h.inject({ method: 'GET', url: '/v1/requests', headers: stranger.headers })).data.items.length, 0);
});

test('a pending operation that fails stores the error as its final response, uncharged', async (t) => {
  const h = await createHarness({ extraRoutes: testRoutes, env: WINDOW });
  t.after(() => h.close());
  const a = await h.createAccount({ credits: 100 });
  const res = await h.inject({ method: 'GET', url: '/v1/test/charged?delayMs=500&fail=source', headers: a.headers });
  assert.equal(res.statusCode, 202);
  const done = await poll(h, a, path(json(res).data.statusUrl));
  assert.equal(done.statusCode, 503);
  assert.equal(json(done).error.code, 'SOURCE_UNAVAILABLE');
  assert.equal(json(done).meta.requestId, res.headers['x-request-id']);
  assert.equal(json(await h.inject({ method: 'GET', url: '/v1/conta/saldo', headers: a.headers })).data.saldoCentavos, 100);
});

test('another account polling the status URL gets 404, as for an unknown id', async (t) => {
  const h = await createHarness({ extraRoutes: testRoutes, env: WINDOW });
  t.after(() => h.close());
  const a = await h.createAccount({ credits: 100 });
  const b = await h.createAccount({ credits: 100 });
  const res = await h.inject({ method: 'GET', url: '/v1/test/charged?delayMs=400', headers: a.headers });
  const url = path(json(res).data.statusUrl);
  for (const when of ['running', 'done']) {
    if (when === 'done') await poll(h, a, url);
    const other = await h.inject({ method: 'GET', url, headers: b.headers });
    assert.equal(other.statusCode, 404, when);
    assert.equal(json(other).error.code, 'REQUEST_NOT_FOUND');
  }
  const unknown = await h.inject({ method: 'GET', url: '/v1/requests/req_000000000000000000000', headers: a.headers });
  assert.equal(unknown.statusCode, 404);
});

test('Prefer: respond-async answers 202 at once; Prefer: wait=N shortens the window', async (t) => {
  const h = await createHarness({ extraRoutes: testRoutes, env: { TRAMITA_SYNC_WINDOW_MS: '30000', TRAMITA_SYNC_WINDOW_MARGIN_MS: '0' } });
  t.after(() => h.close());
  const a = await h.createAccount({ credits: 100 });
  const quick = await h.inject({ method: 'GET', url: '/v1/test/charged', headers: { ...a.headers, prefer: 'respond-async' } });
  assert.equal(quick.statusCode, 202);
  assert.equal(quick.headers['preference-applied'], 'respond-async');
  const done = await poll(h, a, path(json(quick).data.statusUrl));
  assert.equal(json(done).meta.creditsCharged, 0.05);

  // wait=1 shortens the 30 s window to about a second: 3 s of work gets its 202 while it still runs
  // (with the 30 s window it would answer 200), and 100 ms of work still answers directly (the window
  // is not zero). Structural facts instead of the durations they imply (timings belong in npm run bench).
  const waited = await h.inject({ method: 'GET', url: '/v1/test/charged?delayMs=3000', headers: { ...a.headers, prefer: 'wait=1' } });
  assert.equal(waited.statusCode, 202);
  assert.equal(
    (await h.inject({ method: 'GET', url: path(json(waited).data.statusUrl), headers: a.headers })).statusCode,
    202,
    'answered before the work ended',
  );
  const quickWithin = await h.inject({ method: 'GET', url: '/v1/test/charged?delayMs=100', headers: { ...a.headers, prefer: 'wait=1' } });
  assert.equal(quickWithin.statusCode, 200, 'work that ends inside the shortened window answers directly');
});

test('an operation that finishes inside the window answers directly, with no pending record', async (t) => {
  const h = await createHarness({ extraRoutes: testRoutes, env: WINDOW });
  t.after(() => h.close());
  const a = await h.createAccount({ credits: 100 });
  const res = await h.inject({ method: 'GET', url: '/v1/test/charged?delayMs=20', headers: a.headers });
  assert.equal(res.statusCode, 200);
  assert.equal((await h.services.db.selectFrom('async_requests').selectAll().execute()).length, 0);
});

test('a status URL past retention is 404; the result is kept at least 24 h', async (t) => {
  const { ManualClock } = await import('../src/platform/clock.ts');
  const clock = new ManualClock(testNow());
  const h = await createHarness({ extraRoutes: testRoutes, env: WINDOW, clock });
  t.after(() => h.close());
  const a = await h.createAccount({ credits: 100 });
  const res = await h.inject({ method: 'GET', url: '/v1/test/charged?delayMs=400', headers: a.headers });
  const url = path(json(res).data.statusUrl);
  await poll(h, a, url);
  clock.advance(24 * 3_600_000);
  assert.equal((await h.inject({ method: 'GET', url, headers: a.headers })).statusCode, 200, 'still there after 24 h');
  clock.advance(49 * 3_600_000);
  assert.equal((await h.inject({ method: 'GET', url, headers: a.headers })).statusCode, 404, 'gone after the 72 h default');
});
