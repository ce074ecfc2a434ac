/**
 * Every setting Tramita reads, with its default and meaning, in one place.
 * `docs/configuration.md` is generated from SETTINGS (`npm run docs`), and a test keeps the two equal.
 * Environment variables are read only here; the rest of the code receives a Config.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
// The ground floor: only leaf modules, each a layer's vocabulary that a setting parses (test/architecture.test.ts).
import { ConfigError } from './config-error.ts';
import { brlToCentavos } from './platform/billing/brl.ts';
import { describeRateLimits, parseRateLimits, type RateLimit, type RouteClass } from './platform/http/route-classes.ts';
import { trustProxy, type ProxyTrust } from './platform/http/proxy-trust.ts';
import { isUf } from './platform/identifiers/uf.ts';
import {
  DEFAULT_UPSTREAM_IDLE_TIMEOUT_MS,
  DEFAULT_UPSTREAM_MAX_BYTES,
  formatSize,
  parseUpstreamMaxBytes,
  UPSTREAM_BODY_SOURCES,
  type UpstreamBodySource,
} from './sources/http/body-limits.ts';
import { PUBLIC_DATAJUD_KEY } from './sources/datajud/public-key.ts';

export { ConfigError };

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface Config {
  host: string;
  port: number;
  publicUrl: string | undefined;
  /** Proxies whose X-Forwarded-* headers are believed: none, the nearest N hops, or these addresses (trustProxy). */
  trustProxy: ProxyTrust;
  dataDir: string;
  databaseUrl: string | undefined;
  /** PostgreSQL: longest wait for a connection (a new one, or a free one of the pool) before a request answers 503. */
  dbConnectTimeoutMs: number;
  /** PostgreSQL: the hot path's statements sent as named statements (off by itself behind a pooler, db/pg-named.ts). */
  pgPreparedStatements: boolean;
  logLevel: string;
  logFormat: 'auto' | 'json' | 'pretty';
  bodyLimitBytes: number;
  syncWindowMs: number;
  syncWindowMarginMs: number;
  /** How long a caller waits for an auxiliary source past the main source's answer (issue 51). */
  auxiliaryDeadlineMs: number;
  /** Failures or timeouts in a row after which a source is failing. */
  sourceFailingAfter: number;
  /** How often a failing source is asked again (jittered), by the prober or one request path. */
  sourceProbeMs: number;
  pollAfterMs: number;
  requestRetentionHours: number;
  idempotencyTtlHours: number;
  pricesFile: string;
  rateLimits: Record<RouteClass, RateLimit>;
  rateLimitSyncMs: number;
  /** Active API keys one account may hold at once (TRAMITA_MAX_API_KEYS). */
  maxActiveApiKeys: number;
  workers: 'auto' | 'in-process' | 'off';
  workerConcurrency: number;
  workerMetricsPort: number | undefined;
  jobLeaseMs: number;
  jobPollMs: number;
  sandboxCreditsCentavos: number;
  datajudUrl: string | undefined;
  datajudApiKey: string;
  datajudTimeoutMs: number;
  datajudRequestsPerMinute: number;
  datajudBatchSize: number;
  portalUrl: string | undefined;
  portalCourts: 'all' | string[];
  portalName: string;
  /** Courts whose public consultation is read (issue 31): every known-open one, none, or these siglas. */
  consultas: 'all' | 'none' | string[];
  /** TRAMITA_CONSULTA_<SIGLA>_URL: a court's first-degree base URL, replacing the default. */
  consultaUrls: Record<string, string>;
  consultaRequestsPerMinute: number;
  /** Minutes a search's fan-out to the courts serves its later pages (issue 43 item 7). */
  courtSearchKeepMinutes: number;
  consultaTimeoutMs: number;
  /** The operator's contact, in the consultations' User-Agent. */
  consultaContact: string;
  /** Who writes AI summaries: a chat-completions model, the offline writer, or auto (issue 15). */
  webhookProduct: string;
  summaryProvider: 'auto' | 'modelo' | 'extrativo';
  summaryUrl: string | undefined;
  summaryApiKey: string;
  summaryModel: string;
  summaryTimeoutMs: number;
  summaryMaxInputTokens: number;
  summaryMaxOutputTokens: number;
  djenUrl: string | undefined;
  djenTimeoutMs: number;
  djenRequestsPerMinute: number;
  /** DJEN siglas upper-cased, or ['all']. */
  djenCadernos: string[];
  stfUrl: string | undefined;
  stfCaFile: string | undefined;
  djeUrl: string | undefined;
  gazetteRequestsPerMinute: number;
  /** STF, TSE, TRE-<UF> upper-cased, or ['all'], or [] (no ingest). */
  gazetteCourts: string[];
  gazetteBackfillDays: number;
  muralProviderUrl: string | undefined;
  muralProviderToken: string;
  /** Court siglas upper-cased, or ['all'], or ['NONE']. */
  precatoriosDatajud: string[];
  warrantsProviderUrl: string | undefined;
  warrantsProviderToken: string;
  warrantsProviderProtocol: 'tramita' | 'predictus';
  caseFreshMinutes: number;
  /** Bytes the store of court documents read once (issue 53) may hold; past it, the least recently used are evicted. */
  documentStoreMaxBytes: number;
  protocoloUrl: string | undefined;
  tjrjPrecatoriosUrl: string | undefined;
  precatoriosTjrj: boolean;
  protocoloRequestsPerMinute: number;
  administrativeFreshMinutes: number;
  /** JSON file of the covered administrative bodies (GET /v1/orgaos-administrativos). */
  bodiesFile: string;
  sandbox: 'auto' | 'on' | 'off';
  sandboxCases: number;
  sandboxSeed: number;
  sandboxPort: number;
  sandboxLatencyMs: number;
  secretKey: string | undefined;
  webhookAllowPrivate: boolean;
  webhookTimeoutMs: number;
  webhookMaxAttempts: number;
  /** Hours of continuous failure after which a webhook endpoint is disabled; 0 never (platform/webhooks/endpoint-health.ts). */
  webhookDisableAfterHours: number;
  /** Development only: webhook retry delays are divided by this (1 in production). */
  devTimeScale: number;
  /** Crash drill only: the process kills itself right after a charge commits, before answering. */
  devCrashAfterCharge: boolean;
  webhookConcurrency: number;
  monitorIntervalMs: number;
  feedSettleMs: number | undefined;
  /** Largest body read from each upstream (sources/http/body.ts). */
  upstreamMaxBytes: Record<UpstreamBodySource, number>;
  upstreamIdleTimeoutMs: number;
}

export type Env = Record<string, string | undefined>;

interface Setting<K extends keyof Config> {
  env: string;
  key: K;
  default: string;
  doc: string;
  parse: (raw: string, env: Env) => Config[K];
}

function int(name: string, min: number, max = Number.MAX_SAFE_INTEGER) {
  return (raw: string): number => {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
    return n;
  };
}

function oneOf<T extends string>(name: string, values: readonly T[]) {
  return (raw: string): T => {
    if (!values.includes(raw as T)) throw new ConfigError(`${name} must be one of ${values.join(', ')}, got "${raw}"`);
    return raw as T;
  };
}

