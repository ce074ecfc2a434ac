import assert from 'node:assert/strict';
import { test } from 'node:test';
import { freshDatabase } from '../../../test/harness.ts';
import { migrate } from './database.ts';
import { preparedIn, preparedRows } from './prepared.ts';

const fresh = await freshDatabase();
await migrate(fresh.database);
const db = fresh.database.db;
test.after(async () => {
  await fresh.database.close();
  await fresh.drop();
});

test('preparedIn: lists of any length (padded to a power of two) find exactly the rows asked for, on either engine', async () => {
  const ids = Array.from({ length: 5 }, (_, i) => `acc_in_${i}`);
  const now = new Date().toISOString();
  await db
    .insertInto('accounts')
    .values(ids.map((id) => ({ id, name: id, plan: 'padrao', status: 'active', balance_centavos: 7, sandbox: 0, created_at: now, updated_at: now })))
    .execute();
  const balances = preparedIn((list) => db.selectFrom('accounts').select(['id', 'balance_centavos']).where('id', 'in', list));
  for (const asked of [ids.slice(0, 1), ids.slice(0, 3), ids, [...ids, 'acc_missing'], [ids[0], ids[0]]]) {
    const rows = (await balances(db, asked)).rows;
    assert.deepEqual(rows.map((r) => r.id).sort(), [...new Set(asked)].filter((id) => id !== 'acc_missing').sort());
    assert.ok(rows.every((r) => Number(r.balance_centavos) === 7));
  }
});

test('preparedRows writes every row, in chunks of any mix of lengths; preparedIn sets its named values on exactly the listed rows', async () => {
  const now = new Date().toISOString();
  const columns = ['id', 'name', 'plan', 'status', 'balance_centavos', 'sandbox', 'created_at', 'updated_at'] as const;
  const insert = preparedRows(columns, (rows) => db.insertInto('accounts').values(rows));
  const row = (id: string, balance: number) => ({
    id,
    name: id,
    plan: 'padrao',
    status: 'active',
    balance_centavos: balance,
    sandbox: 0,
    created_at: now,
    updated_at: now,
  });
  const seven = Array.from({ length: 7 }, (_, i) => row(`acc_rows_${i}`, i));
  await insert(db, seven.slice(0, 3)); // 2 + 1
  await insert(db, seven.slice(3)); // 4: a length compiled after others
  const stored = await db.selectFrom('accounts').select(['id', 'balance_centavos']).where('id', 'like', 'acc_rows_%').orderBy('id').execute();
  assert.deepEqual(
    stored.map((r) => [r.id, Number(r.balance_centavos)]),
    seven.map((r) => [r.id, r.balance_centavos]),
  );

  const setBalance = preparedIn(
    (ids, p) => db.updateTable('accounts').set({ balance_centavos: p.balance, updated_at: p.at }).where('id', 'in', ids),
    ['balance', 'at'],
  );
  await setBalance(db, ['acc_rows_1', 'acc_rows_4', 'acc_rows_6'], { balance: 99, at: now });
  const after = await db.selectFrom('accounts').select(['id', 'balance_centavos']).where('id', 'like', 'acc_rows_%').orderBy('id').execute();
  assert.deepEqual(
    after.map((r) => Number(r.balance_centavos)),
    [0, 99, 2, 3, 99, 5, 99],
  );
});
