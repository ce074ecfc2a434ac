/**
 * What an operator graphs about the work behind the requests (issue 19, item 2): jobs, webhook
 * deliveries, upstream requests and their budgets, credits charged, monitors. One process-wide
 * registry, like Prometheus' own default (connectors, workers and the ledger live once per process);
 * `/metrics` serves it with the app's HTTP series. Every label is bounded: job kinds, source names,
 * query types, monitor kinds, outcomes; never an id, a URL or an account. Names and labels are listed
 * in docs/ops/metrics.md; docs/ops/ has a Grafana dashboard and Prometheus alerts that use them.
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

const registry = new Registry();
const registers = [registry];

/** Seconds buckets for things that wait on other servers (upstreams, webhook receivers). */
const REMOTE_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 40, 60];

export const telemetry = {
  registry,

  jobRuns: new Counter({
    name: 'tramita_job_runs_total',
    help:
      'Job runs by kind and outcome: done (the handler returned; a delivery reports its own outcome in tramita_webhook_deliveries_total), retry (threw, ' +
      'due again), failed (threw on its last attempt), exhausted (every attempt interrupted).',
    labelNames: ['kind', 'outcome'] as const,
    registers,
  }),
  jobLeaseRenewalFailures: new Counter({
    name: 'tramita_job_lease_renewal_failures_total',
    help:
      "A worker's lease renewals that failed (the database did not answer): its running jobs keep their leases until these lapse, then another " +
      'worker may take them while they still run here.',
    registers,
  }),
  jobDuration: new Histogram({
    name: 'tramita_job_duration_seconds',
    help: 'Time one job run took, by kind.',
    labelNames: ['kind'] as const,
    buckets: [0.01, 0.05, 0.25, 1, 5, 30, 120, 600],
    registers,
  }),
  /** Set at each scrape from the jobs table (operations/metrics-snapshot.ts). */
  jobs: new Gauge({
    name: 'tramita_jobs',
    help: 'Jobs in the queue by kind and state: queued (due or not), running (leased), failed (kept for inspection).',
    labelNames: ['kind', 'state'] as const,
    registers,
  }),
  /** Set at each scrape from case_document_files (operations/snapshot.ts): the courts' documents kept once read (issue 53). */
  storedDocumentBytes: new Gauge({
    name: 'tramita_documentos_armazenados_bytes',
    help: "Bytes held by the store of the courts' public documents once read (bounded by TRAMITA_DOCUMENT_STORE_MAX_MB; the least recently used are evicted).",
    registers,
  }),
  storedDocuments: new Gauge({
    name: 'tramita_documentos_armazenados',
    help: "Courts' public documents held by the store once read (issue 53).",
    registers,
  }),
  jobLag: new Gauge({
    name: 'tramita_job_lag_seconds',
    help: 'How long the oldest due, unclaimed job of each kind has waited past its time.',
    labelNames: ['kind'] as const,
    registers,
  }),

  deliveries: new Counter({
    name: 'tramita_webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome (delivered, failed: retried later, gave_up: the last attempt failed) and attempt number.',
    labelNames: ['outcome', 'attempt'] as const,
    registers,
  }),
  deliveryDuration: new Histogram({
    name: 'tramita_webhook_delivery_duration_seconds',
    help: 'Time a receiver took to answer one attempt, by outcome.',
    labelNames: ['outcome'] as const,
    buckets: REMOTE_BUCKETS,
    registers,
  }),
  endpointsDisabled: new Counter({
    name: 'tramita_webhook_endpoints_disabled_total',
    help: 'Webhook endpoints disabled for failing every delivery through TRAMITA_WEBHOOK_DISABLE_AFTER_HOURS.',
    registers,
  }),
  oldestPendingDelivery: new Gauge({
    name: 'tramita_webhook_oldest_pending_seconds',
    help: 'Age of the oldest delivery still PENDENTE (0 when none).',
    registers,
  }),

  upstreamRequests: new Counter({
    name: 'tramita_upstream_requests_total',
    help:
      'Requests to upstream sources by source and outcome: ok, client_error (4xx), rate_limited (429), server_error (5xx), timeout, network, aborted ' +
      '(the caller gave up: not a failure of the source).',
    labelNames: ['source', 'outcome'] as const,
    registers,
  }),
  upstreamBodiesRefused: new Counter({
    name: 'tramita_upstream_bodies_refused_total',
    help:
      'Upstream answers refused while reading their body (sources/http/body.ts), by source and failure: too_large (over TRAMITA_UPSTREAM_MAX_BYTES), ' +
      'malformed (invalid encoding, absurd nesting, not JSON), timeout (silent past TRAMITA_UPSTREAM_IDLE_TIMEOUT_MS), ' +
      'unzipped_too_large (a DJEN caderno ZIP whose pages together unzip past their limit, djen/caderno.ts). The request ' +
      'itself counts as ok in tramita_upstream_requests_total: its headers arrived.',
    labelNames: ['source', 'failure'] as const,
    registers,
  }),
  upstreamDuration: new Histogram({
    name: 'tramita_upstream_request_duration_seconds',
    help: "Time to an upstream's response headers, by source.",
    labelNames: ['source'] as const,
    buckets: REMOTE_BUCKETS,
    registers,
  }),
  upstreamHealth: new Gauge({
    name: 'tramita_upstream_health',
    help:
      "Each upstream's health as this process last saw or adopted it (issue 51): 0 healthy, 1 degraded (failures or timeouts in a row), 2 failing " +
      '(skipped by request paths, probed in the background until it answers).',
    labelNames: ['source'] as const,
    registers,
  }),
  upstreamProbes: new Counter({
    name: 'tramita_upstream_probes_total',
    help: 'Background probes of failing upstreams, by source (one per probe period across the deployment).',
    labelNames: ['source'] as const,
    registers,
  }),
  budgetRemaining: new Gauge({
    name: 'tramita_upstream_budget_remaining',
    help: "Requests left in the current minute of each source's budget in this process.",
    labelNames: ['source'] as const,
    registers,
  }),
  consultaAnomalies: new Counter({
    name: 'tramita_consulta_anomalias_total',
    help:
      "Lines of a court's consultation page read only in part (issue 44), by court, system and field: the line kept what it could (a party with no " +
      'role, a lawyer with no OAB, a movement with no time), the case was answered; `partes.secao` a parties section that read as no party, ' +
      '`lista.contagem` fewer rows than the page counts with no pager (answered `limitado`), `mensagem.desconhecida` a court message not known ' +
      '(issue 52). A rise on one court is that court changing its pages.',
    labelNames: ['tribunal', 'sistema', 'campo'] as const,
    registers,
  }),
  consultaFailures: new Counter({
    name: 'tramita_consulta_falhas_total',
    help:
      'Consultations of a court that failed, by court, system, step (search form, search, detail page…) and failure (malformed: the page is not one ' +
      'of its system; captcha, anti_bot, login, timeout, unavailable, rate_limited; refused: the court declined the search, e.g. too many hits).',
    labelNames: ['tribunal', 'sistema', 'etapa', 'falha'] as const,
    registers,
  }),
  consultaSuccesses: new Counter({
    name: 'tramita_consulta_sucessos_total',
    help: "Consultations of a court whose page was read (a case, a not-found or a search answer), by court and system: the denominator of the failures'.",
    labelNames: ['tribunal', 'sistema'] as const,
    registers,
  }),
  budgetWaits: new Counter({
    name: 'tramita_upstream_budget_waits_total',
    help: "Requests that had to wait because the source's per-minute budget was spent.",
    labelNames: ['source'] as const,
    registers,
  }),

  backgroundFailures: new Counter({
    name: 'tramita_background_failures_total',
    help:
      'Small reads and writes done beside a request and not awaited by it that failed, by task ' +
      "(key_last_use: the console's last use of an API key; key_refresh: the cached API keys in use read again before they expire).",
    labelNames: ['task'] as const,
    registers,
  }),
  storageFailures: new Counter({
    name: 'tramita_storage_failures_total',
    help:
      'Failures of the database itself (PostgreSQL restarting or unreachable, SQLite busy, full or failing I/O), by engine and where they were met: ' +
      'request (answered 503 STORAGE_UNAVAILABLE), idle_connection (PostgreSQL closed a pooled connection), ' +
      'job_claim, job_settle, schedule, background, prepared_statements (a pooler lost a named statement: they are sent unnamed from then on).',
    labelNames: ['engine', 'where'] as const,
    registers,
  }),
  charges: new Counter({ name: 'tramita_charges_total', help: 'Debits written, by query type.', labelNames: ['query_type'] as const, registers }),
  chargedCentavos: new Counter({
    name: 'tramita_credits_charged_centavos_total',
    help: 'Centavos debited, by query type.',
    labelNames: ['query_type'] as const,
    registers,
  }),

  coverDetails: new Counter({
    name: 'tramita_cover_details_total',
    help:
      'Case lookups that went upstream, by what happened to the case-details sources asked beside DataJud (issue 43): with_cover (the parties came with the ' +
      "first answer), failed (a details source failed: DataJud's fields were answered and the enrichment job goes on), deadline (still out " +
      'TRAMITA_AUXILIARY_DEADLINE_MS after DataJud answered: the same, issue 51), deferred (`Prefer: return=minimal`).',
    labelNames: ['outcome'] as const,
    registers,
  }),
  monitorsActive: new Gauge({
    name: 'tramita_monitors_active',
    help: 'Active monitors and radars by kind (set at each scrape).',
    labelNames: ['kind'] as const,
    registers,
  }),
  monitorChecks: new Counter({
    name: 'tramita_monitor_checks_total',
    help: 'Monitor and radar checks by kind and outcome (ok, failed).',
    labelNames: ['kind', 'outcome'] as const,
    registers,
  }),
  djenCaseNumbersDue: new Gauge({
    name: 'tramita_djen_case_numbers_due',
    help:
      "Monitored case numbers whose DJEN ask was due and not made by the publication cycle's last run (issue 51): above 0 for long, case " +
      'monitors hear DJEN later than their frequency (see tramita_djen_case_asks_per_period).',
    registers,
  }),
  djenCaseAsksPerPeriod: new Gauge({
    name: 'tramita_djen_case_asks_per_period',
    help:
      'DJEN asks by number in one TRAMITA_MONITOR_INTERVAL_MS (issue 51), measured once a period: needed (each monitored number once per the shortest ' +
      'period among its monitors, courts with cadernos apart) and budget (what half of DJEN_REQUESTS_PER_MINUTE asks). needed above budget: ' +
      'case monitors hear DJEN late; ingest the cadernos (TRAMITA_DJEN_CADERNOS).',
    labelNames: ['kind'] as const,
    registers,
  }),
  auxiliaryFailures: new Counter({
    name: 'tramita_auxiliary_failures_total',
    help:
      'Failures of an auxiliary source beside main work that was kept (DESIGN.md §5): a refresh or a monitor check stored and announced ' +
      "DataJud's movements while the parties' sources (DJEN, a court's consultation, the provider) failed; retried by a job of its own. By source, " +
      "step (partes: parties, lawyers and value; diario: a monitored case's DJEN communications) and failure (geoblocked, unavailable, timeout, …).",
    labelNames: ['source', 'step', 'failure'] as const,
    registers,
  }),
  renewals: new Counter({
    name: 'tramita_monitor_renewals_total',
    help: 'Monthly renewals of paid monitors by kind and outcome: charged, suspended (no credits), failed (tried again next cycle).',
    labelNames: ['kind', 'outcome'] as const,
    registers,
  }),
};

/** Counts one upstream request's outcome; the HTTP status decides, an error's kind otherwise. */
export function upstreamOutcome(status: number | undefined, errorName?: string): string {
  if (status === undefined) {
    if (errorName === 'AbortError') return 'aborted';
    return /timeout/i.test(errorName ?? '') ? 'timeout' : 'network';
  }
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'server_error';
  if (status >= 400) return 'client_error';
  return 'ok';
}

/** Children per query type, kept: a debit is on the hot path, and prom-client hashes labels on every call. */
const debitSeries = new Map<string, { count: { inc(): void }; centavos: { inc(n: number): void } }>();

/** One debit written (the ledger's two write paths call this). */
export function countDebit(queryType: string, centavos: number): void {
  let s = debitSeries.get(queryType);
  if (!s) {
    s = { count: telemetry.charges.labels(queryType), centavos: telemetry.chargedCentavos.labels(queryType) };
    debitSeries.set(queryType, s);
  }
  s.count.inc();
  s.centavos.inc(centavos);
}
