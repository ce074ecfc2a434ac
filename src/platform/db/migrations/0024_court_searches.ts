/**
 * One fan-out per search (issue 43 item 7): what a search by CPF/CNPJ, name or OAB found at the courts
 * (the courts asked, answered and failed, and the numbers looked up), kept for
 * TRAMITA_COURT_SEARCH_KEEP_MINUTES so its later pages read it instead of asking every court again.
 * `chave` is a SHA-256 of the normalized query (no CPF or name in clear); `feita_em` the ISO instant of
 * the fan-out, which reads compare with the keep window and writes purge by.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('court_searches')
    .addColumn('chave', 'text', (c) => c.primaryKey())
    .addColumn('resultado', 'text', (c) => c.notNull())
    .addColumn('feita_em', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('court_searches_feita_em').on('court_searches').column('feita_em').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('court_searches').execute();
}
