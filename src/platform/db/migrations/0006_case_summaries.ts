/**
 * AI case summaries (spec §4.3, issue 15): one row per execution (`id` is the `providerRequestId`),
 * owned by the account that asked, with its state, the method or model that wrote it, the fingerprint
 * of the case facts it was written from (so a read can tell it is outdated), and the text.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('case_summaries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('numero_cnj', 'text', (c) => c.notNull())
    // PENDENTE → PROCESSANDO → FINALIZADO | ERRO (the last two terminal).
    .addColumn('status', 'text', (c) => c.notNull())
    // What a PROCESSANDO execution is doing: na_fila, atualizando_processo, escrevendo, concluido.
    .addColumn('etapa', 'text', (c) => c.notNull())
    .addColumn('enviar_callback', 'integer', (c) => c.notNull())
    .addColumn('request_id', 'text', (c) => c.notNull())
    .addColumn('preco_centavos', 'integer', (c) => c.notNull())
    // The refresh this execution waits on when the stored case was older than the freshness setting.
    .addColumn('refresh_id', 'text')
    .addColumn('metodo', 'text')
    .addColumn('modelo', 'text')
    .addColumn('conteudo', 'text')
    .addColumn('entrada_hash', 'text')
    .addColumn('aviso', 'text')
    .addColumn('tokens_entrada', 'integer')
    .addColumn('tokens_saida', 'integer')
    .addColumn('erro_codigo', 'text')
    .addColumn('erro_mensagem', 'text')
    .addColumn('criado_em', 'text', (c) => c.notNull())
    .addColumn('iniciado_em', 'text')
    .addColumn('concluido_em', 'text')
    .execute();
  await db.schema.createIndex('case_summaries_account_case').on('case_summaries').columns(['account_id', 'numero_cnj', 'criado_em']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('case_summaries').execute();
}
