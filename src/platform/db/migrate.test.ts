/**
 * migrate() applies what is pending one migration at a time, telling its steps, and refuses a database
 * that a newer version migrated (a migration this code does not have), on both engines.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { freshDatabase } from '../../../test/harness.ts';
import { migrate } from './database.ts';
import { migrations } from './migrations/index.ts';

test('migrate tells each migration before and after it runs, then has nothing left to do', async (t) => {
  const fresh = await freshDatabase();
  t.after(async () => { await fresh.database.close(); await fresh.drop(); });
  const told: string[] = [];
  const applied = await migrate(fresh.database, { starting: (name) => told.push(`> ${name}`), applied: (name, ms) => told.push(`< ${name} ${ms >= 0}`) });
  const names = Object.keys(migrations);
  assert.deepEqual(applied, names);
  assert.deepEqual(told, names.flatMap((n) => [`> ${n}`, `< ${n} true`]));
  assert.deepEqual(await migrate(fresh.database), []);
});

test('a database migrated by a newer version is refused, naming the migration this code lacks', async (t) => {
  const fresh = await freshDatabase();
  t.after(async () => { await fresh.database.close(); await fresh.drop(); });
  await migrate(fresh.database);
  await sql`insert into kysely_migration (name, timestamp) values ('9999_from_the_future', '2030-01-01T00:00:00.000Z')`.execute(fresh.database.db);
  await assert.rejects(migrate(fresh.database), /9999_from_the_future/);
});
