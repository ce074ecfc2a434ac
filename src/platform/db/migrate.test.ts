/**
 * migrate() applies what is pending one migration at a time, telling the steps of an existing
 * database's upgrade, and refuses a database that a newer version migrated (a migration this code does
 * not have), on both engines.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { freshDatabase } from '../../../test/harness.ts';
import { migrate } from './database.ts';
import { migrations } from './migrations/index.ts';

test('on an existing database, migrate tells each pending migration before and after it runs', async (t) => {
  const fresh = await freshDatabase();
  t.after(async () => {
    await fresh.database.close();
    await fresh.drop();
  });
  const names = Object.keys(migrations);
  const told: string[] = [];
  const tell = { starting: (name: string) => told.push(`> ${name}`), applied: (name: string, ms: number) => told.push(`< ${name} ${ms >= 0}`) };
  assert.equal((await new Migrator({ db: fresh.database.db, provider: { getMigrations: async () => migrations } }).migrateTo(names[12]!)).error, undefined);
  assert.deepEqual(await migrate(fresh.database, tell), names.slice(13));
  assert.deepEqual(
    told,
    names.slice(13).flatMap((n) => [`> ${n}`, `< ${n} true`]),
  );
  assert.deepEqual(await migrate(fresh.database, tell), []);
});

test('creating a new database applies every migration without a line for each', async (t) => {
  const fresh = await freshDatabase();
  t.after(async () => {
    await fresh.database.close();
    await fresh.drop();
  });
  const told: string[] = [];
  assert.deepEqual(await migrate(fresh.database, { starting: (name) => told.push(name), applied: () => {} }), Object.keys(migrations));
  assert.deepEqual(told, []);
});

test('a database migrated by a newer version is refused, naming the migration this code lacks', async (t) => {
  const fresh = await freshDatabase();
  t.after(async () => {
    await fresh.database.close();
    await fresh.drop();
  });
  await migrate(fresh.database);
  await sql`insert into kysely_migration (name, timestamp) values ('9999_from_the_future', '2030-01-01T00:00:00.000Z')`.execute(fresh.database.db);
  await assert.rejects(migrate(fresh.database), /9999_from_the_future/);
});
