/**
 * A party's instance (issue 52 item 3): where a case's parties come from more than one degree's page
 * (the first degree's and the appeal's, read under the same number), each keeps the grau code of the
 * instance whose page listed it (`G1`, `G2`, `TR`); null where one source gave them for the whole case.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('case_parties').addColumn('grau', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('case_parties').dropColumn('grau').execute();
}
