/**
 * The upstream's raw documents leave the stored rows (issue 19, item 8: at 2 million cases the store
 * was twice this machine's memory, so reads went to the disk; docs/benchmarks.md). `cases.raw` (the
 * DataJud hits of the last lookup) and `domain_events.raw` (the same hits again, copied into each
 * case event) were written and never read: a RAW or BOTH webhook body is built when its event is
 * recorded and stored with the delivery (platform/events/payload.ts), so retries and resends still
 * send the upstream record. They were 45% of a stored case's bytes, and `raw` sat in the row every
 * cover reads, before the stamp columns, behind overflow pages.
 *
 * (Tried here: `case_movements` as a WITHOUT ROWID table keeping both its keys, 7% fewer bytes per
 * case. 0017 does it with the listing's order as the one key, which also replaces the order index.)
 *
 * SQLite rewrites both tables here (minutes on a store of millions of cases) and keeps the freed pages
 * for reuse; `VACUUM` gives them back to the disk. PostgreSQL drops the columns at once.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('cases').dropColumn('raw').execute();
  await db.schema.alterTable('domain_events').dropColumn('raw').execute();
}

/** The columns come back empty: the documents were not kept. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('domain_events').addColumn('raw', 'text').execute();
  await db.schema
    .alterTable('cases')
    .addColumn('raw', 'text', (c) => c.notNull().defaultTo('null'))
    .execute();
}
