/**
 * Ledger.transact and Ledger.charge: charges queued in the same tick commit together on SQLite (db/group-commit.ts), yet
 * each one stays atomic: a unit that fails after writing leaves nothing behind, the others commit,
 * nothing is charged twice, and every caller hears back only after the COMMIT. The atomicity tests
 * run on both engines (PostgreSQL gives each unit its own transaction, and writes the request path's
 * charges of one tick in one statement: db/tick-batches.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import type { Transaction } from 'kysely';
import { createHarness, type Harness, type TestAccount } from '../../../test/harness.ts';
import { sqliteConnectionOf } from '../db/sqlite-dialect.ts';
import type { DB } from '../db/schema.ts';
import type { Charge } from './charge.ts';

/** The charge of `operationId`: the search log, then the debits (none: the search log alone). */
function spec(a: TestAccount, operationId: string, centavos: number | null): Charge {
  return {
    accountId: a.accountId,
    queryType: 'test.lookup',
    origin: { requestId: operationId, method: 'GET', path: '/t', statusCode: 200 },
    debits: centavos === null ? [] : [{ operationId, centavos }],
  };
}

/** The runner's unit of work: the charge, then whatever else the unit does. */
function charge(h: Harness, a: TestAccount, operationId: string, centavos: number, after?: () => void) {
  return h.services.ledger.transact(async (trx: Transaction<DB>) => {
    const { remaining } = await h.services.ledger.chargeIn(trx, spec(a, operationId, centavos));
    after?.();
    return remaining;
  });
}

async function writes(h: Harness, a: TestAccount) {
  const logs = await h.services.db.selectFrom('search_logs').select('request_id').where('account_id', '=', a.accountId).orderBy('request_id').execute();
  const debits = await h.services.db
    .selectFrom('ledger')
    .select('operation_id')
    .where('account_id', '=', a.accountId)
    .where('kind', '=', 'debit')
    .orderBy('operation_id')
    .execute();
  const balance = await h.services.accounts.balance(a.accountId);
  return { logs: logs.map((r) => r.request_id), debits: debits.map((r) => r.operation_id), balance };
}

test('units queued together: the one that fails after writing leaves nothing, the others commit; none is charged twice', async (t) => {
  const h = await createHarness();
  t.after(() => h.close());
  const a = await h.createAccount({ credits: 100 });
  const results = await Promise.allSettled([
    charge(h, a, 'op_a', 10),
    charge(h, a, 'op_b', 1_000), // more than the balance: its search log is written, then the debit refuses
    charge(h, a, 'op_c', 10, () => {
      throw new Error('a bug after the debit');
    }),
    charge(h, a, 'op_d', 10),
    charge(h, a, 'op_a', 10), // the same operation again: UNIQUE(account_id, operation_id)
  ]);
  assert.deepEqual(
    results.slice(1, 4).map((r) => r.status),
    ['rejected', 'rejected', 'fulfilled'],
  );
  // On PostgreSQL the two charges of op_a race in their own transactions: either may win, never both.
  assert.deepEqual([results[0].status, results[4].status].sort(), ['fulfilled', 'rejected']);
  assert.equal((results[1] as PromiseRejectedResult).reason.code, 'INSUFFICIENT_CREDITS');
  assert.equal((results[2] as PromiseRejectedResult).reason.message, 'a bug after the debit');
  assert.deepEqual(await writes(h, a), { logs: ['op_a', 'op_d'], debits: ['op_a', 'op_d'], balance: 80 });
});

test('the first unit of a batch fails after writing: nothing of it is left, and the units after it commit', async (t) => {
  const h = await createHarness();
  t.after(() => h.close());
  const a = await h.createAccount({ credits: 100 });
  const results = await Promise.allSettled([
    charge(h, a, 'op_first', 10, () => {
      throw new Error('a bug after the debit');
    }),
    charge(h, a, 'op_second', 10),
    charge(h, a, 'op_third', 10),
  ]);
  assert.deepEqual(
    results.map((r) => r.status),
    ['rejected', 'fulfilled', 'fulfilled'],
  );
  assert.deepEqual(await writes(h, a), { logs: ['op_second', 'op_third'], debits: ['op_second', 'op_third'], balance: 80 });
});

test('SQLite: units of the same tick share one transaction, and each caller hears back after its COMMIT', {
  skip: Boolean(process.env.DATABASE_URL),
}, async (t) => {
  const h = await createHarness();
  t.after(() => h.close());
  const a = await h.createAccount({ credits: 100 });
  const connection = sqliteConnectionOf(h.services.db)!;
  const seen: string[][] = [];
  const sees = (trx: Transaction<DB>) =>
    trx.selectFrom('search_logs').select('request_id').where('account_id', '=', a.accountId).orderBy('request_id').execute();
  const [first, second] = await Promise.all(
    ['op_1', 'op_2'].map((id) =>
      h.services.ledger.transact(async (trx) => {
        await h.services.ledger.chargeIn(trx, spec(a, id, null));
        seen.push((await sees(trx)).map((r) => r.request_id));
        return connection.raw.isTransaction;
      }),
    ),
  );
  assert.deepEqual(seen, [['op_1'], ['op_1', 'op_2']], "the second unit sees the first one's uncommitted row: one transaction");
  assert.equal(first, true);
  assert.equal(second, true);
  assert.equal(connection.raw.isTransaction, false, 'settled after the COMMIT');
  assert.deepEqual((await writes(h, a)).logs, ['op_1', 'op_2']);
});

