/**
 * Publications (issue 5): DJEN communications stored once (by DJEN id) with the lawyers they name and
 * a full-text index; what Tramita knows of each OAB's history (the lawyer summary's coverage); the
 * intimação and publication monitors with the publications each matched; the asynchronous OAB
 * searches of spec §4.4 (numeric ids).
 */
import { sql, type Kysely } from 'kysely';
import { engineOf } from '../engine.ts';

export async function up(db: Kysely<any>): Promise<void> {
  const sqlite = engineOf(db) === 'sqlite';

  await db.schema
    .createTable('publications')
    // DJEN `id`: a communication is stored once, whoever's query or caderno brought it.
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('hash', 'text')
    .addColumn('fonte', 'text', (c) => c.notNull())
    .addColumn('sandbox', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('tribunal', 'text', (c) => c.notNull())
    .addColumn('data_disponibilizacao', 'text', (c) => c.notNull())
    .addColumn('tipo_comunicacao', 'text', (c) => c.notNull())
    .addColumn('tipo_documento', 'text')
    .addColumn('orgao', 'text')
    .addColumn('classe', 'text')
    .addColumn('meio', 'text', (c) => c.notNull())
    .addColumn('numero_comunicacao', 'text')
    // 20 digits, or null when DJEN's number is not a valid CNJ number.
    .addColumn('numero_cnj', 'text')
    .addColumn('texto', 'text', (c) => c.notNull())
    .addColumn('link', 'text')
    .addColumn('ativo', 'integer', (c) => c.notNull())
    .addColumn('cancelamento', 'text')
    // JSON arrays of PublicationParty / PublicationLawyer.
    .addColumn('destinatarios', 'text', (c) => c.notNull())
    .addColumn('advogados', 'text', (c) => c.notNull())
    .addColumn('raw', 'text', (c) => c.notNull())
    .addColumn('ingerido_em', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('publications_case').on('publications').columns(['numero_cnj', 'data_disponibilizacao', 'id']).execute();
  await db.schema.createIndex('publications_day').on('publications').columns(['data_disponibilizacao', 'id']).execute();

  // One row per (OAB, publication): every listing by OAB reads this index, newest first.
  await db.schema
    .createTable('publication_lawyers')
    .addColumn('oab', 'text', (c) => c.notNull())
    .addColumn('data_disponibilizacao', 'text', (c) => c.notNull())
    .addColumn('publicacao_id', 'text', (c) => c.notNull().references('publications.id'))
    .addColumn('numero_cnj', 'text')
    .addColumn('tribunal', 'text', (c) => c.notNull())
    .addColumn('nome', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('publication_lawyers_pk', ['oab', 'data_disponibilizacao', 'publicacao_id'])
    .execute();

  if (sqlite) {
    await sql`CREATE VIRTUAL TABLE publication_search USING fts5(publicacao_id UNINDEXED, texto, tokenize = 'unicode61 remove_diacritics 2')`.execute(db);
  } else {
    await db.schema
      .createTable('publication_search')
      .addColumn('publicacao_id', 'text', (c) => c.primaryKey())
      .addColumn('texto', 'text', (c) => c.notNull())
      .addColumn('vetor', sql`tsvector`, (c) => c.notNull())
      .execute();
    await sql`CREATE INDEX publication_search_vetor ON publication_search USING gin (vetor)`.execute(db);
  }

  // What Tramita has of an OAB's publications: recent sync, and the consolidated history (spec §2.3, §3.2).
  await db.schema
    .createTable('oab_histories')
    .addColumn('oab', 'text', (c) => c.primaryKey())
    .addColumn('recente_em', 'text')
    // PENDENTE → EM_ANDAMENTO → CONCLUIDA (cobertura.completa) | ERRO (tried again later).
    .addColumn('consolidacao', 'text', (c) => c.notNull())
    .addColumn('consolidado_em', 'text')
    .addColumn('paginas', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ultimo_erro', 'text')
    .addColumn('criado_em', 'text', (c) => c.notNull())
    .addColumn('atualizado_em', 'text', (c) => c.notNull())
    .execute();

  // When DJEN was last asked about a key (`cnj:<20 digits>`, `termo:<folded>`): the freshness policy reads this.
  await db.schema
    .createTable('publication_syncs')
    .addColumn('chave', 'text', (c) => c.primaryKey())
    .addColumn('sincronizado_em', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('publication_monitors')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    // INTIMACOES (/v1/intimacoes/oab) or PUBLICACOES (/v1/monitoramentos/publicacoes).
    .addColumn('origem', 'text', (c) => c.notNull())
    // OAB, TERMO or PROCESSO; `valor` is the canonical key (SP123456, the folded term, 20 digits).
    .addColumn('tipo', 'text', (c) => c.notNull())
    .addColumn('valor', 'text', (c) => c.notNull())
    .addColumn('termo', 'text', (c) => c.notNull())
    // JSON array of DJEN siglas, or null for every court.
    .addColumn('tribunais', 'text')
    .addColumn('webhook_url', 'text')
    // ATIVO, SUSPENSO (renewal not paid), REMOVIDO (nothing is physically deleted).
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('preco_centavos', 'integer', (c) => c.notNull())
    .addColumn('periodo', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('proxima_cobranca_em', 'text', (c) => c.notNull())
    // Publications of this day or later count as news (older ones are history, never an event).
    .addColumn('desde', 'text', (c) => c.notNull())
    .addColumn('publicacoes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ultima_verificacao_em', 'text')
    .addColumn('proxima_verificacao_em', 'text', (c) => c.notNull())
    .addColumn('ultimo_erro', 'text')
    .addColumn('criado_em', 'text', (c) => c.notNull())
    .addColumn('atualizado_em', 'text', (c) => c.notNull())
    .addColumn('removido_em', 'text')
    .execute();
  await db.schema
    .createIndex('publication_monitors_live')
    .on('publication_monitors')
    .columns(['account_id', 'origem', 'tipo', 'valor'])
    .unique()
    .where(sql.ref('status'), '<>', 'REMOVIDO')
    .execute();
  await db.schema.createIndex('publication_monitors_due').on('publication_monitors').columns(['status', 'proxima_verificacao_em']).execute();
  await db.schema.createIndex('publication_monitors_account').on('publication_monitors').columns(['account_id', 'origem', 'id']).execute();

  // A publication a monitor matched: once per (monitor, publication), so no event is sent twice.
  await db.schema
    .createTable('publication_matches')
    .addColumn('monitor_id', 'text', (c) => c.notNull())
    .addColumn('publicacao_id', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('origem', 'text', (c) => c.notNull())
    .addColumn('data_disponibilizacao', 'text', (c) => c.notNull())
    .addColumn('evento_id', 'text')
    .addColumn('criado_em', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('publication_matches_pk', ['monitor_id', 'publicacao_id'])
    .execute();
  await db.schema.createIndex('publication_matches_account').on('publication_matches').columns(['account_id', 'origem', 'criado_em']).execute();

  await db.schema
    .createTable('oab_searches')
    // Spec §4.4: the search answers a numeric identifier.
    .addColumn('id', sqlite ? 'integer' : 'bigserial', (c) => (sqlite ? c.primaryKey().autoIncrement() : c.primaryKey()))
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('tribunal', 'text', (c) => c.notNull())
    .addColumn('oab', 'text', (c) => c.notNull())
    .addColumn('permitir_parcial', 'integer', (c) => c.notNull())
    .addColumn('enviar_callback', 'integer', (c) => c.notNull())
    // PENDENTE → PROCESSANDO → SUCESSO | ERRO (spec §3.1: the last two are terminal).
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('paginas', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('publicacoes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('parcial', 'integer', (c) => c.notNull().defaultTo(0))
    // JSON: the processes found (resposta[].processos).
    .addColumn('resultado', 'text')
    .addColumn('preco_centavos', 'integer', (c) => c.notNull())
    .addColumn('request_id', 'text', (c) => c.notNull())
    .addColumn('erro_codigo', 'text')
    .addColumn('erro_mensagem', 'text')
    .addColumn('criado_em', 'text', (c) => c.notNull())
    .addColumn('iniciado_em', 'text')
    .addColumn('concluido_em', 'text')
    .execute();
  await db.schema.createIndex('oab_searches_account').on('oab_searches').columns(['account_id', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'oab_searches',
    'publication_matches',
    'publication_monitors',
    'oab_histories',
    'publication_syncs',
    'publication_search',
    'publication_lawyers',
    'publications',
  ]) {
    await db.schema.dropTable(t).execute();
  }
}
