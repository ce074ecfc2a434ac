/**
 * The two tables every charge writes (`ledger`, `search_logs`) keyed the way they are read: by
 * account, in time order. Before, each was a rowid table plus a primary-key index on `id` plus an
 * (account, time) index, so a charge wrote seven B-trees; now the rows themselves are ordered by
 * (account_id, created_at, id) and a charge writes three (the two tables and the
 * never-charge-twice UNIQUE(account_id, operation_id)). On SQLite they are WITHOUT ROWID tables
 * (the primary key is the table); on PostgreSQL the primary key moves to the same columns. Ids stay
 * unique by construction (platform/ids.ts); nothing looks a row up by id alone.
 *
 * SQLite cannot change a primary key in place: each table is rebuilt (create, copy, drop, rename).
 */
import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import { engineOf } from '../engine.ts';

type Key = 'by-account' | 'by-id';

function searchLogs(db: Kysely<any>, name: string, key: Key, sqlite: boolean): CreateTableBuilder<any, any> {
  const t = db.schema
    .createTable(name)
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('request_id', 'text', (c) => c.notNull())
    .addColumn('query_type', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer', (c) => c.notNull())
    .addColumn('charged_centavos', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull());
  return keyed(t, 'search_logs_pkey', key, sqlite);
}

function ledger(db: Kysely<any>, name: string, key: Key, sqlite: boolean): CreateTableBuilder<any, any> {
  const t = db.schema
    .createTable(name)
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('debit', 'credit')`))
    .addColumn('delta_centavos', 'bigint', (c) => c.notNull())
    .addColumn('balance_after_centavos', 'bigint', (c) => c.notNull())
    .addColumn('operation_id', 'text')
    .addColumn('query_type', 'text')
    .addColumn('search_log_id', 'text')
    .addColumn('note', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    // One operation is charged at most once, whatever retries, polls or replays happen.
    .addUniqueConstraint('ledger_one_charge_per_operation', ['account_id', 'operation_id']);
  return keyed(t, 'ledger_pkey', key, sqlite);
}

function keyed(t: CreateTableBuilder<any, any>, pk: string, key: Key, sqlite: boolean): CreateTableBuilder<any, any> {
  if (key === 'by-id') return t.addPrimaryKeyConstraint(pk, ['id']);
  const byAccount = t.addPrimaryKeyConstraint(pk, ['account_id', 'created_at', 'id']);
  return sqlite ? byAccount.modifyEnd(sql`without rowid`) : byAccount;
}

/** SQLite: a new table with the wanted key, the rows copied over, the old one replaced. */
async function rebuild(db: Kysely<any>, table: 'ledger' | 'search_logs', key: Key): Promise<void> {
  const build = table === 'ledger' ? ledger : searchLogs;
  await build(db, `${table}_rekeyed`, key, true).execute();
  await sql`insert into ${sql.table(`${table}_rekeyed`)} select * from ${sql.table(table)}`.execute(db);
  await db.schema.dropTable(table).execute();
  await db.schema.alterTable(`${table}_rekeyed`).renameTo(table).execute();
}

async function rekeyPostgres(db: Kysely<any>, table: 'ledger' | 'search_logs', columns: string[]): Promise<void> {
  await db.schema.alterTable(table).dropConstraint(`${table}_pkey`).execute();
  await db.schema.alterTable(table).addPrimaryKeyConstraint(`${table}_pkey`, columns).execute();
}

export async function up(db: Kysely<any>): Promise<void> {
  if (engineOf(db) === 'sqlite') {
    // The (account, time) indexes go with their tables; the primary keys replace them.
    await rebuild(db, 'search_logs', 'by-account');
    await rebuild(db, 'ledger', 'by-account');
    return;
  }
  await rekeyPostgres(db, 'search_logs', ['account_id', 'created_at', 'id']);
  await rekeyPostgres(db, 'ledger', ['account_id', 'created_at', 'id']);
  await db.schema.dropIndex('search_logs_account').execute();
  await db.schema.dropIndex('ledger_account_time').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  if (engineOf(db) === 'sqlite') {
    await rebuild(db, 'search_logs', 'by-id');
    await rebuild(db, 'ledger', 'by-id');
  } else {
    await rekeyPostgres(db, 'search_logs', ['id']);
    await rekeyPostgres(db, 'ledger', ['id']);
  }
  await db.schema.createIndex('search_logs_account').on('search_logs').columns(['account_id', 'created_at']).execute();
  await db.schema.createIndex('ledger_account_time').on('ledger').columns(['account_id', 'created_at', 'id']).execute();
}
