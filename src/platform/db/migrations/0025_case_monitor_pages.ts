/**
 * Court pages on their own schedule (issue 43 item 3, as measured after it): `proxima_pagina_em` is
 * when a case monitor's court page is next read, apart from its DataJud check, so every monitored case
 * of a consultation court has its page read once a period and not only when DataJud is due. '' is
 * first in line (a DJEN communication of the case just arrived); existing monitors start at their
 * creation instant, oldest first. The indexes serve the per-court queue and the lookup by number.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('case_monitors')
    .addColumn('proxima_pagina_em', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.updateTable('case_monitors').set({ proxima_pagina_em: sql`criado_em` }).execute();
  await db.schema.createIndex('case_monitors_pages').on('case_monitors').columns(['status', 'tribunal', 'proxima_pagina_em', 'id']).execute();
  await db.schema.createIndex('case_monitors_number').on('case_monitors').column('numero_cnj').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('case_monitors_number').execute();
  await db.schema.dropIndex('case_monitors_pages').execute();
  await db.schema.alterTable('case_monitors').dropColumn('proxima_pagina_em').execute();
}
