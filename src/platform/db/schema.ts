/**
 * Row types of every table, for Kysely. Timestamps are ISO-8601 UTC text on both engines (they sort
 * as text and come from the injected clock); JSON columns are text; booleans are 0/1 integers.
 */
import type { Generated } from 'kysely';

export interface AccountsTable {
  id: string;
  name: string;
  plan: string;
  status: 'active' | 'inactive';
  balance_centavos: number;
  /**
   * The number of the account's last ledger row (ledger.seq), advanced with the balance under its row
   * lock. Optional: only the ledger (billing/) writes or reads it; a new account starts at 0.
   */
  ledger_seq?: number;
  sandbox: number;
  created_at: string;
  updated_at: string;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  prefix: string;
  hash: string;
  created_at: string;
  revoked_at: string | null;
  /** Given in the console (migration 0015); null for keys made by the CLI without one. */
  name: string | null;
  /** Noted at most once a minute per process (accounts/store.ts). */
  last_used_at: string | null;
}

export interface LedgerTable {
  id: string;
  account_id: string;
  kind: 'debit' | 'credit';
  delta_centavos: number;
  balance_after_centavos: number;
  operation_id: string | null;
  query_type: string | null;
  search_log_id: string | null;
  note: string | null;
  created_at: string;
  /** The row's place in the account's statement (1, 2, …): the order the balance changed in. */
  seq: number;
}

export interface SearchLogsTable {
  id: string;
  account_id: string;
  request_id: string;
  query_type: string;
  method: string;
  path: string;
  status_code: number;
  charged_centavos: number;
  created_at: string;
}

export interface AsyncRequestsTable {
  id: string;
  account_id: string;
  method: string;
  path: string;
  status: 'running' | 'done';
  response_status: number | null;
  response_headers: string | null;
  response_body: string | null;
  /** 'utf8' for text bodies, 'base64' for binary ones (PDFs, downloads). */
  response_encoding: 'utf8' | 'base64' | null;
  created_at: string;
  completed_at: string | null;
  expires_at: string;
  lease_until: string | null;
}

export interface IdempotencyKeysTable {
  account_id: string;
  key: string;
  fingerprint: string;
  /** 'charged': a handler's transaction charged, its answer not stored yet (http/idempotency.ts). */
  status: 'running' | 'charged' | 'done';
  response_status: number | null;
  response_headers: string | null;
  response_body: string | null;
  /** 'utf8' for text bodies, 'base64' for binary ones (PDFs, downloads). */
  response_encoding: 'utf8' | 'base64' | null;
  created_at: string;
  expires_at: string;
}

