/** Idempotency-Key on POST/PUT/PATCH/DELETE and charged GETs: replay without running or charging, 422 on reuse, 409 while running. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../src/platform/clock.ts';
import { createHarness, json } from './harness.ts';
import { testNow } from './test-date.ts';
import { calls, testRoutes } from './routes.ts';

async function debits(h: Awaited<ReturnType<typeof createHarness>>) {
  return (await h.services.db.selectFrom('ledger').selectAll().where('kind', '=', 'debit').execute()).length;
}

test('a replay with the same key returns the stored response byte for byte, without running or charging again', async (t) => {
  const h = await createHarness({ extraRoutes: testRoutes });
  t.after(() => h.close());
  const a = await h.createAccount({ credits: 100 });
  const req = {
    method: 'POST' as const,
    url: '/v1/test/orders',
    headers: { ...a.headers, 'idempotency-key': 'pedido-001' },
    payload: { nome: 'X', quantidade: 2 },
  };
  const first = await h.inject(req);
  assert.equal(first.statusCode, 201, first.body);
  const ran = calls.post;
  const second = await h.inject(req);
  assert.equal(second.statusCode, 201);
  assert.equal(second.body, first.body);
  assert.equal(second.headers['idempotent-replayed'], 'true');
  assert.equal(calls.post, ran, 'not run again');
  assert.equal(await debits(h), 1, 'charged once');
});

test('a charged GET honours Idempotency-Key: the lookup whose answer was lost is asked again with its key and answered without a second charge', async (t) => {
  const h = await createHarness({ extraRoutes: testRoutes });
  t.after(() => h.close());
  const a = await h.createAccount({ credits: 100 });
  const req = { method: 'GET' as const, url: '/v1/test/charged', headers: { ...a.headers, 'idempotency-key': 'consulta-001' } };
  const first = await h.inject(req);
  assert.equal(first.statusCode, 200, first.body);
  const ran = calls.charged;
  const second = await h.inject(req);
  assert.equal(second.body, first.body);
  assert.equal(second.headers['idempotent-replayed'], 'true');
  assert.equal(calls.charged, ran, 'not run again');
  assert.equal(await debits(h), 1, 'charged once');
  // Without a key every GET is a new query, charged again.
  await h.inject({ method: 'GET', url: '/v1/test/charged', headers: a.headers });
  assert.equal(await debits(h), 2);
});

test('the same key with a different request is 422 IDEMPOTENCY_KEY_REUSED', async (t) => {
  const h = await createHarness({ extraRoutes: testRoutes });
  t.after(() => h.close());
  const a = await h.createAccount({ credits: 100 });
  const headers = { ...a.headers, 'idempotency-key': 'k1' };
  assert.equal((await h.inject({ method: 'POST', url: '/v1/test/orders', headers, payload: { nome: 'X' } })).statusCode, 201);
  const other = await h.inject({ method: 'POST', url: '/v1/test/orders', headers, payload: { nome: 'Y' } });
  assert.equal(other.statusCode, 422);
  assert.equal(json(other).error.code, 'IDEMPOTENCY_KEY_REUSED');
  assert.equal(await debits(h), 1);
});

test('the same key while the first request still runs is 409 IDEMPOTENCY_KEY_IN_USE', async (t) => {
  const h = await createHarness({ extraRoutes: testRoutes });
  t.after(() => h.close());
  const a = await h.createAccount({ credits: 100 });
  const req = { method: 'POST' as const, url: '/v1/test/orders', headers: { ...a.headers, 'idempotency-key': 'slow' }, payload: { nome: 'X', delayMs: 400 } };
  const first = h.inject(req);
  await new Promise((r) => setTimeout(r, 100));
  const concurrent = await h.inject(req);
  assert.equal(concurrent.statusCode, 409);
  assert.equal(json(concurrent).error.code, 'IDEMPOTENCY_KEY_IN_USE');
  assert.equal((await first).statusCode, 201);
  assert.equal((await h.inject(req)).statusCode, 201, 'replayed once the first finished');
  assert.equal(await debits(h), 1);
});

test('keys belong to one account: another account may use the same key for its own request', async (t) => {
  const h = await createHarness({ extraRoutes: testRoutes });
  t.after(() => h.close());
  const a = await h.createAccount({ credits: 100 });
  const b = await h.createAccount({ credits: 100 });
  const ra = await h.inject({ method: 'POST', url: '/v1/test/orders', headers: { ...a.headers, 'idempotency-key': 'same' }, payload: { nome: 'A' } });
  const rb = await h.inject({ method: 'POST', url: '/v1/test/orders', headers: { ...b.headers, 'idempotency-key': 'same' }, payload: { nome: 'B' } });
  assert.equal(json(ra).data.nome, 'A');
  assert.equal(json(rb).data.nome, 'B');
  assert.equal(await debits(h), 2);
});

test('a failed request (5xx) releases its key so it can be retried; a 4xx business answer is kept', async (t) => {
  const h = await createHarness({ extraRoutes: testRoutes });
  t.after(() => h.close());
  const a = await h.createAccount({ credits: 100 });
  const headers = { ...a.headers, 'idempotency-key': 'retry-me' };
  const failed = await h.inject({ method: 'POST', url: '/v1/test/orders', headers, payload: { nome: 'X', fail: 'source' } });
  assert.equal(failed.statusCode, 503);
  const retried = await h.inject({ method: 'POST', url: '/v1/test/orders', headers: { ...headers }, payload: { nome: 'X', fail: 'source' } });
  assert.equal(retried.headers['idempotent-replayed'], undefined, 'ran again');
  const notFound = { ...a.headers, 'idempotency-key': 'nf' };
  const nf1 = await h.inject({ method: 'POST', url: '/v1/test/orders', headers: notFound, payload: { nome: 'X', fail: 'not_found' } });
  const nf2 = await h.inject({ method: 'POST', url: '/v1/test/orders', headers: notFound, payload: { nome: 'X', fail: 'not_found' } });
  assert.equal(nf1.statusCode, 404);
  assert.equal(nf2.headers['idempotent-replayed'], 'true');
  assert.equal(await debits(h), 0);
});

test('a malformed Idempotency-Key is 400 INVALID_IDEMPOTENCY_KEY', async (t) => {
  const h = await createHarness({ extraRoutes: testRoutes });
  t.after(() => h.close());
  const a = await h.createAccount({ credits: 100 });
  const res = await h.inject({ method: 'POST', url: '/v1/test/orders', headers: { ...a.headers, 'idempotency-key': 'x'.repeat(256) }, payload: { nome: 'X' } });
  assert.equal(res.statusCode, 400);
  assert.equal(json(res).error.code, 'INVALID_IDEMPOTENCY_KEY');
});

test('an idempotent request that went pending replays its 202 and the status URL gives the one charged result', async (t) => {
  const h = await createHarness({ extraRoutes: testRoutes, env: { TRAMITA_SYNC_WINDOW_MS: '200', TRAMITA_SYNC_WINDOW_MARGIN_MS: '50' } });
  t.after(() => h.close());
  const a = await h.createAccount({ credits: 100 });
  const req = { method: 'POST' as const, url: '/v1/test/orders', headers: { ...a.headers, 'idempotency-key': 'long' }, payload: { nome: 'X', delayMs: 500 } };
  const first = await h.inject(req);
  assert.equal(first.statusCode, 202);
  const replay = await h.inject(req);
  assert.equal(replay.statusCode, 202);
  assert.equal(json(replay).data.statusUrl, json(first).data.statusUrl);
  await new Promise((r) => setTimeout(r, 700));
  const final = await h.inject({ method: 'GET', url: new URL(json(first).data.statusUrl).pathname, headers: a.headers });
  assert.equal(final.statusCode, 201);
  assert.equal(await debits(h), 1);
});

test('a request refused for lack of credit is not kept: after a top-up the same key runs it', async (t) => {
  const h = await createHarness({ extraRoutes: testRoutes });
  t.after(() => h.close());
  const a = await h.createAccount({ credits: 0 });
  const req = { method: 'POST' as const, url: '/v1/test/orders', headers: { ...a.headers, 'idempotency-key': 'after-topup' }, payload: { nome: 'X' } };
  const refused = await h.inject(req);
  assert.equal(refused.statusCode, 403);
  assert.equal(json(refused).error.code, 'INSUFFICIENT_CREDITS');
  const { credit } = await import('../src/platform/billing/ledger.ts');
  await credit(h.services.db, h.services.clock, a.accountId, 100, 'top-up');
  const ran = await h.inject(req);
  assert.equal(ran.statusCode, 201, ran.body);
  assert.equal(ran.headers['idempotent-replayed'], undefined);
  assert.equal(await debits(h), 1);
});

test("a charged answer is stored for replay in the charge's own transaction: committed before the response leaves", async (t) => {
  let storedWhenSent: { status: string; body: string | null } | undefined;
  const h = await createHarness({
    extraRoutes: (app, services) => {
      // Runs before the idempotency hook's own onSend: whatever it sees was committed with the charge.
      app.addHook('onSend', async (req, _reply, payload) => {
        if (req.headers['idempotency-key'] === 'commit-with-charge') {
          const row = await services.db
            .selectFrom('idempotency_keys')
            .select(['status', 'response_body'])
            .where('key', '=', 'commit-with-charge')
            .executeTakeFirst();
          storedWhenSent = row && { status: row.status, body: row.response_body };
        }
        return payload;
      });
      testRoutes(app, services);
    },
  });
  t.after(() => h.close());
  const a = await h.createAccount({ credits: 100 });
  const res = await h.inject({
    method: 'POST',
    url: '/v1/test/orders',
    headers: { ...a.headers, 'idempotency-key': 'commit-with-charge' },
    payload: { nome: 'X' },
  });
  assert.equal(res.statusCode, 201, res.body);
  assert.deepEqual(storedWhenSent, { status: 'done', body: res.body });
  const replay = await h.inject({
    method: 'POST',
    url: '/v1/test/orders',
    headers: { ...a.headers, 'idempotency-key': 'commit-with-charge' },
    payload: { nome: 'X' },
  });
  assert.equal(replay.body, res.body);
  assert.equal(replay.headers['idempotent-replayed'], 'true');
  assert.equal(await debits(h), 1);
});

test('a request charged inside its handler whose answer never came is never run again: 409 IDEMPOTENCY_ANSWER_LOST names the charge', async (t) => {
  const clock = new ManualClock(testNow());
  const h = await createHarness({ extraRoutes: testRoutes, clock });
  t.after(() => h.close());
  const a = await h.createAccount({ credits: 100 });
  // The handler charges, then takes 1.5 s to answer: for the replays below, as if the process had died there.
  const req = {
    method: 'POST' as const,
    url: '/v1/test/subscriptions',
    headers: { ...a.headers, 'idempotency-key': 'assinatura-1' },
    payload: { nome: 'X', delayAfterChargeMs: 1500 },
  };
  const first = h.inject(req);
  await until(async () => (await debits(h)) === 1);
  const ran = calls.subscriptions;
  const soon = await h.inject(req);
  assert.equal(soon.statusCode, 409);
  assert.equal(json(soon).error.code, 'IDEMPOTENCY_KEY_IN_USE', 'charged moments ago: still running');
  clock.advance(h.config.syncWindowMs + 60_001);
  const lost = await h.inject(req);
  assert.equal(lost.statusCode, 409, lost.body);
  assert.equal(json(lost).error.code, 'IDEMPOTENCY_ANSWER_LOST');
  const searchLog = await h.services.db.selectFrom('search_logs').select('id').where('account_id', '=', a.accountId).executeTakeFirstOrThrow();
  assert.equal(json(lost).error.details.searchLogId, searchLog.id);
  assert.equal(calls.subscriptions, ran, 'not run again');
  // The answer, once sent, replaces the refusal: later replays get it.
  const answered = await first;
  assert.equal(answered.statusCode, 201);
  const replay = await h.inject(req);
  assert.equal(replay.body, answered.body);
  assert.equal(replay.headers['idempotent-replayed'], 'true');
  assert.equal(await debits(h), 1, 'charged once');
});

async function until(probe: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200 && !(await probe()); i++) await new Promise((r) => setTimeout(r, 10));
}
