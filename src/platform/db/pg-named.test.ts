import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { freshDatabase } from '../../../test/harness.ts';
import { migrate, openDatabase, type Database } from './database.ts';
import { prepared } from './prepared.ts';

const onPostgres = Boolean(process.env.DATABASE_URL);
const skip = onPostgres ? false : 'PostgreSQL only (DATABASE_URL)';

/** The names of the statements this connection has prepared, after running the compiled query twice on it. */
async function preparedAfterTwoRuns(database: Database): Promise<string[]> {
  const balance = prepared(['id'], (p) => database.db.selectFrom('accounts').select('balance_centavos').where('id', '=', p.id));
  return database.db.transaction().execute(async (trx) => {
    // A transaction holds one pooled connection: pg_prepared_statements is per connection.
    for (let i = 0; i < 2; i++) assert.deepEqual((await balance(trx, { id: 'acc_none' })).rows, []);
    const rows = await sql<{ name: string }>`select name from pg_prepared_statements`.execute(trx);
    return rows.rows.map((r) => r.name);
  });
}

test('PostgreSQL: a query compiled once is a named statement on the connection, and answers as before', { skip }, async () => {
  const fresh = await freshDatabase();
  try {
    await migrate(fresh.database);
    const names = await preparedAfterTwoRuns(fresh.database);
    assert.ok(
      names.some((n) => n.startsWith('tramita_')),
      `named statements: ${names.join(', ')}`,
    );
  } finally {
    await fresh.database.close();
    await fresh.drop();
  }
});

test('PostgreSQL: with TRAMITA_PG_PREPARED_STATEMENTS=false nothing is prepared on the server', { skip }, async () => {
  const fresh = await freshDatabase();
  const unnamed = await openDatabase({ ...fresh.config, pgPreparedStatements: false });
  try {
    await migrate(fresh.database);
    assert.deepEqual(await preparedAfterTwoRuns(unnamed), []);
  } finally {
    await unnamed.close();
    await fresh.database.close();
    await fresh.drop();
  }
});
