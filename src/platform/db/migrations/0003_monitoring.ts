/**
 * Events and monitoring (issue 4): the account webhook configuration (spec §2.4), the fan-out of
 * domain events to accounts (the pull feed), webhook deliveries and their attempts (spec §6), case
 * monitors and new-case radars with their results (spec §4.8).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // Where an event came from (spec §6.3 `source`): the upstream that showed the change, or `tramita`.
  await db.schema
    .alterTable('domain_events')
    .addColumn('source', 'text', (c) => c.notNull().defaultTo('tramita'))
    .execute();

  await db.schema
    .createTable('webhook_configs')
    .addColumn('account_id', 'text', (c) => c.primaryKey().references('accounts.id'))
    .addColumn('url', 'text')
    // Sealed with the SecretBox (AES-256-GCM): needed in clear to sign, so hashed is not an option.
    .addColumn('token_sealed', 'text')
    .addColumn('secret_sealed', 'text', (c) => c.notNull())
    .addColumn('secret_prefix', 'text', (c) => c.notNull())
    .addColumn('formato', 'text', (c) => c.notNull().defaultTo('NORMALIZED'))
    .addColumn('ativo', 'integer', (c) => c.notNull().defaultTo(1))
    // JSON array of event names; null = every kind.
    .addColumn('eventos', 'text')
    .addColumn('nomes_legados', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('feed_cursor', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  // Who hears about events on a topic (`cnj:<20 digits>`), and through which monitor.
  await db.schema
    .createTable('event_subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('topic', 'text', (c) => c.notNull())
    .addColumn('monitor_type', 'text', (c) => c.notNull())
    .addColumn('monitor_id', 'text', (c) => c.notNull())
    // JSON array of the event kinds this subscription wants.
    .addColumn('kinds', 'text', (c) => c.notNull())
    .addColumn('webhook_url', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('event_subscriptions_topic').on('event_subscriptions').columns(['topic']).execute();
  await db.schema.createIndex('event_subscriptions_monitor').on('event_subscriptions').columns(['monitor_id']).unique().execute();

  // One row per (account, event): the pull feed, in id order.
  await db.schema
    .createTable('account_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('monitor_type', 'text')
    .addColumn('monitor_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('account_events_feed').on('account_events').columns(['account_id', 'id']).execute();
  await db.schema.createIndex('account_events_once').on('account_events').columns(['account_id', 'event_id']).unique().execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    // The name sent in X-Service-Event and `event` (the legacy twin has its own delivery).
    .addColumn('event_name', 'text', (c) => c.notNull())
    .addColumn('monitor_type', 'text')
    .addColumn('monitor_id', 'text')
    // The monitor's own webhook_url; null = the account URL as it is at each attempt.
    .addColumn('url', 'text')
    // The exact bytes sent at every attempt (the signature is over them).
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('next_attempt_at', 'text')
    .addColumn('resent_from', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('delivered_at', 'text')
    .execute();
  await db.schema.createIndex('webhook_deliveries_account').on('webhook_deliveries').columns(['account_id', 'id']).execute();
  await db.schema.createIndex('webhook_deliveries_event').on('webhook_deliveries').columns(['event_id']).execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('delivery_id', 'text', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('url', 'text')
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('latency_ms', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('response_excerpt', 'text')
    .addColumn('next_attempt_at', 'text')
    .execute();
  await db.schema.createIndex('webhook_attempts_delivery').on('webhook_attempts').columns(['delivery_id', 'attempt']).execute();

  await db.schema
    .createTable('case_monitors')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('numero_cnj', 'text', (c) => c.notNull())
    .addColumn('tribunal', 'text', (c) => c.notNull())
    .addColumn('datajud_alias', 'text', (c) => c.notNull())
    .addColumn('webhook_url', 'text')
    .addColumn('frequencia', 'text', (c) => c.notNull())
    // ATIVO → SUSPENSO (renewal not paid) → ATIVO again when re-created; REMOVIDO is final.
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
    .createIndex('case_monitors_live')
    .on('case_monitors')
    .columns(['account_id', 'numero_cnj'])
    .unique()
    .where(sql.ref('status'), '<>', 'REMOVIDO')
    .execute();
  await db.schema.createIndex('case_monitors_due').on('case_monitors').columns(['status', 'proxima_verificacao_em']).execute();
  await db.schema.createIndex('case_monitors_account').on('case_monitors').columns(['account_id', 'id']).execute();

  await db.schema
    .createTable('radars')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('termo', 'text', (c) => c.notNull())
    // NOME, CPF or CNPJ; for documents `termo_normalizado` is the bare document, for names the folded text.
    .addColumn('tipo', 'text', (c) => c.notNull())
    .addColumn('termo_normalizado', 'text', (c) => c.notNull())
    // JSON arrays.
    .addColumn('variacoes', 'text', (c) => c.notNull())
    .addColumn('tribunais', 'text', (c) => c.notNull())
    .addColumn('classes', 'text', (c) => c.notNull())
    .addColumn('termos_obrigatorios', 'text', (c) => c.notNull())
    .addColumn('termos_proibidos', 'text', (c) => c.notNull())
    .addColumn('webhook_url', 'text')
    .addColumn('frequencia', 'text', (c) => c.notNull())
    // ATIVO, SUSPENSO (renewal not paid), DESATIVADO (DELETE: nothing is physically deleted, spec §3.2).
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('preco_centavos', 'integer', (c) => c.notNull())
    .addColumn('resultados_total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ultima_verificacao_em', 'text')
    .addColumn('proxima_verificacao_em', 'text', (c) => c.notNull())
    .addColumn('proxima_cobranca_em', 'text', (c) => c.notNull())
    .addColumn('periodo', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('ultima_sincronizacao_em', 'text')
    .addColumn('ultimo_erro', 'text')
    .addColumn('criado_em', 'text', (c) => c.notNull())
    .addColumn('atualizado_em', 'text', (c) => c.notNull())
    .addColumn('desativado_em', 'text')
    .execute();
  await db.schema.createIndex('radars_due').on('radars').columns(['status', 'proxima_verificacao_em']).execute();
  await db.schema.createIndex('radars_account').on('radars').columns(['account_id', 'id']).execute();

  await db.schema
    .createTable('radar_results')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('radar_id', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('numero_cnj', 'text', (c) => c.notNull())
    .addColumn('tribunal', 'text', (c) => c.notNull())
    .addColumn('classe', 'text')
    .addColumn('data_ajuizamento', 'text')
    // JSON: the parties whose name or document matched.
    .addColumn('correspondencias', 'text', (c) => c.notNull())
    // 1 for the cases that already matched when the radar was created (no event for those).
    .addColumn('linha_de_base', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('encontrado_em', 'text', (c) => c.notNull())
    // YYYY-MM-DD (UTC) of encontrado_em: the "by day" listing.
    .addColumn('dia', 'text', (c) => c.notNull())
    .addColumn('qualificacao', 'text')
    .addColumn('qualificacao_nota', 'text')
    .addColumn('qualificado_em', 'text')
    .addColumn('arquivado', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('arquivado_em', 'text')
    .execute();
  await db.schema.createIndex('radar_results_once').on('radar_results').columns(['radar_id', 'numero_cnj']).unique().execute();
  await db.schema.createIndex('radar_results_day').on('radar_results').columns(['account_id', 'dia', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'radar_results',
    'radars',
    'case_monitors',
    'webhook_attempts',
    'webhook_deliveries',
    'account_events',
    'event_subscriptions',
    'webhook_configs',
  ]) {
    await db.schema.dropTable(t).execute();
  }
  await db.schema.alterTable('domain_events').dropColumn('source').execute();
}
