/**
 * 0005 re-keys the charge tables: rows written under the old shape survive it (and its reversal), the
 * (account, time) order is the primary key's, and the never-charge-twice UNIQUE still holds.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import { migratedTo } from './testing.ts';

async function seed(db: Kysely<any>): Promise<void> {
  const now = '2026-11-20T10:00:00.000Z';
  await db
    .insertInto('accounts')
    .values({ id: 'acc_a', name: 'A', plan: 'padrao', status: 'active', balance_centavos: 90, sandbox: 0, created_at: now, updated_at: now })
    .execute();
  for (const [i, at] of ['2026-11-20T10:00:01.000Z', '2026-11-20T10:00:02.000Z'].entries()) {
    await db
      .insertInto('search_logs')
      .values({
        id: `sl_${i}`,
        account_id: 'acc_a',
        request_id: `req_${i}`,
        query_type: 'test.lookup',
        method: 'GET',
        path: '/v1/x',
        status_code: 200,
        charged_centavos: 5,
        created_at: at,
      })
      .execute();
    await db
      .insertInto('ledger')
      .values({
        id: `led_${i}`,
        account_id: 'acc_a',
        kind: 'debit',
        delta_centavos: -5,
        balance_after_centavos: 95 - 5 * i,
        operation_id: `req_${i}`,
        query_type: 'test.lookup',
        search_log_id: `sl_${i}`,
        note: null,
        created_at: at,
      })
      .execute();
  }
}

test('0005: the charge tables keep their rows, are keyed by (account, time, id), and still refuse a second charge', async (t) => {
  const { db, migrator } = await migratedTo(t, '0004_publications');
  await seed(db);

  assert.equal((await migrator.migrateTo('0005_charge_tables')).error, undefined);
  const rows = await db
    .selectFrom('ledger')
    .select(['id', 'balance_after_centavos', 'search_log_id'])
    .where('account_id', '=', 'acc_a')
    .orderBy('created_at')
    .execute();
  assert.deepEqual(
    rows.map((r) => ({ ...r })),
    [
      { id: 'led_0', balance_after_centavos: 95, search_log_id: 'sl_0' },
      { id: 'led_1', balance_after_centavos: 90, search_log_id: 'sl_1' },
    ],
  );
  assert.equal((await db.selectFrom('search_logs').select('id').execute()).length, 2);
  await assert.rejects(
    db
      .insertInto('ledger')
      .values({
        id: 'led_x',
        account_id: 'acc_a',
        kind: 'debit',
        delta_centavos: -5,
        balance_after_centavos: 85,
        operation_id: 'req_1',
        query_type: 'test.lookup',
        search_log_id: null,
        note: null,
        created_at: '2026-11-20T10:00:03.000Z',
      })
      .execute(),
    /unique|duplicate/i,
  );

  // Down and up again: nothing lost either way.
  assert.equal((await migrator.migrateTo('0004_publications')).error, undefined);
  assert.equal((await db.selectFrom('ledger').select('id').execute()).length, 2);
  assert.equal((await migrator.migrateToLatest()).error, undefined);
  assert.equal((await db.selectFrom('ledger').select('id').execute()).length, 2);
  assert.equal((await db.selectFrom('search_logs').select('id').execute()).length, 2);
});