export interface JobsTable {
  id: string;
  kind: string;
  payload: string;
  status: 'pending' | 'running' | 'done' | 'failed';
  run_at: string;
  attempts: Generated<number>;
  max_attempts: number;
  locked_by: string | null;
  locked_until: string | null;
  dedupe_key: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface CasesTable {
  numero_cnj: string;
  tribunal: string;
  fonte: string;
  sandbox: number;
  classe_nome: string | null;
  data_ajuizamento: string | null;
  atualizado_em: string | null;
  instancias: string;
  valor_causa_centavos: number | null;
  detalhes_em: string | null;
  documentos_em: string | null;
  movimentos_total: number;
  consultado_em: string;
  criado_em: string;
  /** JSON of the court's consultation cover (ports CaseConsultaRecord without movements); null when none answered. */
  consulta: string | null;
  /** The source that gave the parties and lawyers (`DJEN`, `e-SAJ TJSP`, the provider's name); null before it was kept. */
  partes_fonte: string | null;
}

export interface CaseMovementsTable {
  numero_cnj: string;
  key: string;
  grau: string;
  codigo: string;
  nome: string;
  data_hora: string;
  complementos: string;
  orgao_julgador: string | null;
  /** The movement's text on the court's consultation page; null when no page gave one. */
  texto: string | null;
}

export interface CasePartiesTable {
  id: string;
  numero_cnj: string;
  posicao: number;
  polo: string;
  tipo: string;
  nome: string;
  tipo_pessoa: string;
  documento: string | null;
  /** The instance whose page listed the party (`G1`, `G2`, `TR`) where parties come from more than one degree; else null. */
  grau: string | null;
}

export interface CaseLawyersTable {
  party_id: string;
  numero_cnj: string;
  posicao: number;
  nome: string;
  oab_uf: string | null;
  oab_numero: string | null;
}

export interface CaseDocumentsTable {
  numero_cnj: string;
  documento_id: string;
  titulo: string;
  tipo: string;
  data_juntada: string;
  mime_type: string;
  tamanho_bytes: number;
  /** Who lists it (issue 53): a court's consultation (`consulta-tjma`); null: the provider. */
  fonte: string | null;
  /** `provedor`, `visualizador` (a court's HTML viewer), `arquivo` (a file a court stores). */
  origem: string;
  /** Why the court does not open it to the public; null when public. */
  restricao: string | null;
}

/** A court's public document once read (issue 53): kept so a second download asks no court. */
export interface CaseDocumentFilesTable {
  numero_cnj: string;
  documento_id: string;
  /** `html` (the viewer's document) or `arquivo` (a file the court stores). */
  formato: string;
  html: string | null;
  texto: string | null;
  titulo: string | null;
  assinante: string | null;
  assinado_em: string | null;
  id_documento: string | null;
  codigo_validacao: string | null;
  /** The court's own PDF ("Gerar PDF"), base64; null when it gave none. */
  pdf_base64: string | null;
  /** A stored file's bytes, base64. */
  arquivo_base64: string | null;
  mime_type: string | null;
  nome: string | null;
  /** What the row holds, in bytes (texts and decoded files): the store's bound counts it. */
  tamanho_bytes: number;
  armazenado_em: string;
  usado_em: string;
}

export type RefreshStatus = 'PENDENTE' | 'PROCESSANDO' | 'CONCLUIDA' | 'ERRO';

export interface CaseRefreshesTable {
  id: string;
  account_id: string;
  numero_cnj: string;
  status: RefreshStatus;
  request_id: string;
  preco_centavos: number;
  novas_movimentacoes: number | null;
  erro_codigo: string | null;
  erro_mensagem: string | null;
  solicitado_em: string;
  iniciado_em: string | null;
  concluido_em: string | null;
}

export interface DomainEventsTable {
  id: string;
  kind: string;
  numero_cnj: string | null;
  tribunal: string | null;
  account_id: string | null;
  data: string;
  source: string;
  created_at: string;
}

export type PayloadFormat = 'NORMALIZED' | 'RAW' | 'BOTH';

export interface WebhookConfigsTable {
  account_id: string;
  url: string | null;
  token_sealed: string | null;
  secret_sealed: string;
  secret_prefix: string;
  formato: PayloadFormat;
  ativo: number;
  eventos: string | null;
  nomes_legados: number;
  feed_cursor: string | null;
  created_at: string;
  updated_at: string;
}

export interface EventSubscriptionsTable {
  id: string;
  account_id: string;
  topic: string;
  monitor_type: string;
  monitor_id: string;
  kinds: string;
  webhook_url: string | null;
  created_at: string;
}

export interface AccountEventsTable {
  id: string;
  account_id: string;
  event_id: string;
  kind: string;
  monitor_type: string | null;
  monitor_id: string | null;
  created_at: string;
}

/** RETIDA: kept, not attempted, while its endpoint is disabled (migration 0031); re-enabling resends or discards it. */
export type DeliveryStatus = 'PENDENTE' | 'ENTREGUE' | 'FALHOU' | 'DESCARTADA' | 'RETIDA';

export interface WebhookDeliveriesTable {
  id: string;
  account_id: string;
  event_id: string;
  event_name: string;
  monitor_type: string | null;
  monitor_id: string | null;
  url: string | null;
  body: string;
  status: DeliveryStatus;
  attempts: number;
  max_attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  resent_from: string | null;
  created_at: string;
  updated_at: string;
  delivered_at: string | null;
}

/** An endpoint whose last attempt failed, and whether it was disabled for failing too long (migration 0031). */
export interface WebhookEndpointsTable {
  account_id: string;
  url: string;
  failing_since: string;
  last_failure_at: string;
  last_error: string | null;
  disabled_at: string | null;
}

export interface WebhookHeldDeliveriesTable {
  delivery_id: string;
  account_id: string;
  url: string;
  held_at: string;
}

export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  attempt: number;
  url: string | null;
  started_at: string;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  response_excerpt: string | null;
  next_attempt_at: string | null;
}

export type MonitorFrequency = 'HORARIA' | 'DIARIA' | 'SEMANAL' | 'MENSAL';

