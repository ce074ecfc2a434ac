/**
 * The statement in commit order (issue 46 item 8). Each account counts its ledger rows
 * (`accounts.ledger_seq`), and each row keeps its number (`ledger.seq`), taken in the same UPDATE that
 * moves the balance, under that row's lock: the numbers follow the order the balances changed in, so
 * each row's balance after is the one before it plus its delta. `created_at` is the instant a charge
 * began: concurrent charges of one account commit in another order than they began (PostgreSQL), and a
 * statement by time showed balances that went the wrong way.
 *
 * The existing rows are numbered per account in the order the statement listed them (created_at, id).
 * UNIQUE(account_id, seq) reads the statement and makes a number given twice fail its transaction.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('accounts')
    .addColumn('ledger_seq', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('ledger')
    .addColumn('seq', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  // UPDATE … FROM: PostgreSQL and SQLite (3.33+) alike; joined on the ledger's primary key.
  await sql`update ledger set seq = r.n
    from (select account_id, created_at, id, row_number() over (partition by account_id order by created_at, id) as n from ledger) r
    where ledger.account_id = r.account_id and ledger.created_at = r.created_at and ledger.id = r.id`.execute(db);
  await sql`update accounts set ledger_seq = coalesce((select max(seq) from ledger where ledger.account_id = accounts.id), 0)`.execute(db);
  await db.schema.createIndex('ledger_account_seq').on('ledger').columns(['account_id', 'seq']).unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('ledger_account_seq').execute();
  await db.schema.alterTable('ledger').dropColumn('seq').execute();
  await db.schema.alterTable('accounts').dropColumn('ledger_seq').execute();
}
