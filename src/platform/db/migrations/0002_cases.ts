/**
 * The case store: cases with their instances, movements, parties, lawyers and public documents, the
 * refresh requests of spec §4.3, the full-text index of the term search, and the domain events that
 * monitors and webhooks consume. Full-text search differs per engine (FTS5 / tsvector), behind one
 * interface in capabilities/processes/search-index-store.ts.
 */
import { sql, type Kysely } from 'kysely';
import { engineOf } from '../engine.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('cases')
    .addColumn('numero_cnj', 'text', (c) => c.primaryKey())
    .addColumn('tribunal', 'text', (c) => c.notNull())
    .addColumn('fonte', 'text', (c) => c.notNull())
    .addColumn('sandbox', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('classe_nome', 'text')
    .addColumn('data_ajuizamento', 'text')
    // The upstream's own last update (DataJud dataHoraUltimaAtualizacao).
    .addColumn('atualizado_em', 'text')
    // Instances without their movements (the cover), and the upstream documents as received.
    .addColumn('instancias', 'text', (c) => c.notNull())
    .addColumn('raw', 'text', (c) => c.notNull())
    // Null until the case-details provider said (enrichment, spec §2.3).
    .addColumn('valor_causa_centavos', 'bigint')
    .addColumn('detalhes_em', 'text')
    // Set by a completed refresh; public documents are listed only after one (spec §4.3).
    .addColumn('documentos_em', 'text')
    .addColumn('movimentos_total', 'integer', (c) => c.notNull().defaultTo(0))
    // When the metadata upstream was last asked: the freshness policy reads this.
    .addColumn('consultado_em', 'text', (c) => c.notNull())
    .addColumn('criado_em', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('case_movements')
    .addColumn('numero_cnj', 'text', (c) => c.notNull().references('cases.numero_cnj'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('grau', 'text', (c) => c.notNull())
    .addColumn('codigo', 'text', (c) => c.notNull())
    .addColumn('nome', 'text', (c) => c.notNull())
    .addColumn('data_hora', 'text', (c) => c.notNull())
    .addColumn('complementos', 'text', (c) => c.notNull())
    .addColumn('orgao_julgador', 'text')
    .addColumn('visto_em', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('case_movements_pk', ['numero_cnj', 'key'])
    .execute();
  // Newest first, with the key as tie-breaker: the order and the cursor of the movements listing.
  await db.schema.createIndex('case_movements_order').on('case_movements').columns(['numero_cnj', 'data_hora', 'key']).execute();

  await db.schema
    .createTable('case_parties')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('numero_cnj', 'text', (c) => c.notNull().references('cases.numero_cnj'))
    .addColumn('posicao', 'integer', (c) => c.notNull())
    .addColumn('polo', 'text', (c) => c.notNull())
    .addColumn('tipo', 'text', (c) => c.notNull())
    .addColumn('nome', 'text', (c) => c.notNull())
    .addColumn('tipo_pessoa', 'text', (c) => c.notNull())
    .addColumn('documento', 'text')
    .execute();
  await db.schema.createIndex('case_parties_case').on('case_parties').columns(['numero_cnj', 'posicao']).execute();
  await db.schema.createIndex('case_parties_documento').on('case_parties').columns(['documento', 'numero_cnj']).execute();

  await db.schema
    .createTable('case_lawyers')
    .addColumn('party_id', 'text', (c) => c.notNull().references('case_parties.id'))
    .addColumn('numero_cnj', 'text', (c) => c.notNull().references('cases.numero_cnj'))
    .addColumn('posicao', 'integer', (c) => c.notNull())
    .addColumn('nome', 'text', (c) => c.notNull())
    .addColumn('oab_uf', 'text')
    .addColumn('oab_numero', 'text')
    .addPrimaryKeyConstraint('case_lawyers_pk', ['party_id', 'posicao'])
    .execute();
  await db.schema.createIndex('case_lawyers_oab').on('case_lawyers').columns(['oab_uf', 'oab_numero', 'numero_cnj']).execute();

  await db.schema
    .createTable('case_documents')
    .addColumn('numero_cnj', 'text', (c) => c.notNull().references('cases.numero_cnj'))
    .addColumn('documento_id', 'text', (c) => c.notNull())
    .addColumn('titulo', 'text', (c) => c.notNull())
    .addColumn('tipo', 'text', (c) => c.notNull())
    .addColumn('data_juntada', 'text', (c) => c.notNull())
    .addColumn('mime_type', 'text', (c) => c.notNull())
    .addColumn('tamanho_bytes', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('case_documents_pk', ['numero_cnj', 'documento_id'])
    .execute();

  await db.schema
    .createTable('case_refreshes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('numero_cnj', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('PENDENTE', 'PROCESSANDO', 'CONCLUIDA', 'ERRO')`))
    .addColumn('request_id', 'text', (c) => c.notNull())
    // Price at request time; charged once, in the transaction that completes the refresh.
    .addColumn('preco_centavos', 'bigint', (c) => c.notNull())
    .addColumn('novas_movimentacoes', 'integer')
    .addColumn('erro_codigo', 'text')
    .addColumn('erro_mensagem', 'text')
    .addColumn('solicitado_em', 'text', (c) => c.notNull())
    .addColumn('iniciado_em', 'text')
    .addColumn('concluido_em', 'text')
    .execute();
  // One live refresh per account and case: asking again while it runs returns it, uncharged.
  await db.schema
    .createIndex('case_refreshes_live')
    .on('case_refreshes')
    .columns(['account_id', 'numero_cnj'])
    .unique()
    .where(sql.ref('status'), 'in', sql`('PENDENTE', 'PROCESSANDO')`)
    .execute();
  await db.schema.createIndex('case_refreshes_case').on('case_refreshes').columns(['numero_cnj', 'solicitado_em']).execute();

  await db.schema
    .createTable('domain_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('numero_cnj', 'text')
    .addColumn('tribunal', 'text')
    // Set for events that belong to one account (a refresh it asked for); null for case-wide news.
    .addColumn('account_id', 'text')
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('raw', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('domain_events_order').on('domain_events').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('domain_events_case').on('domain_events').columns(['numero_cnj', 'created_at']).execute();

  if (engineOf(db) === 'sqlite') {
    // remove_diacritics 2: "Conceição" matches "conceicao"; the text is also normalized before indexing.
    await sql`CREATE VIRTUAL TABLE case_search USING fts5(numero_cnj UNINDEXED, texto, tokenize = 'unicode61 remove_diacritics 2')`.execute(db);
  } else {
    await db.schema
      .createTable('case_search')
      .addColumn('numero_cnj', 'text', (c) => c.primaryKey())
      .addColumn('texto', 'text', (c) => c.notNull())
      .addColumn('vetor', sql`tsvector`, (c) => c.notNull())
      .execute();
    await sql`CREATE INDEX case_search_vetor ON case_search USING gin (vetor)`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['case_search', 'domain_events', 'case_refreshes', 'case_documents', 'case_lawyers', 'case_parties', 'case_movements', 'cases']) {
    await db.schema.dropTable(t).execute();
  }
}