export interface CaseMonitorsTable {
  id: string;
  account_id: string;
  numero_cnj: string;
  tribunal: string;
  datajud_alias: string;
  webhook_url: string | null;
  frequencia: MonitorFrequency;
  status: 'ATIVO' | 'SUSPENSO' | 'REMOVIDO';
  situacao: 'PENDENTE' | 'ENCONTRADO' | 'NAO_ENCONTRADO';
  preco_centavos: number;
  verificacoes: number;
  novidades: number;
  ultima_verificacao_em: string | null;
  proxima_verificacao_em: string;
  proxima_cobranca_em: string;
  periodo: number;
  ultimo_erro: string | null;
  criado_em: string;
  atualizado_em: string;
  removido_em: string | null;
  /** When the case's court page is next read (migration 0025); '' = first in line. */
  proxima_pagina_em: string;
  /** When the case's number is next asked of DJEN (migration 0027; publications/case-polling.ts). */
  proxima_diario_em: string;
}

/** Administrative processes read from Protocolo Integrado (migration 0011). */
export interface AdministrativeProcessesTable {
  nup: string;
  unidade: string;
  tipo: string | null;
  assunto: string | null;
  /** JSON array of names. */
  interessados: string;
  orgao_origem: string | null;
  data_autuacao: string | null;
  /** JSON array of ports/administrative.ts AdministrativeMovement, oldest first. */
  tramitacoes: string;
  tramitacoes_total: number;
  fonte: string;
  coletado_em: string;
  criado_em: string;
}

/** Monitors of administrative processes by NUP: the columns of case monitors, keyed by NUP. */
export interface AdministrativeMonitorsTable
  extends Omit<CaseMonitorsTable, 'numero_cnj' | 'tribunal' | 'datajud_alias' | 'proxima_pagina_em' | 'proxima_diario_em'> {
  nup: string;
}

export interface RadarsTable {
  id: string;
  account_id: string;
  termo: string;
  tipo: 'NOME' | 'CPF' | 'CNPJ';
  termo_normalizado: string;
  variacoes: string;
  tribunais: string;
  classes: string;
  termos_obrigatorios: string;
  termos_proibidos: string;
  webhook_url: string | null;
  frequencia: MonitorFrequency;
  status: 'ATIVO' | 'SUSPENSO' | 'DESATIVADO';
  preco_centavos: number;
  resultados_total: number;
  ultima_verificacao_em: string | null;
  proxima_verificacao_em: string;
  proxima_cobranca_em: string;
  periodo: number;
  ultima_sincronizacao_em: string | null;
  ultimo_erro: string | null;
  criado_em: string;
  atualizado_em: string;
  desativado_em: string | null;
}

export interface RadarResultsTable {
  id: string;
  radar_id: string;
  account_id: string;
  numero_cnj: string;
  tribunal: string;
  classe: string | null;
  data_ajuizamento: string | null;
  correspondencias: string;
  linha_de_base: number;
  encontrado_em: string;
  dia: string;
  qualificacao: string | null;
  qualificacao_nota: string | null;
  qualificado_em: string | null;
  arquivado: number;
  arquivado_em: string | null;
}

/** FTS5 virtual table on SQLite; a table with a tsvector column (`vetor`) on PostgreSQL. */
export interface CaseSearchTable {
  numero_cnj: string;
  texto: string;
}

export interface PublicationsTable {
  id: string;
  hash: string | null;
  fonte: string;
  sandbox: number;
  tribunal: string;
  /** yyyy-mm-dd */
  data_disponibilizacao: string;
  tipo_comunicacao: string;
  tipo_documento: string | null;
  /** JSON {id, nome} | null */
  orgao: string | null;
  /** JSON {codigo, nome} | null */
  classe: string | null;
  meio: string;
  numero_comunicacao: string | null;
  numero_cnj: string | null;
  /** As the source sent it (DJEN's and the STF's HTML). */
  texto: string;
  /** `texto` as plain text (htmlToText), cleaned at ingest; null on rows ingested before migration 0022. */
  texto_limpo: string | null;
  link: string | null;
  ativo: number;
  /** JSON {data, motivo} | null */
  cancelamento: string | null;
  destinatarios: string;
  advogados: string;
  raw: string;
  ingerido_em: string;
}

export interface PublicationLawyersTable {
  /** Canonical, e.g. SP123456 */
  oab: string;
  data_disponibilizacao: string;
  publicacao_id: string;
  numero_cnj: string | null;
  tribunal: string;
  nome: string;
}

export interface PublicationSearchTable {
  publicacao_id: string;
  texto: string;
}

export type ConsolidationStatus = 'PENDENTE' | 'EM_ANDAMENTO' | 'CONCLUIDA' | 'ERRO';

