/**
 * A publication's text as plain text, cleaned once when it is ingested (issue 45 item 1): DJEN and the
 * STF send HTML, and converting it on every read (htmlToText) made each read pay for the whole text,
 * 5 s for a hostile one before the conversion was linear. `texto` keeps the text as the source sent it
 * (the HTML some answers and webhooks carry). Null on rows ingested before: readers convert those on
 * read (publications/store.ts), so no rewrite of a table that grows with the store is needed here.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('publications').addColumn('texto_limpo', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('publications').dropColumn('texto_limpo').execute();
}
