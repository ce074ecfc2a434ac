/**
 * Administrative processes by NUP (spec §4.7, §4.8; issue 17): the processes read from Protocolo
 * Integrado (one row per NUP, its tramitações as a JSON array, oldest first, each with a stable key)
 * and the accounts' monitors of them, renewed like case monitors (platform/monitoring/renewal.ts).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('administrative_processes')
    .addColumn('nup', 'text', (c) => c.primaryKey())
    // The protocol unit (first five digits) and the covered body's sigla when it was read.
    .addColumn('unidade', 'text', (c) => c.notNull())
    .addColumn('tipo', 'text')
    .addColumn('assunto', 'text')
    // JSON arrays: names as published; tramitações {key, dataHora, operacao, unidadeOrigem, unidadeDestino}.
    .addColumn('interessados', 'text', (c) => c.notNull())
    .addColumn('orgao_origem', 'text')
    .addColumn('data_autuacao', 'text')
    .addColumn('tramitacoes', 'text', (c) => c.notNull())
    .addColumn('tramitacoes_total', 'integer', (c) => c.notNull())
    .addColumn('fonte', 'text', (c) => c.notNull())
    .addColumn('coletado_em', 'text', (c) => c.notNull())
    .addColumn('criado_em', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('administrative_monitors')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('nup', 'text', (c) => c.notNull())
    .addColumn('webhook_url', 'text')
    .addColumn('frequencia', 'text', (c) => c.notNull())
    // ATIVO → SUSPENSO (renewal not paid) → ATIVO again when re-created; REMOVIDO (DELETE) is final.
    .addColumn('status', 'text', (c) => c.notNull())
    // PENDENTE until the first check, then ENCONTRADO / NAO_ENCONTRADO.
    .addColumn('situacao', 'text', (c) => c.notNull())
    .addColumn('preco_centavos', 'integer', (c) => c.notNull())
    .addColumn('verificacoes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('novidades', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ultima_verificacao_em', 'text')
    .addColumn('proxima_verificacao_em', 'text', (c) => c.notNull())
    .addColumn('proxima_cobranca_em', 'text', (c) => c.notNull())
    .addColumn('periodo', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('ultimo_erro', 'text')
    .addColumn('criado_em', 'text', (c) => c.notNull())
    .addColumn('atualizado_em', 'text', (c) => c.notNull())
    .addColumn('removido_em', 'text')
    .execute();
  await db.schema
    .createIndex('administrative_monitors_live')
    .on('administrative_monitors')
    .columns(['account_id', 'nup'])
    .unique()
    .where(sql.ref('status'), '<>', 'REMOVIDO')
    .execute();
  await db.schema.createIndex('administrative_monitors_due').on('administrative_monitors').columns(['status', 'proxima_verificacao_em']).execute();
  await db.schema.createIndex('administrative_monitors_nup').on('administrative_monitors').columns(['nup', 'status']).execute();
  await db.schema.createIndex('administrative_monitors_account').on('administrative_monitors').columns(['account_id', 'criado_em']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('administrative_monitors').execute();
  await db.schema.dropTable('administrative_processes').execute();
}
