import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test, type TestContext } from 'node:test';
import { sql } from 'kysely';
import { freshDatabase } from '../../../test/harness.ts';
import { migrate, openDatabase, type Database } from './database.ts';
import { prepared } from './prepared.ts';
import { PGBOUNCER, startPgBouncer } from '../../../test/pgbouncer.ts';
import { telemetry } from '../observability/telemetry.ts';

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

/** PgBouncer installed, or the test is skipped; a failure where .ci/run installs it (TRAMITA_REQUIRE_PGBOUNCER=1). */
function pgBouncerInstalled(t: TestContext): boolean {
  if (fs.existsSync(PGBOUNCER)) return true;
  if (process.env.TRAMITA_REQUIRE_PGBOUNCER === '1') assert.fail(`${PGBOUNCER} is missing: apt-get install pgbouncer`);
  t.skip('PgBouncer is not installed (apt-get install pgbouncer)');
  return false;
}

async function fundedAccount(database: Database, id: string, centavos: number): Promise<void> {
  const at = new Date().toISOString();
  await database.db
    .insertInto('accounts')
    .values({ id, name: 'Pooled', plan: 'padrao', status: 'active', balance_centavos: centavos, sandbox: 0, created_at: at, updated_at: at })
    .execute();
}

async function lostStatementCount(): Promise<number> {
  const metric = await telemetry.storageFailures.get();
  return metric.values.find((v) => v.labels.engine === 'postgres' && v.labels.where === 'prepared_statements')?.value ?? 0;
}

test('PostgreSQL behind a pooler in transaction mode: statements go unnamed, every query and transaction answers, one warning', { skip }, async (t) => {
  if (!pgBouncerInstalled(t)) return;
  const fresh = await freshDatabase();
  // Ten pooled connections over two server connections: a statement named on one client would be
  // missing on the server connection another transaction gets, or already there for the next client.
  const bouncer = await startPgBouncer(fresh.config.databaseUrl!, 2);
  const warnings: string[] = [];
  const behind = await openDatabase({ ...fresh.config, databaseUrl: bouncer.url }, { warn: (_obj, msg) => warnings.push(msg) });
  try {
    await migrate(fresh.database);
    await fundedAccount(fresh.database, 'acc_pooled', 4200);
    const balance = prepared(['id'], (p) => behind.db.selectFrom('accounts').select('balance_centavos').where('id', '=', p.id));
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          // Half of them inside a transaction, where a refused statement could not be sent again.
          i % 2 ? balance(behind.db, { id: 'acc_pooled' }) : behind.db.transaction().execute((trx) => balance(trx, { id: 'acc_pooled' })),
        ),
      );
      for (const a of answers) assert.deepEqual(a.rows, [{ balance_centavos: 4200 }]);
    }
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(warnings[0]!, /pooler.*TRAMITA_PG_PREPARED_STATEMENTS=false/);
  } finally {
    await behind.close();
    await bouncer.stop();
    await fresh.database.close();
    await fresh.drop();
  }
});

test('PostgreSQL: a named statement the server no longer has is sent again unnamed, and naming stops with a warning and a count', { skip }, async () => {
  const fresh = await freshDatabase();
  const warnings: string[] = [];
  const direct = await openDatabase(fresh.config, { warn: (_obj, msg) => warnings.push(msg) });
  try {
    await migrate(fresh.database);
    await fundedAccount(fresh.database, 'acc_refused', 700);
    const balance = prepared(['id'], (p) => direct.db.selectFrom('accounts').select('balance_centavos').where('id', '=', p.id));
    const counted = await lostStatementCount();
    const answer = await direct.db.connection().execute(async (conn) => {
      // Named on this connection (from its second statement: the first goes before the server's process
      // id is known), then dropped behind pg's back, as on a pooler's other server connection.
      for (let i = 0; i < 2; i++) assert.deepEqual((await balance(conn, { id: 'acc_refused' })).rows, [{ balance_centavos: 700 }]);
      await sql`deallocate all`.execute(conn);
      return balance(conn, { id: 'acc_refused' });
    });
    assert.deepEqual(answer.rows, [{ balance_centavos: 700 }]);
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(warnings[0]!, /refused a named statement/);
    assert.equal((await lostStatementCount()) - counted, 1);
  } finally {
    await direct.close();
    await fresh.database.close();
    await fresh.drop();
  }
});

test('PostgreSQL behind the same pooler with TRAMITA_PG_PREPARED_STATEMENTS=false: nothing is refused, nothing is reported', { skip }, async (t) => {
  if (!pgBouncerInstalled(t)) return;
  const fresh = await freshDatabase();
  const bouncer = await startPgBouncer(fresh.config.databaseUrl!, 2);
  const warnings: string[] = [];
  const behind = await openDatabase({ ...fresh.config, databaseUrl: bouncer.url, pgPreparedStatements: false }, { warn: (_obj, msg) => warnings.push(msg) });
  try {
    await migrate(fresh.database);
    const balance = prepared(['id'], (p) => behind.db.selectFrom('accounts').select('balance_centavos').where('id', '=', p.id));
    const answers = await Promise.all(Array.from({ length: 40 }, () => balance(behind.db, { id: 'acc_none' })));
    for (const a of answers) assert.deepEqual(a.rows, []);
    assert.deepEqual(warnings, []);
  } finally {
    await behind.close();
    await bouncer.stop();
    await fresh.database.close();
    await fresh.drop();
  }
});
