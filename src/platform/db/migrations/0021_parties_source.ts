/**
 * Which source gave a case's parties and lawyers (issue 32): `DJEN` (the addressees of the case's
 * communications), a court's consultation (`e-SAJ TJSP`), or the operator's provider. One per case: a
 * case's parties are saved whole from one source at a time. Null on cases enriched before it was kept.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('cases').addColumn('partes_fonte', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('cases').dropColumn('partes_fonte').execute();
}