function bool(name: string) {
  return (raw: string): boolean => {
    if (['true', '1', 'yes'].includes(raw)) return true;
    if (['false', '0', 'no', ''].includes(raw)) return false;
    throw new ConfigError(`${name} must be true or false, got "${raw}"`);
  };
}

export const SETTINGS: Setting<keyof Config>[] = [
  {
    env: 'TRAMITA_HOST',
    key: 'host',
    default: '127.0.0.1',
    parse: (r) => r,
    doc: 'Address the HTTP server listens on. Set `0.0.0.0` to accept connections from other machines (behind TLS; then set `TRAMITA_PUBLIC_URL`).',
  },
  { env: 'PORT', key: 'port', default: '3000', parse: int('PORT', 0, 65535), doc: 'TCP port of the HTTP server (`0` picks a free one).' },
  {
    env: 'TRAMITA_PUBLIC_URL',
    key: 'publicUrl',
    default: '',
    parse: (r) => (r ? r.replace(/\/+$/, '') : undefined),
    doc:
      'Public base URL (e.g. `https://api.example.com`) of every absolute URL Tramita writes (`Location`, `statusUrl`, `links.next`, ' +
      "invitation links). Empty: `http://TRAMITA_HOST:PORT`, never the request's `Host` or `X-Forwarded-Host` (a client writes those); " +
      'then `tramita serve` refuses to start when `TRAMITA_HOST` is not a loopback address or `TRAMITA_TRUST_PROXY` is set, where that ' +
      'address is not the one clients use.',
  },
  {
    env: 'TRAMITA_TRUST_PROXY',
    key: 'trustProxy',
    default: 'false',
    parse: trustProxy,
    doc:
      'Reverse proxies whose `X-Forwarded-For` and `-Proto` are believed: `false` (none), the number of proxies in front of Tramita ' +
      '(`1` for one nginx: the address its nearest hop wrote), or a comma list of their addresses and CIDRs (`127.0.0.1`, ' +
      '`10.0.0.0/8,127.0.0.1`; also `loopback`, `linklocal`, `uniquelocal`). A count trusts whoever connects: Tramita must then be ' +
      'reachable only through the proxy. `true` is refused: it would believe the address the client writes. Needs ' +
      '`TRAMITA_PUBLIC_URL` (docs/operations.md, "Running behind a proxy").',
  },
  {
    env: 'TRAMITA_DATA_DIR',
    key: 'dataDir',
    default: './data',
    parse: (r) => path.resolve(r),
    doc: 'Directory of the embedded SQLite database (`tramita.db`). Ignored for storage when `DATABASE_URL` is set.',
  },
  {
    env: 'DATABASE_URL',
    key: 'databaseUrl',
    default: '',
    parse: (r) => {
      if (!r) return undefined;
      if (!/^postgres(ql)?:\/\//.test(r)) throw new ConfigError('DATABASE_URL must start with postgres:// or postgresql://');
      return r;
    },
    doc: 'PostgreSQL connection string. When set, PostgreSQL replaces the embedded SQLite and several API and `tramita worker` processes can share it.',
  },
  {
    env: 'TRAMITA_DB_CONNECT_TIMEOUT_MS',
    key: 'dbConnectTimeoutMs',
    default: '5000',
    parse: int('TRAMITA_DB_CONNECT_TIMEOUT_MS', 100, 120_000),
    doc:
      'PostgreSQL only: how long a request waits for a database connection (a new one, or a free one of the pool) before it answers `503 ' +
      'STORAGE_UNAVAILABLE`. While PostgreSQL restarts or cannot be reached, requests fail this fast instead of hanging, and the pool ' +
      'reconnects by itself when it is back (docs/operations.md).',
  },
  {
    env: 'TRAMITA_PG_PREPARED_STATEMENTS',
    key: 'pgPreparedStatements',
    default: 'true',
    parse: bool('TRAMITA_PG_PREPARED_STATEMENTS'),
    doc:
      "PostgreSQL only: the hot path's statements (charges, case stamps, keys, webhook deliveries) are sent as named statements, parsed and " +
      'planned once per connection instead of at every execution. Behind a connection pooler the server finds the pooler by itself (the ' +
      'server process differs from the one announced at connect) and sends them unnamed, with a warning at start; `false` says so up front.',
  },
  {
    env: 'TRAMITA_LOG_LEVEL',
    key: 'logLevel',
    default: 'info',
    parse: oneOf('TRAMITA_LOG_LEVEL', ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']),
    doc: 'pino log level. API keys, bearer tokens and secrets are redacted at every level.',
  },
  {
    env: 'TRAMITA_LOG_FORMAT',
    key: 'logFormat',
    default: 'auto',
    parse: oneOf('TRAMITA_LOG_FORMAT', ['auto', 'json', 'pretty'] as const),
    doc:
      '`auto`: readable lines (pino-pretty, coloured) when the output is a terminal, one JSON object per line otherwise (a file, a pipe, a log ' +
      'collector). `json` or `pretty` force one.',
  },
  {
    env: 'TRAMITA_BODY_LIMIT_BYTES',
    key: 'bodyLimitBytes',
    default: '1048576',
    parse: int('TRAMITA_BODY_LIMIT_BYTES', 1024),
    doc: 'Largest request body accepted; larger bodies get 400 `BODY_TOO_LARGE`.',
  },
  {
    env: 'TRAMITA_SYNC_WINDOW_MS',
    key: 'syncWindowMs',
    default: '25000',
    parse: int('TRAMITA_SYNC_WINDOW_MS', 1, 30_000),
    doc:
      'Synchronous window (spec §8), counted from the moment the request arrived: an eligible operation still running after it answers 202 and continues ' +
      'in the background. At most 30000; the default 25000 leaves a client with the usual 30 s timeout seconds to receive the 202.',
  },
  {
    env: 'TRAMITA_SYNC_WINDOW_MARGIN_MS',
    key: 'syncWindowMarginMs',
    default: '250',
    parse: int('TRAMITA_SYNC_WINDOW_MARGIN_MS', 0, 5_000),
    doc: 'How long before the window ends the 202 is sent, so it reaches the caller before the window closes.',
  },
  {
    env: 'TRAMITA_AUXILIARY_DEADLINE_MS',
    key: 'auxiliaryDeadlineMs',
    default: '2500',
    parse: int('TRAMITA_AUXILIARY_DEADLINE_MS', 1, 30_000),
    doc:
      "How long a caller waits for an auxiliary source (DJEN's addressees, the provider, a court's consultation page, a court's search) past the main " +
      "source's answer (DataJud's; a search's fan-out counts from its start). Past it the answer is 200 with what is in hand: `enriquecimento` says " +
      'what is pending, the enrichment job goes on and announces the parties as `atualizacao_processo_concluida`; a court late in a search is a ' +
      'failure of that court in `meta.fontes.falharam`. The default covers DJEN, the e-SAJ pages and a provider answering as they usually do (about ' +
      '0.5–2 s; docs/architecture.md, "Waiting on sources") and keeps a first lookup whose DataJud answers at once under 3 s.',
  },
  {
    env: 'TRAMITA_SOURCE_FAILING_AFTER',
    key: 'sourceFailingAfter',
    default: '3',
    parse: int('TRAMITA_SOURCE_FAILING_AFTER', 1, 100),
    doc:
      'Failures or timeouts in a row after which an upstream is `failing` (before: `degraded`; its first answer makes it `healthy`). A failing auxiliary ' +
      'source is not waited on by request paths (answered at once as pending) and is probed in the background; the state is shared by every process ' +
      'on PostgreSQL, shown in `GET /v1/integrador`, the `tramita_upstream_health` metric and the console, and logged once per change.',
  },
  {
    env: 'TRAMITA_SOURCE_PROBE_MS',
    key: 'sourceProbeMs',
    default: '30000',
    parse: int('TRAMITA_SOURCE_PROBE_MS', 100, 3_600_000),
    doc:
      'How often a failing upstream is asked again (±20 % jitter): once per period across the deployment, by the background prober or by one request ' +
      'path, until it answers.',
  },
  {
    env: 'TRAMITA_POLL_AFTER_MS',
    key: 'pollAfterMs',
    default: '2000',
    parse: int('TRAMITA_POLL_AFTER_MS', 100, 600_000),
    doc: 'Suggested wait before polling a pending operation (`Retry-After`, `pollAfterMs`, `nextPollAt`).',
  },
  {
    env: 'TRAMITA_REQUEST_RETENTION_HOURS',
    key: 'requestRetentionHours',
    default: '72',
    parse: int('TRAMITA_REQUEST_RETENTION_HOURS', 24),
    doc: 'How long the final response of a pending operation stays readable at `/v1/requests/{requestId}` (at least 24).',
  },
  {
    env: 'TRAMITA_IDEMPOTENCY_TTL_HOURS',
    key: 'idempotencyTtlHours',
    default: '24',
    parse: int('TRAMITA_IDEMPOTENCY_TTL_HOURS', 24),
    doc: 'How long an `Idempotency-Key` and its stored response are kept (at least 24).',
  },
  {
    env: 'TRAMITA_PRICES_FILE',
    key: 'pricesFile',
    default: 'config/prices.json',
    parse: (r) => path.resolve(PROJECT_ROOT, r),
    doc: 'Price table per plan and query type, in centavos (see docs/credits.md). Relative paths are resolved from the project root.',
  },
  {
    env: 'TRAMITA_RATE_LIMITS',
    key: 'rateLimits',
    default: '',
    parse: parseRateLimits,
    doc:
      "Per-account limits per route class (all of an account's keys together; per IP on public routes), " +
      `\`CLASS=MAX/WINDOW\` separated by commas; classes not named keep their default. Defaults: ` +
      `\`${describeRateLimits()}\`.`,
  },
  {
    env: 'TRAMITA_RATE_LIMIT_SYNC_MS',
    key: 'rateLimitSyncMs',
    default: '100',
    parse: int('TRAMITA_RATE_LIMIT_SYNC_MS', 10, 10_000),
    doc:
      "PostgreSQL only: how often each API process adds its rate-limit counts to the shared counters and reads the others' (one statement). The limits " +
      'hold for the whole deployment within about (processes − 1) × the requests one process admits in this interval. SQLite counts in ' +
      "the one process's memory.",
  },
  {
    env: 'TRAMITA_MAX_API_KEYS',
    key: 'maxActiveApiKeys',
    default: '20',
    parse: int('TRAMITA_MAX_API_KEYS', 1, 10_000),
    doc:
      'Active (unrevoked) API keys one account may hold; one more is refused with 422 `API_KEY_LIMIT_REACHED` (the console says so, ' +
      'and `tramita keys create` exits 1) until one is revoked. Rate limits count per account, whatever the key, so more keys never ' +
      'mean more requests.',
  },
  {
    env: 'TRAMITA_WORKERS',
    key: 'workers',
    default: 'auto',
    parse: oneOf('TRAMITA_WORKERS', ['auto', 'in-process', 'off'] as const),
    doc:
      'Where background jobs run. `auto`: inside the server on SQLite, in separate `tramita worker` processes on PostgreSQL. `in-process` forces them ' +
      'into the server; `off` leaves them to `tramita worker`.',
  },
  {
    env: 'TRAMITA_WORKER_CONCURRENCY',
    key: 'workerConcurrency',
    default: '4',
    parse: int('TRAMITA_WORKER_CONCURRENCY', 1, 256),
    doc: 'Jobs one worker runs at once.',
  },
  {
    env: 'TRAMITA_WORKER_METRICS_PORT',
    key: 'workerMetricsPort',
    default: '',
    parse: (r) => (r === '' ? undefined : int('TRAMITA_WORKER_METRICS_PORT', 1, 65535)(r)),
    doc:
      '`tramita worker` only: serve `/metrics` (its deliveries, job runs, upstream requests, process series) and `/healthz` on this port of ' +
      "`TRAMITA_HOST`, for Prometheus. Empty: no port (the jobs still show in the API processes' `tramita_jobs*` gauges, and failures " +
      'in the logs).',
  },
  {
    env: 'TRAMITA_JOB_LEASE_MS',
    key: 'jobLeaseMs',
    default: '60000',
    parse: int('TRAMITA_JOB_LEASE_MS', 1000),
    doc: 'Lease of a claimed job; a worker that dies leaves its jobs to be taken again once the lease ends. Running jobs renew it.',
  },
  { env: 'TRAMITA_JOB_POLL_MS', key: 'jobPollMs', default: '500', parse: int('TRAMITA_JOB_POLL_MS', 10), doc: 'How often an idle worker looks for due jobs.' },
  {
    env: 'TRAMITA_SANDBOX_CREDITS_BRL',
    key: 'sandboxCreditsCentavos',
    default: '100',
    parse: (r) => brlToCentavos(r, 'TRAMITA_SANDBOX_CREDITS_BRL'),
    doc: 'Credits (BRL) of the sandbox account that `npm start` creates on an empty database.',
  },
  {
    env: 'DATAJUD_URL',
    key: 'datajudUrl',
    default: '',
    parse: optionalUrl('DATAJUD_URL'),
    doc:
      'Base URL of the DataJud public API, e.g. `https://api-publica.datajud.cnj.jus.br`. Empty: the sandbox simulator when `TRAMITA_SANDBOX` is `auto`; ' +
      'with `TRAMITA_SANDBOX=off`, the public DataJud URL above.',
  },
  {
    env: 'DATAJUD_API_KEY',
    key: 'datajudApiKey',
    default: PUBLIC_DATAJUD_KEY,
    parse: (r) => r,
    doc:
      'DataJud API key, sent as `Authorization: APIKey …`. The default is the public key the CNJ publishes at ' +
      'datajud-wiki.cnj.jus.br/api-publica/acesso; the CNJ may change it.',
  },
  {
    env: 'DATAJUD_TIMEOUT_MS',
    key: 'datajudTimeoutMs',
    default: '40000',
    parse: int('DATAJUD_TIMEOUT_MS', 100, 300_000),
    doc: 'Timeout of one DataJud request (DataJud often takes 10–40 s). A timeout is `SOURCE_TIMEOUT`, never "not found".',
  },
  {
    env: 'DATAJUD_REQUESTS_PER_MINUTE',
    key: 'datajudRequestsPerMinute',
    default: '100',
    parse: int('DATAJUD_REQUESTS_PER_MINUTE', 1, 100_000),
    doc: 'Budget of DataJud requests per minute shared by every lookup, refresh and monitor in this process. The terms of use allow at most 120.',
  },
  {
    env: 'DATAJUD_BATCH_SIZE',
    key: 'datajudBatchSize',
    default: '500',
    parse: int('DATAJUD_BATCH_SIZE', 1, 1000),
    doc: 'Most case numbers asked in one DataJud `terms` request (one alias per request).',
  },
  {
    env: 'DJEN_URL',
    key: 'djenUrl',
    default: '',
    parse: optionalUrl('DJEN_URL'),
    doc:
      'Base URL of DJEN / Comunica PJe (publications, intimações, cadernos), e.g. `https://comunicaapi.pje.jus.br` (paths `/api/v1/…` are appended). ' +
      'Empty: the sandbox simulator when it runs, otherwise that public URL. DJEN answers 403 outside Brazil: a self-hosted server ' +
      'abroad needs a Brazilian egress (reported as `SOURCE_UNAVAILABLE` with `failure: geoblocked`).',
  },
  {
    env: 'DJEN_TIMEOUT_MS',
    key: 'djenTimeoutMs',
    default: '30000',
    parse: int('DJEN_TIMEOUT_MS', 100, 300_000),
    doc: 'Timeout of one DJEN request (a caderno download gets ten times this). A timeout is `SOURCE_TIMEOUT`, never "no publications".',
  },
  {
    env: 'DJEN_REQUESTS_PER_MINUTE',
    key: 'djenRequestsPerMinute',
    default: '20',
    parse: int('DJEN_REQUESTS_PER_MINUTE', 1, 100_000),
    doc:
      'Budget of DJEN requests per minute shared by every search, monitor and caderno in this process. DJEN allows 20 per IP and ' +
      'calls several IPs abuse; a 429 waits 60 s.',
  },
  {
    env: 'TRAMITA_DJEN_CADERNOS',
    key: 'djenCadernos',
    default: '',
    parse: parseList,
    doc:
      'Courts (DJEN siglas, comma-separated, e.g. `TJSP,TRF4`) whose daily bulk caderno is ingested by the publication cycle instead of asking DJEN once ' +
      'per monitored OAB, term or case; `all` for every court. Empty: targeted queries only. One caderno is one request per court and ' +
      'day, however many monitors there are, and brings the day once final (by the next day). Monitored cases are asked by number at their ' +
      "monitors' frequency within half of DJEN_REQUESTS_PER_MINUTE (600 asks an hour at 20): turn the cadernos on from about 80 % of that, " +
      'H + D/24 + S/168 + M/720 ≥ 480 an hour for H numbers followed hourly at best, D daily, S weekly, M monthly (480 hourly, or 11,500 daily); ' +
      'the metric tramita_djen_case_asks_per_period and a warn line say when (docs/operations.md, "DJEN and monitored cases").',
  },
  {
    env: 'TRAMITA_STF_URL',
    key: 'stfUrl',
    default: '',
    parse: optionalUrl('TRAMITA_STF_URL'),
    doc:
      'Host of the STF gazette API (DJe STF), `https://digital.stf.jus.br` (paths `/decisoes-publicacoes/api/public/…` are appended). Empty: the sandbox ' +
      'simulator when it runs, otherwise that public host.',
  },
  {
    env: 'TRAMITA_STF_CA_FILE',
    key: 'stfCaFile',
    default: '',
    parse: (r) => r || undefined,
    doc:
      'PEM file with the intermediate and root certificates `*.stf.jus.br` does not send (GlobalSign GCC R6 AlphaSSL CA 2025, valid until 2027-05-21), ' +
      'added to Node\'s trusted roots for the STF connector only. Without it Node answers "unable to get local issuer certificate" and ' +
      'the STF gazette is `SOURCE_UNAVAILABLE`. Verification is never turned off.',
  },
  {
    env: 'TRAMITA_DJE_URL',
    key: 'djeUrl',
    default: '',
    parse: optionalUrl('TRAMITA_DJE_URL'),
    doc:
      "Host of the electoral gazettes' consultation service (TSE and TREs), `https://dje-consulta.tse.jus.br` (paths `/dje-consulta/rest/…` are appended; " +
      'routes in src/sources/dje/connector.ts). Empty: the sandbox simulator when it runs, otherwise that public host.',
  },
  {
    env: 'TRAMITA_GAZETTE_REQUESTS_PER_MINUTE',
    key: 'gazetteRequestsPerMinute',
    default: '60',
    parse: int('TRAMITA_GAZETTE_REQUESTS_PER_MINUTE', 1, 100_000),
    doc:
      "Budget of requests per minute to each gazette host (STF, DJE eleitoral) in this process. STF's API is undocumented: about one request a second " +
      'keeps it friendly.',
  },
  {
    env: 'TRAMITA_GAZETTE_COURTS',
    key: 'gazetteCourts',
    default: 'all',
    parse: (r) => {
      const list = parseList(r);
      const bad = list.find((v) => !/^(all|NONE|STF|TSE|TRE-[A-Z]{2})$/.test(v) || (v.startsWith('TRE-') && !isUf(v.slice(4))));
      if (bad) throw new ConfigError(`TRAMITA_GAZETTE_COURTS: "${bad}" is not a gazette (STF, TSE, TRE-<UF>, all or none)`);
      return list;
    },
    doc:
      'Gazettes ingested day by day in the background (comma-separated): `STF`, `TSE`, `TRE-SP`…; `all` (the default) for the STF and every electoral ' +
      'court; `none` for none (searches and listings still read the days they ask, on demand).',
  },
  {
    env: 'TRAMITA_GAZETTE_BACKFILL_DAYS',
    key: 'gazetteBackfillDays',
    default: '14',
    parse: int('TRAMITA_GAZETTE_BACKFILL_DAYS', 0, 3_660),
    doc:
      'How many days back the background ingest fills each gazette the first time (then it keeps up day by day, reading today again every 30 minutes, or ' +
      'every `TRAMITA_MONITOR_INTERVAL_MS` when shorter). A search or listing fetches the ' +
      'missing days of its period, whatever this says.',
  },
  {
    env: 'TRAMITA_MURAL_PROVIDER_URL',
    key: 'muralProviderUrl',
    default: '',
    parse: optionalUrl('TRAMITA_MURAL_PROVIDER_URL'),
    doc:
      "Base URL of a provider of the electoral bulletin board (Mural Eletrônico) speaking the protocol of docs/providers.md. The board's own search needs " +
      "a reCAPTCHA token that only a person obtains: Tramita never solves one. Empty: the sandbox's provider when it runs, otherwise " +
      '`/v1/mural-eleitoral/…` answers 503 `SOURCE_NOT_CONFIGURED`.',
  },
  {
    env: 'TRAMITA_MURAL_PROVIDER_TOKEN',
    key: 'muralProviderToken',
    default: '',
    parse: (r) => r,
    doc: 'Sent to the mural provider as `Authorization: Bearer <token>` when set. Never logged.',
  },
  {
    env: 'TRAMITA_PRECATORIOS_DATAJUD',
    key: 'precatoriosDatajud',
    default: 'none',
    parse: (r) => {
      const list = parseList(r);
      const bad = list.find((v) => v !== 'all' && v !== 'NONE' && !/^[A-Z0-9-]{2,8}$/.test(v));
      if (bad) throw new ConfigError(`TRAMITA_PRECATORIOS_DATAJUD: "${bad}" is not a court sigla (or all, none)`);
      return list;
    },
    doc:
      'Courts whose precatório and RPV processes (TPU classes 1265/1266) the daily `precatorios.datajud` job reads from DataJud into `/v1/precatorios` ' +
      "(number, class, latest movement; DataJud has no value or debtor: import the courts' lists for those). `none` (the default): no " +
      'harvest; `all`: every state, federal and labour court; or siglas (`TJSP,TRF3`). Each run asks only what changed since the last, ' +
      "but a court's first run reads its whole history of those classes (a large court has hundreds of thousands) through the DataJud " +
      'budget every lookup shares: start with the courts you need.',
  },
  {
    env: 'TRAMITA_PRECATORIOS_TJRJ',
    key: 'precatoriosTjrj',
    default: 'false',
    parse: bool('TRAMITA_PRECATORIOS_TJRJ'),
    doc:
      "`true`: the daily `precatorios.tjrj` job reads TJRJ's public precatório API (every debtor entity's chronological order: number, order, nature, " +
      "budget year, status, balance, none once paid; TJRJ's list names no process) into `/v1/precatorios` (fonte `tjrj`). Off by " +
      'default: it walks every entity, within `TRAMITA_GAZETTE_REQUESTS_PER_MINUTE`.',
  },
  {
    env: 'TRAMITA_TJRJ_PRECATORIOS_URL',
    key: 'tjrjPrecatoriosUrl',
    default: '',
    parse: optionalUrl('TRAMITA_TJRJ_PRECATORIOS_URL'),
    doc:
      "Base URL of TJRJ's precatório API, up to `/api/precatorios`. Empty: the sandbox's imitation when it runs, otherwise " +
      '`https://www3.tjrj.jus.br/PortalConhecimento/api/precatorios`.',
  },
  {
    env: 'TRAMITA_WARRANTS_PROVIDER_URL',
    key: 'warrantsProviderUrl',
    default: '',
    parse: optionalUrl('TRAMITA_WARRANTS_PROVIDER_URL'),
    doc:
      "Base URL of a warrants provider (`GET /v1/mandados`). BNMP's public portal needs a captcha and a browser fingerprint: Tramita never solves one, so " +
      'warrants come from a provider you contract (a commercial one, or the restricted BNMP API of an authorized institution behind ' +
      "your own adapter). Empty: the sandbox's provider when it runs, otherwise `/v1/mandados` answers 503 `SOURCE_NOT_CONFIGURED`, " +
      'never `NADA_CONSTA`.',
  },
  {
    env: 'TRAMITA_WARRANTS_PROVIDER_PROTOCOL',
    key: 'warrantsProviderProtocol',
    default: 'tramita',
    parse: oneOf('TRAMITA_WARRANTS_PROVIDER_PROTOCOL', ['tramita', 'predictus'] as const),
    doc:
      "`tramita`: the provider speaks docs/providers.md (by CPF and by piece number). `predictus`: Predictus's documented API (`POST " +
      '…/mandados/prisao/buscarPorCPF`, 204 for none; by CPF only; set the URL up to `/predictus-api`).',
  },
  {
    env: 'TRAMITA_WARRANTS_PROVIDER_TOKEN',
    key: 'warrantsProviderToken',
    default: '',
    parse: (r) => r,
    doc: 'Sent to the warrants provider as `Authorization: Bearer <token>` when set. Never logged.',
  },
  {
    env: 'TRAMITA_PROTOCOLO_URL',
    key: 'protocoloUrl',
    default: '',
    parse: optionalUrl('TRAMITA_PROTOCOLO_URL'),
    doc:
      'Base URL of Protocolo Integrado (administrative processes by NUP), up to `/protocolo` (the detail page ' +
      "`documento/detalhes_documento.jsf?protocolo=<NUP>` is appended). Empty: the sandbox's imitation when it runs, otherwise " +
      '`https://protocolointegrado.gov.br/protocolo`. A captcha page is answered as an uncharged 503 `SOURCE_UNAVAILABLE` (`failure: ' +
      'captcha`): Tramita never solves one.',
  },
  {
    env: 'TRAMITA_PROTOCOLO_REQUESTS_PER_MINUTE',
    key: 'protocoloRequestsPerMinute',
    default: '20',
    parse: int('TRAMITA_PROTOCOLO_REQUESTS_PER_MINUTE', 1, 100_000),
    doc:
      "Requests per minute this process sends to Protocolo Integrado: lookups and the administrative monitors' checks share it (checks never take more " +
      "than half of a cycle's worth).",
  },
  {
    env: 'TRAMITA_ADMINISTRATIVE_FRESH_MINUTES',
    key: 'administrativeFreshMinutes',
    default: '1440',
    parse: int('TRAMITA_ADMINISTRATIVE_FRESH_MINUTES', 0, 525_600),
    doc:
      'A stored administrative process younger than this answers `GET /v1/processos/administrativos/nup/{nup}` without asking the source (`POST` may ask ' +
      'for another age with `dias_ultima_atualizacao`).',
  },
  {
    env: 'TRAMITA_ORGAOS_FILE',
    key: 'bodiesFile',
    default: 'config/orgaos-administrativos.json',
    parse: (r) => path.resolve(PROJECT_ROOT, r),
    doc:
      'JSON file of the administrative bodies Tramita covers (`GET /v1/orgaos-administrativos`; a NUP whose first five digits name none is 422 ' +
      '`BODY_NOT_COVERED`). Relative paths are read from the project folder. The shipped file says its source and date; replace it ' +
      'with your own list in the same shape (docs/administrative.md).',
  },
  {
    env: 'TRAMITA_UPSTREAM_MAX_BYTES',
    key: 'upstreamMaxBytes',
    default: '',
    parse: parseUpstreamMaxBytes,
    doc:
      `Largest answer body read from each upstream, \`SOURCE=SIZE\` separated by commas (size in bytes, or with \`KB\`, \`MB\`, \`GB\`); sources not ` +
      `named keep their default. Defaults: ` +
      `\`${UPSTREAM_BODY_SOURCES.map((s) => `${s}=${formatSize(DEFAULT_UPSTREAM_MAX_BYTES[s])}`).join(',')}\` (\`djen-caderno\`: the ` +
      `daily ZIP, streamed to a temporary file). A \`Content-Length\` over it is refused unread; otherwise the read stops the moment ` +
      `the body, counted after decompression, crosses it. Either way the request is an uncharged 503 \`SOURCE_UNAVAILABLE\` with ` +
      `\`details.failure: too_large\`, and a log line with the body's size, never its content.`,
  },
  {
    env: 'TRAMITA_UPSTREAM_IDLE_TIMEOUT_MS',
    key: 'upstreamIdleTimeoutMs',
    default: String(DEFAULT_UPSTREAM_IDLE_TIMEOUT_MS),
    parse: int('TRAMITA_UPSTREAM_IDLE_TIMEOUT_MS', 50, 600_000),
    doc:
      "Longest silence while an upstream's answer body is being read: a body that sends no byte for this long is abandoned (`SOURCE_TIMEOUT`, uncharged), " +
      "so an upstream dripping a byte now and then cannot hold a request until its source's whole timeout (`DATAJUD_TIMEOUT_MS`, " +
      '`DJEN_TIMEOUT_MS`, …), which still bounds every request.',
  },
  {
    env: 'TRAMITA_PORTAL_URL',
    key: 'portalUrl',
    default: '',
    parse: optionalUrl('TRAMITA_PORTAL_URL'),
    doc:
      'Base URL of the case-details provider (parties, lawyers, case value, public documents; protocol in docs/architecture.md). Empty: the sandbox ' +
      'simulator when it runs, otherwise those details are unavailable.',
  },
  {
    env: 'TRAMITA_PORTAL_TRIBUNAIS',
    key: 'portalCourts',
    default: 'all',
    parse: parsePortalCourts,
    doc:
      "Courts whose cases the case-details provider (TRAMITA_PORTAL_URL, or the sandbox's simulated one) is asked about for parties, lawyers and the " +
      "value: `all`, or a comma-separated list of siglas, e.g. `TJBA,TJPR`. Cases of the other courts take them from their court's " +
      'consultation (TRAMITA_CONSULTAS) or, failing that, from the addressees of their DJEN communications ' +
      '(`fonte: DJEN`, no documents, no value).',
  },
  {
    env: 'TRAMITA_PORTAL_NOME',
    key: 'portalName',
    default: 'Portal',
    parse: (r) => r.trim() || 'Portal',
    doc: "How each party and lawyer the case-details provider gave names its source (`fonte`), e.g. the provider's commercial name.",
  },
  {
    env: 'TRAMITA_CONSULTAS',
    key: 'consultas',
    default: 'all',
    parse: parseConsultas,
    doc:
      'Courts whose public consultation page Tramita reads for parties, lawyers, the case value and movement texts (e-SAJ: TJSP, TJAL, TJAC; PJe ' +
      "*consulta pública*: TRF1, TRF3, TRF5, TJMA, TJMG, TJCE, TJAP, TJPE, TJRJ, TJRO; TJDFT's REST consultation). `all`: every court " +
      'whose page reads without a captcha, anti-bot check or login (with the sandbox on, pointed at its simulator); `none`; or a ' +
      'comma-separated list of siglas, e.g. `TJSP,TJDFT`. A page that shows a captcha, an anti-bot block or a login is never passed: ' +
      'that request is an uncharged 503 `SOURCE_UNAVAILABLE` with `details.failure` `captcha`, `anti_bot` or `login`. A case number of ' +
      'an enabled court that DataJud does not know yet is answered from the consultation alone.',
  },
  {
    env: 'TRAMITA_CONSULTA_<SIGLA>_URL',
    key: 'consultaUrls',
    default: '',
    parse: (_r, env) => parseConsultaUrls(env),
    doc:
      "One court's first-degree consultation base URL, replacing the default: scheme, host and the system's context path, e.g. " +
      '`TRAMITA_CONSULTA_TJMG_URL=https://pje-consulta-publica.tjmg.jus.br/pje` or ' +
      '`TRAMITA_CONSULTA_TJAC_URL=https://esaj.tjac.jus.br` (a proxy, a mirror, a test server). Wins over the sandbox simulator.',
  },
  {
    env: 'TRAMITA_CONSULTA_REQUESTS_PER_MINUTE',
    key: 'consultaRequestsPerMinute',
    default: '30',
    parse: int('TRAMITA_CONSULTA_REQUESTS_PER_MINUTE', 1, 100_000),
    doc:
      'Requests per minute sent to each consultation host (at most two in flight per host; 429 and 5xx answers are retried after a backoff). One e-SAJ ' +
      "case costs three requests (open, search, page); one TJDFT case five or more. Case monitors' page reads take at most half of it.",
  },
  {
    env: 'TRAMITA_COURT_SEARCH_KEEP_MINUTES',
    key: 'courtSearchKeepMinutes',
    default: '10',
    parse: int('TRAMITA_COURT_SEARCH_KEEP_MINUTES', 0, 1_440),
    doc:
      'How long what a search by CPF/CNPJ, name or OAB found at the courts is kept: its later pages (and the same search again) within this while ' +
      'read it instead of asking every court again, so a search spends its search pages once at each court. A fan-out in which no court answered ' +
      'is not kept. `0`: every page asks the courts.',
  },
  {
    env: 'TRAMITA_CONSULTA_TIMEOUT_MS',
    key: 'consultaTimeoutMs',
    default: '30000',
    parse: int('TRAMITA_CONSULTA_TIMEOUT_MS', 100, 600_000),
    doc: "Timeout of each request to a court's consultation page, body included.",
  },
  {
    env: 'TRAMITA_CONSULTA_CONTACT',
    key: 'consultaContact',
    default: '',
    parse: (r) => r.trim(),
    doc:
      "How the courts can reach this installation's operator (an e-mail or URL), sent in the consultations' User-Agent: `Tramita/0.1 (+CONTACT; consulta " +
      'processual)`. Set it before reading real courts.',
  },
  {
    env: 'TRAMITA_SUMMARY_PROVIDER',
    key: 'summaryProvider',
    default: 'auto',
    parse: oneOf('TRAMITA_SUMMARY_PROVIDER', ['auto', 'modelo', 'extrativo'] as const),
    doc:
      "Who writes AI case summaries (`…/resumo-ia`). `modelo`: the OpenAI-compatible chat-completions server at `TRAMITA_SUMMARY_URL` (or the sandbox's " +
      'simulated model). `extrativo`: the offline writer, deterministic code that summarises the stored case without a language model. ' +
      '`auto`: `modelo` when `TRAMITA_SUMMARY_URL` is set or the sandbox runs, else `extrativo`.',
  },
  {
    env: 'TRAMITA_SUMMARY_URL',
    key: 'summaryUrl',
    default: '',
    parse: optionalUrl('TRAMITA_SUMMARY_URL'),
    doc:
      'Base URL of an OpenAI-compatible chat-completions API, up to `/v1` (requests go to `<url>/chat/completions`): a hosted service, vLLM ' +
      "(`http://host:8000/v1`), llama.cpp's `llama-server` (`http://127.0.0.1:8080/v1`) or Ollama (`http://localhost:11434/v1`). " +
      "Empty: the sandbox's simulated model when the sandbox runs, else the offline writer.",
  },
  {
    env: 'TRAMITA_SUMMARY_API_KEY',
    key: 'summaryApiKey',
    default: '',
    parse: (r) => r,
    doc: 'Sent as `Authorization: Bearer <key>` to the model server (a placeholder is sent when empty: Ollama wants some key). Never logged.',
  },
  {
    env: 'TRAMITA_SUMMARY_MODEL',
    key: 'summaryModel',
    default: 'sandbox-resumo-1',
    parse: (r) => r,
    doc:
      "The `model` of each chat-completions request (e.g. `gpt-4o-mini`, `llama3.1:8b`, the name vLLM serves). The default names the sandbox's simulated " +
      'model: set it whenever `TRAMITA_SUMMARY_URL` points at a real server (which answers 404 `model_not_found` to a name it does not ' +
      'serve, and the summary ends in ERRO saying so).',
  },
  {
    env: 'TRAMITA_SUMMARY_TIMEOUT_MS',
    key: 'summaryTimeoutMs',
    default: '120000',
    parse: int('TRAMITA_SUMMARY_TIMEOUT_MS', 100, 1_800_000),
    doc: 'Time one model request may take (a CPU server can need minutes). Summaries are written by a background job, never inside the 30 s window.',
  },
  {
    env: 'TRAMITA_SUMMARY_MAX_INPUT_TOKENS',
    key: 'summaryMaxInputTokens',
    default: '6000',
    parse: int('TRAMITA_SUMMARY_MAX_INPUT_TOKENS', 500, 1_000_000),
    doc:
      'Budget of the prompt, in tokens (estimated as characters / 4): the case facts are cut (oldest movements and publication texts first) to fit. Keep ' +
      "it under the server's context: Ollama silently truncates longer prompts (a summary whose `usage.prompt_tokens` comes back far " +
      'below what was sent is flagged in `aviso`).',
  },
  {
    env: 'TRAMITA_SUMMARY_MAX_OUTPUT_TOKENS',
    key: 'summaryMaxOutputTokens',
    default: '1200',
    parse: int('TRAMITA_SUMMARY_MAX_OUTPUT_TOKENS', 100, 100_000),
    doc: '`max_tokens` of each request. A summary cut at this length (`finish_reason: length`) is asked once more with twice the budget, then ends in ERRO.',
  },
  {
    env: 'TRAMITA_CASE_FRESH_MINUTES',
    key: 'caseFreshMinutes',
    default: '360',
    parse: int('TRAMITA_CASE_FRESH_MINUTES', 0, 525_600),
    doc:
      'Freshness policy of the case store: a cover or movement listing younger than this is answered from the store; older, DataJud is asked again first ' +
      '(and if DataJud fails, the stored copy is served marked `stale`). `POST …/solicitar-atualizacao` ' +
      'always asks the sources. `0`: always ask.',
  },
  {
    env: 'TRAMITA_DOCUMENT_STORE_MAX_MB',
    key: 'documentStoreMaxBytes',
    default: '512',
    parse: (v: string) => int('TRAMITA_DOCUMENT_STORE_MAX_MB', 1, 1_048_576)(v) * 1024 * 1024,
    doc:
      "Size of the store of the courts' public documents once read (issue 53: the body, its text, the court's PDF or file), in MB. A document " +
      'downloaded again is served from it without asking the court; past this size the least recently downloaded are evicted (they are read from the ' +
      'court again when asked). `tramita_documentos_armazenados_bytes` shows its size.',
  },
  {
    env: 'TRAMITA_SANDBOX',
    key: 'sandbox',
    default: 'auto',
    parse: oneOf('TRAMITA_SANDBOX', ['auto', 'on', 'off'] as const),
    doc: '`auto`: run the upstream simulator on loopback when `DATAJUD_URL` is empty and point the connectors at it. `on`: always; `off`: never.',
  },
  {
    env: 'TRAMITA_SANDBOX_CASES',
    key: 'sandboxCases',
    default: '20000',
    parse: int('TRAMITA_SANDBOX_CASES', 1, 2_000_000),
    doc: 'Number of fictitious cases the sandbox generates.',
  },
  {
    env: 'TRAMITA_SANDBOX_SEED',
    key: 'sandboxSeed',
    default: '1',
    parse: int('TRAMITA_SANDBOX_SEED', 0, 2 ** 31 - 1),
    doc: 'Seed of the sandbox data set: the same seed and size give the same cases.',
  },
  {
    env: 'TRAMITA_SANDBOX_PORT',
    key: 'sandboxPort',
    default: '0',
    parse: int('TRAMITA_SANDBOX_PORT', 0, 65535),
    doc: 'Port of the sandbox simulator on 127.0.0.1 (`0` picks a free one).',
  },
  {
    env: 'TRAMITA_SANDBOX_LATENCY_MS',
    key: 'sandboxLatencyMs',
    default: '0',
    parse: int('TRAMITA_SANDBOX_LATENCY_MS', 0, 600_000),
    doc: 'Added latency of every sandbox upstream response, to demonstrate the 30 s window (e.g. `35000`).',
  },
  {
    env: 'TRAMITA_SECRET_KEY',
    key: 'secretKey',
    default: '',
    parse: optionalSecretKey,
    doc:
      'Key that encrypts secrets at rest (webhook secrets and bearer tokens, AES-256-GCM): 32 bytes as 64 hex characters or base64. Unset: a key is ' +
      'generated once into `TRAMITA_DATA_DIR/secret.key` (mode 600). Set it explicitly when several hosts share one PostgreSQL, and ' +
      'keep it: without it stored secrets cannot be read.',
  },
  {
    env: 'TRAMITA_WEBHOOK_ALLOW_PRIVATE',
    key: 'webhookAllowPrivate',
    default: 'false',
    parse: bool('TRAMITA_WEBHOOK_ALLOW_PRIVATE'),
    doc:
      'Development and tests only: accepts `http://` webhook URLs and loopback or private targets. Off by default; a warning is logged at start when on. ' +
      'Never enable it where webhook URLs come from people you do not trust (SSRF).',
  },
  {
    env: 'TRAMITA_WEBHOOK_PRODUCT',
    key: 'webhookProduct',
    default: 'Service',
    parse: (r) => {
      if (!/^[A-Za-z][A-Za-z0-9]{0,39}$/.test(r))
        throw new ConfigError(`TRAMITA_WEBHOOK_PRODUCT must be letters and digits, starting with a letter (at most 40), got "${r}"`);
      return r;
    },
    doc:
      'Product name of the webhook headers (spec §6.2): `X-<name>-Signature`, `X-<name>-Event`, `X-<name>-Delivery-Id`, `X-<name>-Timestamp` and ' +
      "`User-Agent: <name>-Webhook/1.0`. Default `Service`, as the spec writes them; set the name your integrators' receivers read " +
      '(e.g. `BuscaProcessos` sends `x-buscaprocessos-signature`). The Standard Webhooks headers (`webhook-*`) do not change.',
  },
  {
    env: 'TRAMITA_WEBHOOK_TIMEOUT_MS',
    key: 'webhookTimeoutMs',
    default: '10000',
    parse: int('TRAMITA_WEBHOOK_TIMEOUT_MS', 100, 10_000),
    doc: 'Time a receiver has to answer a delivery (spec §6.1: 10 s, the maximum); past it the attempt fails and is retried.',
  },
  {
    env: 'TRAMITA_WEBHOOK_MAX_ATTEMPTS',
    key: 'webhookMaxAttempts',
    default: '12',
    parse: int('TRAMITA_WEBHOOK_MAX_ATTEMPTS', 1, 100),
    doc:
      'Attempts per delivery before it is marked failed. Attempt n+1 comes `min(120, 2^n)` minutes after attempt n fails (spec §6.1), so the default 12 ' +
      'spans about 16 hours. A failed delivery can still be resent, and its event stays in `GET /v1/eventos`.',
  },
  {
    env: 'TRAMITA_WEBHOOK_DISABLE_AFTER_HOURS',
    key: 'webhookDisableAfterHours',
    default: '120',
    parse: int('TRAMITA_WEBHOOK_DISABLE_AFTER_HOURS', 0, 24 * 365),
    doc:
      "An endpoint (the account URL or a monitor's `webhook_url`) whose every attempt has failed for this long, with no success in between, is disabled, " +
      'as Svix does after 5 days (the default, 120 h): its deliveries are kept as `RETIDA` and not attempted, the account hears of it ' +
      '(event `webhook_desativado` to its other endpoints, the console) until it re-enables the endpoint (POST /v1/conta/webhook/destinos/reativar, ' +
      'optionally resending what was kept). `0` never disables. See docs/webhooks.md.',
  },
  {
    env: 'TRAMITA_DEV_TIME_SCALE',
    key: 'devTimeScale',
    default: '1',
    parse: (r, env) => {
      const scale = int('TRAMITA_DEV_TIME_SCALE', 1, 1_000_000)(r);
      if (scale > 1 && env.NODE_ENV === 'production')
        throw new ConfigError('TRAMITA_DEV_TIME_SCALE is for development and tests only: it is refused when NODE_ENV=production');
      return scale;
    },
    doc:
      "Development and tests only (refused when `NODE_ENV=production`): divides the webhook retry ladder's delays by this number, so the whole ladder can " +
      'be watched end to end (`1000`: 2 min becomes 120 ms, and the default 12 attempts take about 45 s), and the 60 s margin after ' +
      "which an unanswered `Idempotency-Key` is taken to be a crashed request's, and the backoff between DJEN's attempts (a 429's `Retry-After` " +
      'is still obeyed). Monitor checks have their own knob, ' +
      '`TRAMITA_MONITOR_INTERVAL_MS`.',
  },
  {
    env: 'TRAMITA_DEV_CRASH_AFTER_CHARGE',
    key: 'devCrashAfterCharge',
    default: 'false',
    parse: (r, env) => {
      const on = bool('TRAMITA_DEV_CRASH_AFTER_CHARGE')(r);
      if (on && env.NODE_ENV === 'production')
        throw new ConfigError('TRAMITA_DEV_CRASH_AFTER_CHARGE is a crash drill for tests: it is refused when NODE_ENV=production');
      return on;
    },
    doc:
      'Crash drill only (refused when `NODE_ENV=production`): the process kills itself (SIGKILL) right after the first charge commits, before the answer ' +
      'is sent, to prove that a replayed `Idempotency-Key` is never run or charged again (test/crash.test.ts).',
  },
  {
    env: 'TRAMITA_WEBHOOK_CONCURRENCY',
    key: 'webhookConcurrency',
    default: '64',
    parse: int('TRAMITA_WEBHOOK_CONCURRENCY', 1, 1024),
    doc: 'Deliveries sent at once by one worker process (on top of `TRAMITA_WORKER_CONCURRENCY` for other jobs).',
  },
  {
    env: 'TRAMITA_MONITOR_INTERVAL_MS',
    key: 'monitorIntervalMs',
    default: '3600000',
    parse: int('TRAMITA_MONITOR_INTERVAL_MS', 1000),
    doc:
      'Period of the most frequent monitor check (`HORARIA`): `DIARIA` is 24 of these, `SEMANAL` 168. The default, 1 h, is the floor for production use ' +
      '(it keeps a large deployment inside the DataJud budget); lower it only for demos and tests (e.g. ' +
      '`5000`), which scales every frequency with it.',
  },
  {
    env: 'TRAMITA_FEED_SETTLE_MS',
    key: 'feedSettleMs',
    default: '',
    parse: (r) => (r === '' ? undefined : int('TRAMITA_FEED_SETTLE_MS', 0, 60_000)(r)),
    doc:
      'How old an event must be before `GET /v1/eventos` lists it. Empty: 0 on SQLite (one writer commits in order) and 2000 on PostgreSQL, where ' +
      'concurrent transactions can commit out of id order; the window keeps a late commit from landing behind a cursor a reader ' +
      'already passed. Raise it if transactions that record events can run longer.',
  },
];

/** 32 bytes, as 64 hex characters or base64; empty means "generate one into the data directory". */
function optionalSecretKey(raw: string): string | undefined {
  if (!raw) return undefined;
  const bytes = /^[0-9a-f]{64}$/i.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
  if (bytes.length !== 32) throw new ConfigError('TRAMITA_SECRET_KEY must be 32 bytes: 64 hex characters or 44 base64 characters');
  return bytes.toString('hex');
}

/** "TJSP, trf4" → ['TJSP', 'TRF4']; empty → []. */
function parseList(raw: string): string[] {
  return raw
    .split(',')
    .map((v) => v.trim().toUpperCase())
    .filter((v) => v !== '')
    .map((v) => (v === 'ALL' ? 'all' : v));
}

/** `all`, or court siglas separated by commas (upper-cased); which are courts is checked where sources are wired (sources/index.ts). */
function parsePortalCourts(raw: string): 'all' | string[] {
  const siglas = parseList(raw);
  if (siglas.length === 0 || siglas.includes('all')) return 'all';
  return siglas;
}

/** `all`, `none`, or siglas separated by commas (upper-cased); which have a known-open consultation is checked where sources are wired (sources/index.ts). */
export function parseConsultas(raw: string): 'all' | 'none' | string[] {
  const v = raw.trim().toLowerCase();
  if (v === 'all' || v === 'none') return v;
  const siglas = raw
    .split(',')
    .map((p) => p.trim().toUpperCase())
    .filter(Boolean);
  if (siglas.length === 0) throw new ConfigError(`TRAMITA_CONSULTAS must be all, none or court siglas, got "${raw}"`);
  return siglas;
}

/** Every TRAMITA_CONSULTA_<SIGLA>_URL set, by sigla. */
function parseConsultaUrls(env: Env): Record<string, string> {
  const urls: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    const m = /^TRAMITA_CONSULTA_([A-Z0-9]+)_URL$/.exec(name);
    if (!m || !value) continue;
    urls[m[1]!] = optionalUrl(name)(value)!;
  }
  return urls;
}

function optionalUrl(name: string) {
  return (raw: string): string | undefined => {
    if (!raw) return undefined;
    if (!/^https?:\/\/[^\s]+$/.test(raw)) throw new ConfigError(`${name} must be an http(s) URL, got "${raw}"`);
    return raw.replace(/\/+$/, '');
  };
}

export function loadConfig(env: Env = process.env, overrides: Partial<Config> = {}): Config {
  const config = {} as Record<keyof Config, unknown>;
  for (const s of SETTINGS) {
    const raw = env[s.env];
    config[s.key] = s.parse(raw === undefined || raw === '' ? s.default : raw, env);
  }
  return { ...(config as unknown as Config), ...overrides };
}
