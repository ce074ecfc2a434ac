/** Credits (spec §1.2, §8): charged once on success, never on failure, never below zero, one ledger row per debit. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHarness, json, type Harness, type TestAccount } from './harness.ts';
import { testRoutes } from './routes.ts';
import { jobOrigin } from '../src/platform/billing/charge.ts';

async function ledgerRows(h: Harness, accountId: string) {
  return h.services.db.selectFrom('ledger').selectAll().where('account_id', '=', accountId).where('kind', '=', 'debit').execute();
}

async function balance(h: Harness, a: TestAccount): Promise<number> {
  return json(await h.inject({ method: 'GET', url: '/v1/conta/saldo', headers: a.headers })).data.saldoCentavos;
}

test('a successful charged operation reports the charge, debits once and writes one ledger row with its search log', async (t) => {
  const h = await createHarness({ extraRoutes: testRoutes });
  t.after(() => h.close());
  const a = await h.createAccount({ credits: 100 });
  const res = await h.inject({ method: 'GET', url: '/v1/test/charged', headers: a.headers });
  assert.equal(res.statusCode, 200, res.body);
  const body = json(res);
  assert.deepEqual(body.data, { ok: true, echo: 'charged' });
  assert.equal(body.meta.creditsCharged, 0.05);
  assert.equal(body.meta.creditsRemaining, 0.95);
  assert.equal(body.meta.requestId, res.headers['x-request-id']);
  assert.match(body.meta.searchLogId, /^sl_/);
  assert.equal(body.meta.source, 'test');
  const rows = await ledgerRows(h, a.accountId);
  assert.equal(rows.length, 1);
  assert.equal(rows[0].delta_centavos, -5);
  assert.equal(rows[0].balance_after_centavos, 95);
  assert.equal(rows[0].operation_id, body.meta.requestId);
  assert.equal(rows[0].search_log_id, body.meta.searchLogId);
  const log = await h.services.db.selectFrom('search_logs').selectAll().where('id', '=', body.meta.searchLogId).executeTakeFirstOrThrow();
  assert.equal(log.query_type, 'test.lookup');
  assert.equal(log.charged_centavos, 5);
  assert.equal(await balance(h, a), 95);
});

for (const fail of ['not_found', 'source', 'timeout', 'internal', 'bad_input'] as const) {
  test(`a failure (${fail}) is never charged`, async (t) => {
    const h = await createHarness({ extraRoutes: testRoutes });
    t.after(() => h.close());
    const a = await h.createAccount({ credits: 100 });
    const res = await h.inject({ method: 'GET', url: `/v1/test/charged?fail=${fail}`, headers: a.headers });
    const expected = {
      not_found: [404, 'NOT_FOUND'],
      source: [503, 'SOURCE_UNAVAILABLE'],
      timeout: [504, 'SOURCE_TIMEOUT'],
      internal: [500, 'INTERNAL_ERROR'],
      bad_input: [400, 'INVALID_CNJ'],
    }[fail];
    assert.equal(res.statusCode, expected[0], res.body);
    assert.equal(json(res).error.code, expected[1]);
    assert.equal(json(res).meta.creditsCharged, undefined);
    assert.doesNotMatch(res.body, /boom|stack|at .*\.ts/, 'no internals leak to the caller');
    assert.equal((await ledgerRows(h, a.accountId)).length, 0);
    assert.equal(await balance(h, a), 100);
  });
}

test('200 concurrent charged requests on credit for exactly 100: 100 succeed, 100 get INSUFFICIENT_CREDITS, balance 0, 100 ledger rows', async (t) => {
  const h = await createHarness({ extraRoutes: testRoutes, env: { TRAMITA_RATE_LIMITS: 'lookup=1000/60s' } });
  t.after(() => h.close());
  const a = await h.createAccount({ credits: 500 }); // 100 × R$ 0,05
  const responses = await Promise.all(Array.from({ length: 200 }, () => h.inject({ method: 'GET', url: '/v1/test/charged', headers: a.headers })));
  const byStatus = Map.groupBy(responses, (r) => r.statusCode);
  assert.equal(byStatus.get(200)?.length, 100);
  assert.equal(byStatus.get(403)?.length, 100);
  for (const r of byStatus.get(403)!) assert.equal(json(r).error.code, 'INSUFFICIENT_CREDITS');
  assert.equal(await balance(h, a), 0);
  const rows = await ledgerRows(h, a.accountId);
  assert.equal(rows.length, 100);
  assert.equal(new Set(rows.map((r) => r.operation_id)).size, 100, 'one row per operation');
  assert.deepEqual([...new Set(rows.map((r) => r.balance_after_centavos))].length, 100, 'each debit saw a distinct balance');
});

test('an operation the balance cannot cover is refused before any work, with price and balance in details', async (t) => {
  const h = await createHarness({ extraRoutes: testRoutes });
  t.after(() => h.close());
  const a = await h.createAccount({ credits: 4 });
  const res = await h.inject({ method: 'GET', url: '/v1/test/charged', headers: a.headers });
  assert.equal(res.statusCode, 403);
  assert.equal(json(res).error.code, 'INSUFFICIENT_CREDITS');
  assert.deepEqual(json(res).error.details, { price: 0.05, balance: 0.04 });
  assert.equal(await balance(h, a), 4);
});

test('the balance is free: no ledger row, and it answers at zero balance', async (t) => {
  const h = await createHarness();
  t.after(() => h.close());
  const a = await h.createAccount({ credits: 0 });
  for (let i = 0; i < 3; i++) {
    const res = await h.inject({ method: 'GET', url: '/v1/conta/saldo', headers: a.headers });
    assert.equal(res.statusCode, 200);
    assert.equal(json(res).data.saldo, 0);
    assert.equal(json(res).meta.creditsCharged, undefined);
  }
  assert.equal((await h.services.db.selectFrom('ledger').selectAll().where('account_id', '=', a.accountId).execute()).length, 0);
});

test('a zero-priced operation is logged but never debited', async (t) => {
  const h = await createHarness({ extraRoutes: testRoutes });
  t.after(() => h.close());
  const a = await h.createAccount({ credits: 0 });
  const res = await h.inject({ method: 'GET', url: '/v1/test/free', headers: a.headers });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(json(res).meta.creditsCharged, 0);
  assert.equal(json(res).meta.creditsRemaining, 0);
  assert.match(json(res).meta.searchLogId, /^sl_/);
  assert.equal((await ledgerRows(h, a.accountId)).length, 0);
});

test('a plan that excludes the operation gets 403 OPERATION_NOT_ALLOWED and is not charged', async (t) => {
  const h = await createHarness({ extraRoutes: testRoutes });
  t.after(() => h.close());
  const a = await h.createAccount({ credits: 100, plan: 'restrito' });
  const res = await h.inject({ method: 'GET', url: '/v1/test/charged', headers: a.headers });
  assert.equal(res.statusCode, 403);
  assert.equal(json(res).error.code, 'OPERATION_NOT_ALLOWED');
  assert.equal(await balance(h, a), 100);
});

test('Prefer: return=estimate prices the operation without running or charging it', async (t) => {
  const h = await createHarness({ extraRoutes: testRoutes });
  t.after(() => h.close());
  const a = await h.createAccount({ credits: 3 });
  const res = await h.inject({ method: 'GET', url: '/v1/test/charged?fail=internal', headers: { ...a.headers, prefer: 'return=estimate' } });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.headers['preference-applied'], 'return=estimate');
  assert.deepEqual(json(res).data, {
    queryType: 'test.lookup',
    plan: 'padrao',
    currency: 'BRL',
    price: 0.05,
    priceCentavos: 5,
    balance: 0.03,
    balanceCentavos: 3,
    sufficient: false,
    chargedOn: 'success',
  });
  assert.equal(json(res).meta.creditsCharged, 0);
  assert.equal(await balance(h, a), 3);
  // invalid input is still a 400, even when only estimating
  const bad = await h.inject({ method: 'GET', url: '/v1/test/charged?nope=1', headers: { ...a.headers, prefer: 'return=estimate' } });
  assert.equal(bad.statusCode, 400);
});

test('the statement lists debits and top-ups newest first, by cursor pages, and rejects a foreign cursor', async (t) => {
  const h = await createHarness({ extraRoutes: testRoutes });
  t.after(() => h.close());
  const a = await h.createAccount({ credits: 100 });
  for (let i = 0; i < 4; i++) assert.equal((await h.inject({ method: 'GET', url: '/v1/test/charged', headers: a.headers })).statusCode, 200);
  const seen: any[] = [];
  let cursor: string | null = null;
  do {
    const res = await h.inject({ method: 'GET', url: `/v1/conta/extrato?limit=2${cursor ? `&cursor=${cursor}` : ''}`, headers: a.headers });
    assert.equal(res.statusCode, 200, res.body);
    seen.push(...json(res).data.items);
    cursor = json(res).meta.pagination.nextCursor;
  } while (cursor);
  assert.equal(seen.length, 5);
  assert.deepEqual(
    seen.map((e) => e.tipo),
    ['debito', 'debito', 'debito', 'debito', 'credito'],
  );
  assert.deepEqual(
    seen.map((e) => e.saldoAposCentavos),
    [80, 85, 90, 95, 100],
  );
  assert.equal(seen[0].valor, -0.05);
  assert.equal(seen[0].tipoConsulta, 'test.lookup');
  const bad = await h.inject({ method: 'GET', url: '/v1/conta/extrato?cursor=bm90LWEtY3Vyc29y', headers: a.headers });
  assert.equal(bad.statusCode, 400);
  assert.equal(json(bad).error.code, 'INVALID_CURSOR');
  const tooBig = await h.inject({ method: 'GET', url: '/v1/conta/extrato?limit=1000', headers: a.headers });
  assert.equal(json(tooBig).error.code, 'INVALID_PARAMETER');
  assert.equal(json(tooBig).error.details.field, 'limit');
});

/** The whole statement of `a`, newest first, walked by its cursor `limit` rows at a time. */
async function walkStatement(h: Harness, a: TestAccount, limit: number): Promise<any[]> {
  const seen: any[] = [];
  let cursor: string | null = null;
  do {
    const res = await h.inject({ method: 'GET', url: `/v1/conta/extrato?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, headers: a.headers });
    assert.equal(res.statusCode, 200, res.body);
    seen.push(...json(res).data.items);
    cursor = json(res).meta.pagination.nextCursor;
  } while (cursor);
  return seen;
}

/** Each row's balance after is the older row's plus its own amount: the statement is in the order the balance moved. */
function assertBalancesFollow(rows: any[]): void {
  for (let i = 0; i + 1 < rows.length; i++) {
    const [row, older] = [rows[i], rows[i + 1]];
    assert.equal(row.saldoAposCentavos, older.saldoAposCentavos + row.valorCentavos, `row ${i} (${row.id}) follows ${older.id}`);
  }
}

/** 200 charges of one account at once, each through `charge`; then its statement, walked whole by cursor. */
async function concurrentStatement(h: Harness, debitRows: number, charge: (a: TestAccount, i: number) => Promise<unknown>): Promise<void> {
  const a = await h.createAccount({ credits: 10_000 });
  await Promise.all(Array.from({ length: 200 }, (_, i) => charge(a, i)));
  const rows = await walkStatement(h, a, 7);
  assert.equal(rows.length, debitRows + 1, 'the top-up and every debit');
  assert.equal(new Set(rows.map((r) => r.id)).size, rows.length, 'the cursor gives each row once');
  assert.deepEqual(rows.at(-1), { ...rows.at(-1), tipo: 'credito', saldoAposCentavos: 10_000 });
  assertBalancesFollow(rows);
  assert.equal(rows[0].saldoAposCentavos, await balance(h, a), 'the newest row holds the balance');
}

test('200 concurrent charged requests of one account: the statement is in the order the balance moved, and its cursor walks it once', async (t) => {
  const h = await createHarness({ extraRoutes: testRoutes, env: { TRAMITA_RATE_LIMITS: 'lookup=1000/60s' } });
  t.after(() => h.close());
  await concurrentStatement(h, 200, async (a) =>
    assert.equal((await h.inject({ method: 'GET', url: '/v1/test/charged', headers: a.headers })).statusCode, 200),
  );
});

test('200 concurrent charges of one account through the charge recipe, each in its own transaction: the statement follows the balance', async (t) => {
  const h = await createHarness();
  t.after(() => h.close());
  const { ledger } = h.services;
  // 200 charges, every third with a second debit: 267 debit rows.
  await concurrentStatement(h, 267, (a, i) =>
    ledger.transact((trx) =>
      ledger.chargeIn(trx, {
        accountId: a.accountId,
        queryType: 'test.lookup',
        origin: jobOrigin('test', `op-${i}`),
        // Two debits of different amounts in some charges: several rows per charge stay in order too.
        debits:
          i % 3 === 0
            ? [
                { operationId: `op-${i}`, centavos: 3 + (i % 7) },
                { operationId: `op-${i}-b`, centavos: 1 },
              ]
            : [{ operationId: `op-${i}`, centavos: 5 }],
      }),
    ),
  );
});

test("another account's statement is never visible", async (t) => {
  const h = await createHarness({ extraRoutes: testRoutes });
  t.after(() => h.close());
  const a = await h.createAccount({ credits: 100 });
  const b = await h.createAccount({ credits: 7 });
  await h.inject({ method: 'GET', url: '/v1/test/charged', headers: a.headers });
  const res = await h.inject({ method: 'GET', url: '/v1/conta/extrato', headers: b.headers });
  assert.deepEqual(
    json(res).data.items.map((e: any) => e.valorCentavos),
    [7],
  );
});

test("the price list shows the plan's prices, including the spec's R$ 0,05 and R$ 0,12", async (t) => {
  const h = await createHarness();
  t.after(() => h.close());
  const a = await h.createAccount();
  const items = json(await h.inject({ method: 'GET', url: '/v1/conta/precos', headers: a.headers })).data.itens;
  const price = (t: string) => items.find((i: any) => i.tipoConsulta === t)?.preco;
  assert.equal(price('stf.publicacao'), 0.05);
  assert.equal(price('dje_eleitoral.edicoes'), 0.12);
});
