/**
 * The precatório store also takes DataJud's precatório and RPV processes (TPU classes 1265/1266,
 * issue 17): the record's class, and per court how far the incremental harvest has read
 * (`dataHoraUltimaAtualizacao` of the last document seen), so each run asks only what changed.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('precatorios').addColumn('classe', 'text').execute();
  await db.schema
    .createTable('precatorio_harvests')
    .addColumn('tribunal', 'text', (c) => c.primaryKey())
    // ISO instant: the next run asks for documents updated at or after it.
    .addColumn('desde', 'text', (c) => c.notNull())
    .addColumn('registros', 'integer', (c) => c.notNull())
    .addColumn('atualizado_em', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('precatorio_harvests').execute();
  await db.schema.alterTable('precatorios').dropColumn('classe').execute();
}
