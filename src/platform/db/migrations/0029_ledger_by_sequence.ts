/**
 * The ledger keyed by its statement's order (issue 54 item 1). 0023 numbered each account's rows
 * (`seq`) and added UNIQUE(account_id, seq) beside the primary key (account_id, created_at, id) that
 * 0005 gave the table, so every charge wrote one more B-tree than before. Now the primary key is
 * (account_id, seq): the statement reads it (newest first, `seq < before`), it refuses a number given
 * twice as the unique index did, and a charge writes the table and UNIQUE(account_id, operation_id)
 * again, as before 0023. Nothing reads the ledger by (account_id, created_at) any more: the statement
 * pages by seq and narrows by time within the account's rows; the console's spend by day reads the
 * search logs, keyed by (account_id, created_at), which carry each charge's total and query type.
 *
 * SQLite cannot change a primary key in place: the table is rebuilt (create, copy, drop, rename), as in
 * 0005. On PostgreSQL the primary key is replaced and the unique index dropped.
 */
import { sql, type Kysely } from 'kysely';
import { engineOf } from '../engine.ts';

type Key = 'by-seq' | 'by-time';

/** The ledger as 0023 left it (its columns in the same order, so `insert … select *` copies a row), keyed by `key`. */
function ledgerTable(db: Kysely<any>, name: string, key: Key) {
  return db.schema
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
    .addColumn('seq', 'bigint', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('ledger_one_charge_per_operation', ['account_id', 'operation_id'])
    .addPrimaryKeyConstraint('ledger_pkey', key === 'by-seq' ? ['account_id', 'seq'] : ['account_id', 'created_at', 'id'])
    .modifyEnd(sql`without rowid`);
}

async function rebuildSqlite(db: Kysely<any>, key: Key): Promise<void> {
  await ledgerTable(db, 'ledger_rekeyed', key).execute();
  await sql`insert into ledger_rekeyed select * from ledger`.execute(db);
  await db.schema.dropTable('ledger').execute();
  await db.schema.alterTable('ledger_rekeyed').renameTo('ledger').execute();
}

async function rekeyPostgres(db: Kysely<any>, columns: string[]): Promise<void> {
  await db.schema.alterTable('ledger').dropConstraint('ledger_pkey').execute();
  await db.schema.alterTable('ledger').addPrimaryKeyConstraint('ledger_pkey', columns).execute();
}

export async function up(db: Kysely<any>): Promise<void> {
  if (engineOf(db) === 'sqlite') {
    // UNIQUE(account_id, seq) goes with the old table; the new primary key replaces it.
    await rebuildSqlite(db, 'by-seq');
    return;
  }
  await rekeyPostgres(db, ['account_id', 'seq']);
  await db.schema.dropIndex('ledger_account_seq').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  if (engineOf(db) === 'sqlite') await rebuildSqlite(db, 'by-time');
  else await rekeyPostgres(db, ['account_id', 'created_at', 'id']);
  await db.schema.createIndex('ledger_account_seq').on('ledger').columns(['account_id', 'seq']).unique().execute();
}
