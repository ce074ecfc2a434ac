/**
 * 0023 numbers the ledger rows already written, per account, in the order the statement listed them
 * (created_at, id), leaves each account's count at its last number, and refuses a number given twice.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import { migratedTo } from './testing.ts';
const NOW = '2026-11-20T10:00:00.000Z';

/** Rows of two accounts written out of time order, two of them at the same instant (ordered by id). */
async function seed(db: Kysely<any>): Promise<void> {
  for (const id of ['acc_a', 'acc_b', 'acc_c']) {
    await db
      .insertInto('accounts')
      .values({ id, name: id, plan: 'padrao', status: 'active', balance_centavos: 0, sandbox: 0, created_at: NOW, updated_at: NOW })
      .execute();
  }
  const rows: Array<[string, string, string]> = [
    ['led_3', 'acc_a', '2026-11-20T10:00:03.000Z'],
    ['led_1', 'acc_a', '2026-11-20T10:00:01.000Z'],
    ['led_2b', 'acc_a', '2026-11-20T10:00:02.000Z'],
    ['led_2a', 'acc_a', '2026-11-20T10:00:02.000Z'],
    ['led_b1', 'acc_b', '2026-11-20T09:00:00.000Z'],
  ];
  for (const [id, account_id, created_at] of rows) {
    await db
      .insertInto('ledger')
      .values({
        id,
        account_id,
        kind: 'credit',
        delta_centavos: 1,
        balance_after_centavos: 1,
        operation_id: null,
        query_type: null,
        search_log_id: null,
        note: null,
        created_at,
      })
      .execute();
  }
}

test('0023: existing ledger rows are numbered per account in their statement order, and each account keeps its count', async (t) => {
  const { db, migrator } = await migratedTo(t, '0021_parties_source');
  await seed(db);
  assert.equal((await migrator.migrateTo('0023_ledger_sequence')).error, undefined);

  const numbered = await db.selectFrom('ledger').select(['account_id', 'id', 'seq']).orderBy('account_id').orderBy('seq').execute();
  assert.deepEqual(
    numbered.map((r) => `${r.account_id} ${r.seq} ${r.id}`),
    ['acc_a 1 led_1', 'acc_a 2 led_2a', 'acc_a 3 led_2b', 'acc_a 4 led_3', 'acc_b 1 led_b1'],
  );
  const counts = await db.selectFrom('accounts').select(['id', 'ledger_seq']).orderBy('id').execute();
  assert.deepEqual(
    counts.map((r) => [r.id, Number(r.ledger_seq)]),
    [
      ['acc_a', 4],
      ['acc_b', 1],
      ['acc_c', 0],
    ],
  );
  await assert.rejects(
    db
      .insertInto('ledger')
      .values({ id: 'led_x', account_id: 'acc_a', kind: 'credit', delta_centavos: 1, balance_after_centavos: 1, note: null, created_at: NOW, seq: 4 })
      .execute(),
    'one number per row of an account',
  );
  assert.equal((await migrator.migrateDown()).error, undefined, 'and it reverses');
});
