/**
 * Each upstream's health, shared by every process of a deployment (issue 51): `estado` healthy,
 * degraded or failing as the last process to see it change wrote it (`mudou_em`, ISO instant), and
 * `proxima_sonda_em`, the instant from which a failing source may be asked once more (a background
 * probe or one request path): claimed by an UPDATE that moves it a probe period ahead, so one
 * process asks it per period.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('source_health')
    .addColumn('fonte', 'text', (c) => c.primaryKey())
    .addColumn('estado', 'text', (c) => c.notNull())
    .addColumn('falhas_seguidas', 'integer', (c) => c.notNull())
    .addColumn('ultima_falha', 'text')
    .addColumn('mudou_em', 'text', (c) => c.notNull())
    .addColumn('proxima_sonda_em', 'text')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('source_health').execute();
}