export interface OabHistoriesTable {
  oab: string;
  recente_em: string | null;
  consolidacao: ConsolidationStatus;
  consolidado_em: string | null;
  paginas: number;
  ultimo_erro: string | null;
  criado_em: string;
  atualizado_em: string;
}

export interface PublicationSyncsTable {
  chave: string;
  sincronizado_em: string;
}

export type PublicationMonitorOrigin = 'INTIMACOES' | 'PUBLICACOES';
export type PublicationMonitorType = 'OAB' | 'TERMO' | 'PROCESSO';

export interface PublicationMonitorsTable {
  id: string;
  account_id: string;
  origem: PublicationMonitorOrigin;
  tipo: PublicationMonitorType;
  valor: string;
  termo: string;
  tribunais: string | null;
  /** JSON array of DJEN, STF, TSE, TRE-<UF>; null: every source (0008). */
  fontes: string | null;
  webhook_url: string | null;
  status: 'ATIVO' | 'SUSPENSO' | 'REMOVIDO';
  preco_centavos: number;
  periodo: number;
  proxima_cobranca_em: string;
  desde: string;
  publicacoes: number;
  ultima_verificacao_em: string | null;
  proxima_verificacao_em: string;
  ultimo_erro: string | null;
  criado_em: string;
  atualizado_em: string;
  removido_em: string | null;
}

export interface PublicationMatchesTable {
  /** A publication monitor's id, or a case monitor's (`origem` PROCESSOS, issue 43 item 3). */
  monitor_id: string;
  publicacao_id: string;
  account_id: string;
  origem: PublicationMonitorOrigin | 'PROCESSOS';
  data_disponibilizacao: string;
  evento_id: string | null;
  criado_em: string;
}

export type OabSearchStatus = 'PENDENTE' | 'PROCESSANDO' | 'SUCESSO' | 'ERRO';

export interface OabSearchesTable {
  id: Generated<number>;
  account_id: string;
  tribunal: string;
  oab: string;
  permitir_parcial: number;
  enviar_callback: number;
  status: OabSearchStatus;
  paginas: number;
  publicacoes: number;
  parcial: number;
  resultado: string | null;
  preco_centavos: number;
  request_id: string;
  erro_codigo: string | null;
  erro_mensagem: string | null;
  criado_em: string;
  iniciado_em: string | null;
  concluido_em: string | null;
}

export type SummaryStatus = 'PENDENTE' | 'PROCESSANDO' | 'FINALIZADO' | 'ERRO';
export type SummaryStage = 'na_fila' | 'atualizando_processo' | 'escrevendo' | 'concluido';

export interface CaseSummariesTable {
  /** The execution's `providerRequestId` (`res_…`). */
  id: string;
  account_id: string;
  numero_cnj: string;
  status: SummaryStatus;
  etapa: SummaryStage;
  enviar_callback: number;
  request_id: string;
  preco_centavos: number;
  refresh_id: string | null;
  /** `extrativo-v1` (the offline writer) or `modelo` (a chat-completions model). */
  metodo: string | null;
  modelo: string | null;
  conteudo: string | null;
  /** sha256 of the case facts the text was written from. */
  entrada_hash: string | null;
  aviso: string | null;
  tokens_entrada: number | null;
  tokens_saida: number | null;
  erro_codigo: string | null;
  erro_mensagem: string | null;
  criado_em: string;
  iniciado_em: string | null;
  concluido_em: string | null;
}

/** A gazette day read whole (0008): `fonte` is STF, TSE or TRE-<UF>. */
export interface GazetteDaysTable {
  fonte: string;
  dia: string;
  publicacoes: number;
  edicoes: number;
  ingerido_em: string;
  /** STF (0019): `/ultimo-dje` at the read, when some item had no publication day yet; read again once it moves past this. */
  aguardando_edicao: string | null;
}

/** An electoral edition (0008), id `<tribunal>:<número>`. */
export interface GazetteEditionsTable {
  id: string;
  tribunal: string;
  numero: number;
  data: string;
  extra: number;
  publicacoes: number;
  sandbox: number;
  raw: string;
  ingerido_em: string;
}

