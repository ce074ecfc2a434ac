/** For the migrations' own tests: a fresh database (of the engine under test) migrated up to one migration. */
import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import { Migrator, type MigrationProvider } from 'kysely/migration';
import { freshDatabase } from '../../../../test/harness.ts';
import { migrations } from './index.ts';

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** A fresh database migrated up to `name` (dropped when `t` ends), and the migrator that goes on from there. */
export async function migratedTo(t: TestContext, name: string): Promise<{ db: Kysely<any>; migrator: Migrator }> {
  const fresh = await freshDatabase();
  t.after(async () => {
    await fresh.database.close();
    await fresh.drop();
  });
  const { db } = fresh.database;
  const migrator = new Migrator({ db, provider });
  assert.equal((await migrator.migrateTo(name)).error, undefined);
  return { db, migrator };
}
