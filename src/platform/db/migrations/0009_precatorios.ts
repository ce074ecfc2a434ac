/**
 * Precatórios and RPVs (issue 17, spec §4.2 `/v1/precatorios`): one row per record as a source gave it
 * (a court's list imported from a file, later the TJRJ API and DataJud's classes 1265/1266), keyed by
 * source, court and number so a re-import updates instead of duplicating. A creditor's CPF/CNPJ is
 * never stored: only its keyed fingerprint (SecretBox.fingerprint), to answer "the records of this
 * creditor". Each import is recorded with its counts.
 */
import { sql, type Kysely } from 'kysely';
import { engineOf } from '../engine.ts';

export async function up(db: Kysely<any>): Promise<void> {
  const sqlite = engineOf(db) === 'sqlite';
  await db.schema
    .createTable('precatorios')
    // `<fonte>:<tribunal>:<numero>`
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('fonte', 'text', (c) => c.notNull())
    .addColumn('tribunal', 'text', (c) => c.notNull())
    .addColumn('numero', 'text', (c) => c.notNull())
    // 20 digits when the record names a valid CNJ number.
    .addColumn('numero_processo', 'text')
    .addColumn('ente_devedor', 'text')
    // The folded debtor, for filtering by a fragment of its name.
    .addColumn('ente_busca', 'text')
    .addColumn('natureza', 'text')
    .addColumn('ano_orcamento', 'integer')
    .addColumn('ordem', 'integer')
    .addColumn('situacao', 'text')
    .addColumn('valor_centavos', 'integer')
    .addColumn('credor_hash', 'text')
    .addColumn('fonte_url', 'text')
    .addColumn('importacao_id', 'text')
    .addColumn('coletado_em', 'text', (c) => c.notNull())
    // `<tribunal>|<ano or 9999>|<ordem, 9 digits, or 999999999>`: the listing's order (court, budget
    // year, chronological order; unknowns last) as one text column both engines compare byte by byte
    // (COLLATE "C" on PostgreSQL, SQLite's default), so a court or a court-year is one index range.
    .addColumn('ordenacao', 'text', (c) => (sqlite ? c.notNull() : c.notNull().modifyEnd(sql`COLLATE "C"`)))
    .execute();
  await db.schema.createIndex('precatorios_order').on('precatorios').columns(['ordenacao', 'id']).execute();
  await db.schema.createIndex('precatorios_process').on('precatorios').columns(['numero_processo']).execute();
  await db.schema.createIndex('precatorios_creditor').on('precatorios').columns(['credor_hash']).execute();

  await db.schema
    .createTable('precatorio_imports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('arquivo', 'text', (c) => c.notNull())
    .addColumn('tribunal', 'text', (c) => c.notNull())
    .addColumn('fonte_url', 'text')
    .addColumn('linhas', 'integer', (c) => c.notNull())
    .addColumn('aceitas', 'integer', (c) => c.notNull())
    .addColumn('rejeitadas', 'integer', (c) => c.notNull())
    .addColumn('iniciado_em', 'text', (c) => c.notNull())
    .addColumn('concluido_em', 'text')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('precatorio_imports').execute();
  await db.schema.dropTable('precatorios').execute();
}
