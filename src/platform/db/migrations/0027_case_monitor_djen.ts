/**
 * Case monitors hear DJEN at their own frequency (issue 51 item 5): `proxima_diario_em` is when a case
 * monitor's number is next asked of DJEN (publications/case-polling.ts), one period of the monitor's
 * frequency after the number's last ask, so a HORARIA monitor hears DJEN within the hour instead of once
 * a calendar day. Existing monitors keep the day they were on: the number's last ask (`publication_syncs`
 * `diario:<number>`) plus one day, or their creation instant when never asked; so the upgrade does not
 * make every number due at once. The index serves the due queue.
 */
import { sql, type Kysely } from 'kysely';

const DAY_MS = 86_400_000;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('case_monitors')
    .addColumn('proxima_diario_em', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.updateTable('case_monitors').set({ proxima_diario_em: sql`criado_em` }).execute();
  const asked: { numero_cnj: string; sincronizado_em: string }[] = await db
    .selectFrom('case_monitors as m')
    .innerJoin('publication_syncs as p', (j) => j.on('p.chave', '=', sql<string>`${'diario:'} || m.numero_cnj`))
    .select(['m.numero_cnj', 'p.sincronizado_em'])
    .distinct()
    .execute();
  for (const n of asked) {
    const next = new Date(Date.parse(n.sincronizado_em) + DAY_MS).toISOString();
    await db.updateTable('case_monitors').set({ proxima_diario_em: next }).where('numero_cnj', '=', n.numero_cnj).execute();
  }
  await db.schema.createIndex('case_monitors_djen').on('case_monitors').columns(['status', 'proxima_diario_em', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('case_monitors_djen').execute();
  await db.schema.alterTable('case_monitors').dropColumn('proxima_diario_em').execute();
}