test('SQLite: with the database locked by another process, the batch fails at its first unit, and nothing is charged', {
  skip: Boolean(process.env.DATABASE_URL),
}, async (t) => {
  const h = await createHarness();
  t.after(() => h.close());
  const a = await h.createAccount({ credits: 100 });
  sqliteConnectionOf(h.services.db)!.raw.exec('PRAGMA busy_timeout = 20');
  const other = new DatabaseSync(`${h.config.dataDir}/tramita.db`);
  other.exec('BEGIN IMMEDIATE');
  let started = 0;
  const results = await Promise.allSettled(
    ['op_1', 'op_2', 'op_3'].map((id) =>
      h.services.ledger.transact(async (trx) => {
        started++;
        await h.services.ledger.chargeIn(trx, spec(a, id, 10));
      }),
    ),
  );
  other.exec('ROLLBACK');
  other.close();
  assert.deepEqual(
    results.map((r) => r.status),
    ['rejected', 'rejected', 'rejected'],
  );
  for (const r of results) assert.equal(((r as PromiseRejectedResult).reason as { errcode: number }).errcode, 5, 'SQLITE_BUSY');
  assert.equal(started, 1, 'the units after the first were not each left to wait for the lock');
  assert.deepEqual(await writes(h, a), { logs: [], debits: [], balance: 100 });
});

/** The request path's charge (Ledger.charge: on SQLite, written in bulk with the others of its tick). */
function answered(h: Harness, a: TestAccount, operationId: string, centavos: number) {
  return h.services.ledger.charge(spec(a, operationId, centavos));
}

test('charges of one tick: decided in order against the balance; a refused one writes nothing; each result is its own', async (t) => {
  const h = await createHarness();
  t.after(() => h.close());
  const a = await h.createAccount({ credits: 25 });
  const b = await h.createAccount({ credits: 5 });
  const c = await h.createAccount({ credits: 100 });
  const results = await Promise.allSettled([
    answered(h, a, 'op_1', 10),
    answered(h, b, 'op_b1', 5),
    answered(h, c, 'op_c1', 7),
    answered(h, a, 'op_2', 10),
    answered(h, a, 'op_3', 10),
    answered(h, b, 'op_b2', 5),
    answered(h, a, 'op_4', 5),
    answered(h, c, 'op_c2', 3),
    answered(h, a, 'op_5', 0),
  ]);
  // Both engines decide in queue order (on PostgreSQL: c's charges in the batch's statement, a's and
  // b's, which their balances do not cover together, one by one after it): the third 10 of a and the
  // second 5 of b are refused.
  assert.deepEqual(
    results.map((r) => r.status),
    results.map((_, i) => (i === 4 || i === 5 ? 'rejected' : 'fulfilled')),
  );
  for (const i of [4, 5]) assert.equal((results[i] as PromiseRejectedResult).reason.code, 'INSUFFICIENT_CREDITS');
  assert.deepEqual(await writes(h, a), { logs: ['op_1', 'op_2', 'op_4', 'op_5'], debits: ['op_1', 'op_2', 'op_4'], balance: 0 });
  assert.deepEqual(await writes(h, b), { logs: ['op_b1'], debits: ['op_b1'], balance: 0 });
  assert.deepEqual(await writes(h, c), { logs: ['op_c1', 'op_c2'], debits: ['op_c1', 'op_c2'], balance: 90 });
  // Each caller got its own search log and the balance its own debit left; the ledger says the same.
  const value = (i: number) => (results[i] as PromiseFulfilledResult<{ searchLogId: string; remaining: number }>).value;
  const rows = await h.services.db
    .selectFrom('ledger')
    .select(['operation_id', 'balance_after_centavos', 'search_log_id'])
    .where('account_id', 'in', [a.accountId, c.accountId])
    .where('kind', '=', 'debit')
    .execute();
  for (const [i, op] of [
    [0, 'op_1'],
    [3, 'op_2'],
    [6, 'op_4'],
    [2, 'op_c1'],
    [7, 'op_c2'],
  ] as const) {
    const row = rows.find((r) => r.operation_id === op)!;
    assert.deepEqual({ ...row }, { operation_id: op, balance_after_centavos: value(i).remaining, search_log_id: value(i).searchLogId });
  }
  // The free charge (op_5) records its search log and reports the balance it saw.
  assert.deepEqual(
    [0, 3, 6, 8, 2, 7].map((i) => value(i).remaining),
    [15, 5, 0, 0, 93, 90],
  );
});

test('a second charge of one operation in the same tick fails alone; the others still commit', async (t) => {
  const h = await createHarness();
  t.after(() => h.close());
  const a = await h.createAccount({ credits: 100 });
  const results = await Promise.allSettled([answered(h, a, 'op_x', 10), answered(h, a, 'op_y', 10), answered(h, a, 'op_x', 10), answered(h, a, 'op_z', 10)]);
  assert.deepEqual(
    results.slice(1).map((r) => r.status),
    ['fulfilled', results[0].status === 'fulfilled' ? 'rejected' : 'fulfilled', 'fulfilled'],
  );
  assert.deepEqual(await writes(h, a), { logs: ['op_x', 'op_y', 'op_z'], debits: ['op_x', 'op_y', 'op_z'], balance: 70 });
});

test('charges and ordinary units queued in the same tick commit together', async (t) => {
  const h = await createHarness();
  t.after(() => h.close());
  const a = await h.createAccount({ credits: 100 });
  const [unit, bulk] = await Promise.all([charge(h, a, 'op_unit', 10), answered(h, a, 'op_bulk', 10)]);
  assert.deepEqual([unit, bulk.remaining].sort(), [80, 90]);
  assert.deepEqual(await writes(h, a), { logs: ['op_bulk', 'op_unit'], debits: ['op_bulk', 'op_unit'], balance: 80 });
});
