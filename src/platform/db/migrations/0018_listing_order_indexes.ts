/**
 * An account's monitors and radars listed newest first (the API's listings and the console's pages,
 * `criado_em DESC, id DESC` with a keyset cursor) read in index order instead of sorting every one of
 * the account's rows for each page: an account with 100,000 monitors sorted 100,000 rows per page.
 * Publication and intimation monitors share one table, listed per origin.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('case_monitors_listing').on('case_monitors').columns(['account_id', 'criado_em', 'id']).execute();
  await db.schema.createIndex('radars_listing').on('radars').columns(['account_id', 'criado_em', 'id']).execute();
  await db.schema.createIndex('publication_monitors_listing').on('publication_monitors').columns(['account_id', 'origem', 'criado_em', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('publication_monitors_listing').execute();
  await db.schema.dropIndex('radars_listing').execute();
  await db.schema.dropIndex('case_monitors_listing').execute();
}
