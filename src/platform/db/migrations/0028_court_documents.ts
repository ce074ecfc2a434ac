/**
 * Public documents from the courts' own pages (issue 53). `case_documents` says who lists each
 * document (`fonte`: the provider, or `consulta-tjma`), where its content is (`origem`: `provedor`,
 * `visualizador` the court's HTML viewer, `arquivo` a file the court stores) and why the court does
 * not open it to the public (`restricao`, null when public). `case_document_files` keeps each court
 * document once read, so a second download asks no court: the body (HTML and text), its signature,
 * the court's PDF or file as base64 (portable across both engines), its size for the store's bound
 * (TRAMITA_DOCUMENT_STORE_MAX_MB: the least recently used are evicted) and when it was last used.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('case_documents').addColumn('fonte', 'text').execute();
  await db.schema
    .alterTable('case_documents')
    .addColumn('origem', 'text', (c) => c.notNull().defaultTo('provedor'))
    .execute();
  await db.schema.alterTable('case_documents').addColumn('restricao', 'text').execute();
  await db.schema
    .createTable('case_document_files')
    .addColumn('numero_cnj', 'text', (c) => c.notNull())
    .addColumn('documento_id', 'text', (c) => c.notNull())
    .addColumn('formato', 'text', (c) => c.notNull())
    .addColumn('html', 'text')
    .addColumn('texto', 'text')
    .addColumn('titulo', 'text')
    .addColumn('assinante', 'text')
    .addColumn('assinado_em', 'text')
    .addColumn('id_documento', 'text')
    .addColumn('codigo_validacao', 'text')
    .addColumn('pdf_base64', 'text')
    .addColumn('arquivo_base64', 'text')
    .addColumn('mime_type', 'text')
    .addColumn('nome', 'text')
    .addColumn('tamanho_bytes', 'integer', (c) => c.notNull())
    .addColumn('armazenado_em', 'text', (c) => c.notNull())
    .addColumn('usado_em', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('case_document_files_pk', ['numero_cnj', 'documento_id'])
    .execute();
  await db.schema.createIndex('case_document_files_used').on('case_document_files').columns(['usado_em', 'numero_cnj', 'documento_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('case_document_files').execute();
  await db.schema.alterTable('case_documents').dropColumn('restricao').execute();
  await db.schema.alterTable('case_documents').dropColumn('origem').execute();
  await db.schema.alterTable('case_documents').dropColumn('fonte').execute();
}
