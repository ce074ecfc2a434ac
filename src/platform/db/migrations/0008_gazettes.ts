/**
 * The gazettes of issue 16 (STF DJe, DJE eleitoral): their publications live in `publications` beside
 * DJEN's (one full-text index, one OAB index, one matching path for monitors), told apart by `fonte`
 * and by their ids (`STF:<id>`, `<tribunal>:<edição>:<ordem>`). Here: the days ingested per gazette
 * (what makes the ingest resumable and idempotent), the electoral editions, and the sources a
 * publication monitor watches.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // A gazette day read whole: `fonte` is STF, TSE or TRE-<UF>. A day before today is final once here.
  await db.schema
    .createTable('gazette_days')
    .addColumn('fonte', 'text', (c) => c.notNull())
    .addColumn('dia', 'text', (c) => c.notNull())
    .addColumn('publicacoes', 'integer', (c) => c.notNull())
    .addColumn('edicoes', 'integer', (c) => c.notNull())
    .addColumn('ingerido_em', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('gazette_days_pk', ['fonte', 'dia'])
    .execute();

  await db.schema
    .createTable('gazette_editions')
    // `<tribunal>:<número>`, e.g. `TRE-SP:2260`.
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tribunal', 'text', (c) => c.notNull())
    .addColumn('numero', 'integer', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('extra', 'integer', (c) => c.notNull())
    .addColumn('publicacoes', 'integer', (c) => c.notNull())
    .addColumn('sandbox', 'integer', (c) => c.notNull())
    .addColumn('raw', 'text', (c) => c.notNull())
    .addColumn('ingerido_em', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('gazette_editions_court_day').on('gazette_editions').columns(['tribunal', 'data', 'numero']).execute();

  await db.schema.createIndex('publications_source_day').on('publications').columns(['fonte', 'data_disponibilizacao', 'id']).execute();

  // JSON array of DJEN, STF, TSE, TRE-<UF>; null: every source.
  await db.schema.alterTable('publication_monitors').addColumn('fontes', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('publication_monitors').dropColumn('fontes').execute();
  await db.schema.dropIndex('publications_source_day').execute();
  await db.schema.dropTable('gazette_editions').execute();
  await db.schema.dropTable('gazette_days').execute();
}
