/**
 * What a court's public consultation page adds to a case (issue 31): each movement's text
 * (`case_movements.texto`: the page's complement under a DataJud movement of the same day and title,
 * or under a movement only the page lists, whose `codigo` is then empty), and the cover as the page
 * shows it (`cases.consulta`: JSON of sources' CaseConsultaRecord without its movements; null when no
 * consultation answered).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('case_movements').addColumn('texto', 'text').execute();
  await db.schema.alterTable('cases').addColumn('consulta', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('cases').dropColumn('consulta').execute();
  await db.schema.alterTable('case_movements').dropColumn('texto').execute();
}
