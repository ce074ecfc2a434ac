/**
 * 0029 keys the ledger by (account_id, seq): the rows and their numbers are kept, a number given twice
 * is still refused (now by the primary key), the once-per-operation constraint stays, and the unique
 * index 0023 added is gone, so a charge writes the table and one index. It reverses.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql, type Kysely } from 'kysely';
import { engineOf } from '../engine.ts';
import { migratedTo } from './testing.ts';

const NOW = '2026-12-07T10:00:00.000Z';

async function seed(db: Kysely<any>): Promise<void> {
  for (const id of ['acc_a', 'acc_b']) {
    await db
      .insertInto('accounts')
      .values({ id, name: id, plan: 'padrao', status: 'active', balance_centavos: 0, sandbox: 0, created_at: NOW, updated_at: NOW })
      .execute();
  }
  const rows: Array<[string, string, number, string]> = [
    ['led_2', 'acc_a', 2, '2026-12-07T10:00:01.000Z'],
    ['led_1', 'acc_a', 1, '2026-12-07T10:00:02.000Z'],
    ['led_b1', 'acc_b', 1, '2026-12-07T09:00:00.000Z'],
  ];
  for (const [id, account_id, seq, created_at] of rows) {
    await db
      .insertInto('ledger')
      .values({ id, account_id, kind: 'debit', delta_centavos: -1, balance_after_centavos: 1, operation_id: `op_${id}`, created_at, seq })
      .execute();
  }
}

/** The ledger's indexes other than its primary key, by name (SQLite's automatic ones for UNIQUE constraints included). */
async function secondaryIndexes(db: Kysely<any>): Promise<string[]> {
  if (engineOf(db) === 'sqlite') {
    const { rows } = await sql<{ name: string; origin: string }>`select name, origin from pragma_index_list('ledger')`.execute(db);
    return rows
      .filter((r) => r.origin !== 'pk')
      .map((r) => r.name)
      .sort();
  }
  const { rows } = await sql<{ indexname: string }>`select indexname from pg_indexes where tablename = 'ledger' and indexname <> 'ledger_pkey'`.execute(db);
  return rows.map((r) => r.indexname).sort();
}

test('0029: the ledger keyed by (account_id, seq) keeps its rows, refuses a number twice, and writes one index beside the table', async (t) => {
  const { db, migrator } = await migratedTo(t, '0025_case_monitor_pages');
  await seed(db);
  assert.equal((await secondaryIndexes(db)).length, 2, 'before: once-per-operation and (account_id, seq)');
  assert.equal((await migrator.migrateTo('0029_ledger_by_sequence')).error, undefined);

  const kept = await db.selectFrom('ledger').select(['account_id', 'seq', 'id', 'created_at']).orderBy('account_id').orderBy('seq').execute();
  assert.deepEqual(
    kept.map((r) => `${r.account_id} ${r.seq} ${r.id}`),
    ['acc_a 1 led_1', 'acc_a 2 led_2', 'acc_b 1 led_b1'],
  );
  assert.equal((await secondaryIndexes(db)).length, 1, 'after: the once-per-operation constraint alone');
  const row = { kind: 'debit', delta_centavos: -1, balance_after_centavos: 0, created_at: NOW };
  await assert.rejects(
    db
      .insertInto('ledger')
      .values({ ...row, id: 'led_x', account_id: 'acc_a', operation_id: 'op_x', seq: 2 })
      .execute(),
    'a number twice',
  );
  await assert.rejects(
    db
      .insertInto('ledger')
      .values({ ...row, id: 'led_y', account_id: 'acc_a', operation_id: 'op_led_1', seq: 3 })
      .execute(),
    'an operation charged twice',
  );

  assert.equal((await migrator.migrateDown()).error, undefined, 'and it reverses');
  assert.equal((await secondaryIndexes(db)).length, 2);
  assert.equal(
    Number(
      (
        await db
          .selectFrom('ledger')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
    3,
  );
});