/** A precatório or RPV record (0009): never a creditor's CPF/CNPJ in clear, only `credor_hash`. */
export interface PrecatoriosTable {
  id: string;
  fonte: string;
  tribunal: string;
  numero: string;
  numero_processo: string | null;
  ente_devedor: string | null;
  ente_busca: string | null;
  natureza: string | null;
  ano_orcamento: number | null;
  ordem: number | null;
  situacao: string | null;
  valor_centavos: number | null;
  credor_hash: string | null;
  fonte_url: string | null;
  importacao_id: string | null;
  coletado_em: string;
  ordenacao: string;
  /** TPU class name (DataJud harvest, 0010); null for imported lists. */
  classe: string | null;
}

/** How far the DataJud precatório harvest read each court (0010). */
export interface PrecatorioHarvestsTable {
  tribunal: string;
  desde: string;
  registros: number;
  atualizado_em: string;
}

export interface PrecatorioImportsTable {
  id: string;
  arquivo: string;
  tribunal: string;
  fonte_url: string | null;
  linhas: number;
  aceitas: number;
  rejeitadas: number;
  iniciado_em: string;
  concluido_em: string | null;
}

export interface RateLimitCountersTable {
  bucket: string;
  window_start: number;
  count: number;
}

/** A search's fan-out to the courts, kept a while for its later pages (migration 0024). */
/** Each upstream's health, shared across processes (migration 0026, issue 51). */
export interface SourceHealthTable {
  fonte: string;
  estado: string;
  falhas_seguidas: number;
  ultima_falha: string | null;
  mudou_em: string;
  proxima_sonda_em: string | null;
}

export interface CourtSearchesTable {
  /** SHA-256 of the normalized query. */
  chave: string;
  /** JSON of court-search.ts's CourtSearch. */
  resultado: string;
  feita_em: string;
}

/** One row per (folded party name, case): the B-tree a name search seeks (migration 0014). */
export interface CasePartyNamesTable {
  nome: string;
  numero_cnj: string;
}

export interface ConsoleUsersTable {
  id: string;
  account_id: string;
  email: string;
  password_hash: string | null;
  failed_signins: number;
  locked_until: string | null;
  last_signin_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface ConsoleInvitesTable {
  token_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface ConsoleSessionsTable {
  token_hash: string;
  user_id: string;
  csrf_token: string;
  ip: string | null;
  user_agent: string | null;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}

export interface AuditLogTable {
  id: string;
  account_id: string;
  user_id: string | null;
  /** Who, as a person reads it: the user's e-mail, or `cli`. */
  actor: string;
  action: string;
  target: string | null;
  /** JSON, never a secret. */
  details: string | null;
  ip: string | null;
  user_agent: string | null;
  created_at: string;
}

export interface DB {
  console_users: ConsoleUsersTable;
  console_invites: ConsoleInvitesTable;
  console_sessions: ConsoleSessionsTable;
  audit_log: AuditLogTable;
  case_party_names: CasePartyNamesTable;
  rate_limit_counters: RateLimitCountersTable;
  court_searches: CourtSearchesTable;
  source_health: SourceHealthTable;
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  ledger: LedgerTable;
  search_logs: SearchLogsTable;
  async_requests: AsyncRequestsTable;
  idempotency_keys: IdempotencyKeysTable;
  jobs: JobsTable;
  cases: CasesTable;
  case_movements: CaseMovementsTable;
  case_parties: CasePartiesTable;
  case_lawyers: CaseLawyersTable;
  case_documents: CaseDocumentsTable;
  case_document_files: CaseDocumentFilesTable;
  case_refreshes: CaseRefreshesTable;
  domain_events: DomainEventsTable;
  case_search: CaseSearchTable;
  webhook_configs: WebhookConfigsTable;
  event_subscriptions: EventSubscriptionsTable;
  account_events: AccountEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_held_deliveries: WebhookHeldDeliveriesTable;
  case_monitors: CaseMonitorsTable;
  administrative_processes: AdministrativeProcessesTable;
  administrative_monitors: AdministrativeMonitorsTable;
  radars: RadarsTable;
  radar_results: RadarResultsTable;
  publications: PublicationsTable;
  publication_lawyers: PublicationLawyersTable;
  publication_search: PublicationSearchTable;
  oab_histories: OabHistoriesTable;
  publication_syncs: PublicationSyncsTable;
  publication_monitors: PublicationMonitorsTable;
  publication_matches: PublicationMatchesTable;
  oab_searches: OabSearchesTable;
  case_summaries: CaseSummariesTable;
  gazette_days: GazetteDaysTable;
  gazette_editions: GazetteEditionsTable;
  precatorios: PrecatoriosTable;
  precatorio_imports: PrecatorioImportsTable;
  precatorio_harvests: PrecatorioHarvestsTable;
}
