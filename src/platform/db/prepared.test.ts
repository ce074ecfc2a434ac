import assert from 'node:assert/strict';
import { test } from 'node:test';
import { freshDatabase } from '../../../test/harness.ts';
import { migrate } from './database.ts';
import { preparedIn } from './prepared.ts';

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
