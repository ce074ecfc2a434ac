/**
 * Ledger.transact: charges queued in the same tick commit together on SQLite (group-commit.ts), yet
 * each one stays atomic: a unit that fails after writing leaves nothing behind, the others commit,
 * nothing is charged twice, and every caller hears back only after the COMMIT. The atomicity tests
 * run on both engines (PostgreSQL gives each unit its own transaction).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import type { Transaction } from 'kysely';
import { createHarness, type Harness, type TestAccount } from '../../../test/harness.ts';
import { sqliteConnectionOf } from '../db/sqlite-dialect.ts';
import type { DB } from '../db/schema.ts';
import { newId } from '../ids.ts';

/** The runner's unit of work: the search log, then the debit. */
function charge(h: Harness, a: TestAccount, operationId: string, centavos: number, after?: () => void) {
  return h.services.ledger.transact(async (trx: Transaction<DB>) => {
    const searchLogId = newId('sl');
    await h.services.ledger.recordSearch(trx, { id: searchLogId, accountId: a.accountId, requestId: operationId, queryType: 'test.lookup', method: 'GET', path: '/t', statusCode: 200, chargedCentavos: centavos });
    const remaining = await h.services.ledger.debit(trx, { accountId: a.accountId, centavos, operationId, queryType: 'test.lookup', searchLogId });
    after?.();
    return remaining;
  });
}

async function writes(h: Harness, a: TestAccount) {
  const logs = await h.services.db.selectFrom('search_logs').select('request_id').where('account_id', '=', a.accountId).orderBy('request_id').execute();
  const debits = await h.services.db.selectFrom('ledger').select('operation_id').where('account_id', '=', a.accountId).where('kind', '=', 'debit').orderBy('operation_id').execute();
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
    charge(h, a, 'op_c', 10, () => { throw new Error('a bug after the debit'); }),
    charge(h, a, 'op_d', 10),
    charge(h, a, 'op_a', 10), // the same operation again: UNIQUE(account_id, operation_id)
  ]);
  assert.deepEqual(results.slice(1, 4).map((r) => r.status), ['rejected', 'rejected', 'fulfilled']);
  // On PostgreSQL the two charges of op_a race in their own transactions: either may win, never both.
  assert.deepEqual([results[0].status, results[4].status].sort(), ['fulfilled', 'rejected']);
  assert.equal((results[1] as PromiseRejectedResult).reason.code, 'INSUFFICIENT_CREDITS');
  assert.equal((results[2] as PromiseRejectedResult).reason.message, 'a bug after the debit');
  assert.deepEqual(await writes(h, a), { logs: ['op_a', 'op_d'], debits: ['op_a', 'op_d'], balance: 80 });
});

test('SQLite: units of the same tick share one transaction, and each caller hears back after its COMMIT', { skip: Boolean(process.env.DATABASE_URL) }, async (t) => {
  const h = await createHarness();
  t.after(() => h.close());
  const a = await h.createAccount({ credits: 100 });
  const connection = sqliteConnectionOf(h.services.db)!;
  const seen: string[][] = [];
  const sees = (trx: Transaction<DB>) => trx.selectFrom('search_logs').select('request_id').where('account_id', '=', a.accountId).orderBy('request_id').execute();
  const [first, second] = await Promise.all(['op_1', 'op_2'].map((id) => h.services.ledger.transact(async (trx) => {
    await h.services.ledger.recordSearch(trx, { id: newId('sl'), accountId: a.accountId, requestId: id, queryType: 'test.lookup', method: 'GET', path: '/t', statusCode: 200, chargedCentavos: 0 });
    seen.push((await sees(trx)).map((r) => r.request_id));
    return connection.raw.isTransaction;
  })));
  assert.deepEqual(seen, [['op_1'], ['op_1', 'op_2']], 'the second unit sees the first one\'s uncommitted row: one transaction');
  assert.equal(first, true);
  assert.equal(second, true);
  assert.equal(connection.raw.isTransaction, false, 'settled after the COMMIT');
  assert.deepEqual((await writes(h, a)).logs, ['op_1', 'op_2']);
});

test('SQLite: with the database locked by another process, the batch fails at its first unit, and nothing is charged', { skip: Boolean(process.env.DATABASE_URL) }, async (t) => {
  const h = await createHarness();
  t.after(() => h.close());
  const a = await h.createAccount({ credits: 100 });
  sqliteConnectionOf(h.services.db)!.raw.exec('PRAGMA busy_timeout = 20');
  const other = new DatabaseSync(`${h.config.dataDir}/tramita.db`);
  other.exec('BEGIN IMMEDIATE');
  let started = 0;
  const results = await Promise.allSettled(['op_1', 'op_2', 'op_3'].map((id) => h.services.ledger.transact(async (trx) => {
    started++;
    await h.services.ledger.debit(trx, { accountId: a.accountId, centavos: 10, operationId: id, queryType: 'test.lookup', searchLogId: null });
  })));
  other.exec('ROLLBACK');
  other.close();
  assert.deepEqual(results.map((r) => r.status), ['rejected', 'rejected', 'rejected']);
  for (const r of results) assert.equal(((r as PromiseRejectedResult).reason as { errcode: number }).errcode, 5, 'SQLITE_BUSY');
  assert.equal(started, 1, 'the units after the first were not each left to wait for the lock');
  assert.deepEqual(await writes(h, a), { logs: [], debits: [], balance: 100 });
});
