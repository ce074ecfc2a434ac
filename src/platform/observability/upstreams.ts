/**
 * Every request to an upstream source, seen in one place: undici publishes each request's start,
 * response headers and errors on diagnostics channels (Node's fetch and the undici package alike), so
 * no connector has to remember to count. A request is an upstream's when its URL starts with a base
 * URL registered by sources/index.ts; anything else (webhook receivers) is not counted here. Each
 * request moves `tramita_upstream_*`; a failure or a 429 is one `warn` line naming the source and the
 * path without its query (a query may hold a name or a CPF). The last outcomes give each source's
 * state for `/readyz`, `GET /v1` and `/v1/integrador`.
 */
import diagnostics from 'node:diagnostics_channel';
import type { Logger } from 'pino';
import { telemetry, upstreamOutcome } from './telemetry.ts';
import { HEALTH_GAUGE, logSourceHealthTo, mayAskNow, sourceAnswered, sourceFailed, sourceHealth, type SourceHealthState } from './source-health.ts';

export interface UpstreamDescriptor {
  /** Short stable name, the metrics' `source` label: datajud, djen, stf, … */
  name: string;
  baseUrl: string;
  /** The sandbox simulator answers for it. */
  sandbox: boolean;
  /**
   * A source the case lookups consult beside the main one (DJEN, the provider, the courts' pages, the
   * model): skipped by request paths while failing (source-health.ts). DataJud, the main source, never is.
   */
  auxiliary?: boolean;
}

export type UpstreamHealth = 'ok' | 'failing' | 'unknown';

interface Observed extends UpstreamDescriptor {
  consecutiveFailures: number;
  lastOkAt: number | null;
  lastFailureAt: number | null;
  lastFailure: string | null;
}

/** Failures in a row after which a source is reported `failing` (a success resets it). */
const FAILING_AFTER = 3;
/** At most one budget warning per source per minute: a spent budget is a state, not an event each request. */
const BUDGET_WARN_EVERY_MS = 60_000;

const known = new Map<string, Observed>();
let prefixes: [string, Observed][] = [];
let log: Pick<Logger, 'warn' | 'info'> | undefined;
const started = new WeakMap<object, { source: Observed; at: number; path: string }>();
const budgetWarnedAt = new Map<string, number>();
const budgets = new Map<string, { remaining(): number }>();

/** The sources this process talks to (sources/index.ts). A name registered again takes the new URL. */
export function registerUpstreams(list: UpstreamDescriptor[]): void {
  for (const d of list) {
    const before = known.get(d.name);
    known.set(d.name, {
      ...d,
      baseUrl: d.baseUrl.replace(/\/+$/, ''),
      consecutiveFailures: before?.consecutiveFailures ?? 0,
      lastOkAt: before?.lastOkAt ?? null,
      lastFailureAt: before?.lastFailureAt ?? null,
      lastFailure: before?.lastFailure ?? null,
    });
  }
  // Every source's health gauge from the start, not from its first change (issue 51).
  for (const d of list) telemetry.upstreamHealth.labels(d.name).set(HEALTH_GAUGE[sourceHealth(d.name).state]);
  // Longest prefix first: the sandbox serves several sources under one origin.
  prefixes = [...known.values()].map((o) => [o.baseUrl, o] as [string, Observed]).sort((a, b) => b[0].length - a[0].length);
}

/** Where failures are logged: the process's logger (serve, worker). Until then, only metrics move. */
export function logUpstreamsTo(logger: Pick<Logger, 'warn' | 'info'>): void {
  log = logger;
  logSourceHealthTo(logger);
}

/** The base URL a source was registered with (the prober asks it). */
export function upstreamBaseUrl(name: string): string | undefined {
  return known.get(name)?.baseUrl;
}

/** Thrown instead of sending a request path's request to a failing auxiliary source (the connectors map it as `unavailable`). */
export class SourceFailingError extends Error {
  override readonly name = 'SourceFailingError';
}

/**
 * Why a request path must not send this request now (issue 51): its auxiliary source is failing and
 * this probe period's one ask was taken. Null when it may go.
 */
export async function requestPathRefusal(url: string): Promise<SourceFailingError | null> {
  const source = sourceOf(url);
  if (!source?.auxiliary || (await mayAskNow(source.name))) return null;
  return new SourceFailingError(`${source.name} is failing: not waited on while a caller waits; probed in the background until it answers`);
}

/** The logger those warn lines go to (the consultations' observation, consultas.ts, writes beside them). */
export function upstreamLogger(): Pick<Logger, 'warn'> | undefined {
  return log;
}

/** What `/readyz`, `GET /v1` and `/v1/integrador` say about each source. */
export function upstreamStates(): {
  nome: string;
  modo: 'sandbox' | 'real';
  estado: UpstreamHealth;
  /** healthy, degraded or failing (source-health.ts), shared across the deployment's processes. */
  saude: SourceHealthState;
  ultimaFalha: string | null;
  ultimaFalhaEm: string | null;
}[] {
  return [...known.values()]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((o) => ({
      nome: o.name,
      modo: o.sandbox ? 'sandbox' : 'real',
      estado: o.consecutiveFailures >= FAILING_AFTER ? 'failing' : o.lastOkAt !== null || o.lastFailureAt !== null ? 'ok' : 'unknown',
      saude: sourceHealth(o.name).state,
      ultimaFalha: o.lastFailure,
      ultimaFalhaEm: o.lastFailureAt === null ? null : new Date(o.lastFailureAt).toISOString(),
    }));
}

/** A budget whose remaining requests the metrics report (RequestBudget registers itself by name). */
export function watchBudget(name: string, budget: { remaining(): number }): void {
  budgets.set(name, budget);
}

/** A request had to wait for its source's budget: counted, and one warn line a minute per source. */
export function budgetSpent(name: string, perMinute: number, waitMs: number): void {
  telemetry.budgetWaits.labels(name).inc();
  const now = Date.now();
  if ((budgetWarnedAt.get(name) ?? 0) + BUDGET_WARN_EVERY_MS > now) return;
  budgetWarnedAt.set(name, now);
  log?.warn({ source: name, perMinute, waitMs }, 'upstream budget spent: requests wait for the next slot');
}

function sourceOf(url: string): Observed | undefined {
  for (const [prefix, o] of prefixes) if (url.startsWith(prefix)) return o;
  return undefined;
}

function settle(entry: { source: Observed; at: number; path: string }, status: number | undefined, error?: Error): void {
  const { source } = entry;
  const outcome = upstreamOutcome(status, error?.name ?? (error as { code?: string } | undefined)?.code);
  telemetry.upstreamRequests.labels(source.name, outcome).inc();
  if (status !== undefined) telemetry.upstreamDuration.labels(source.name).observe((performance.now() - entry.at) / 1000);
  if (outcome === 'aborted') return; // the caller gave up (a client went away, a deadline): says nothing of the source
  if (outcome === 'ok' || outcome === 'client_error') {
    source.consecutiveFailures = 0;
    source.lastOkAt = Date.now();
    sourceAnswered(source.name);
    return;
  }
  source.consecutiveFailures++;
  source.lastFailureAt = Date.now();
  source.lastFailure = outcome;
  // A failing source's further failures are its state, said once when it changed (source-health.ts).
  const already = sourceHealth(source.name).state === 'failing';
  sourceFailed(source.name, outcome);
  if (already) return;
  log?.warn(
    { source: source.name, outcome, status, path: entry.path, err: error && { message: error.message.split('?')[0] } },
    `upstream ${source.name}: ${outcome}`,
  );
}

/**
 * An answer whose headers came but whose body was refused (over its size limit, silent past the idle
 * timeout, not UTF-8, absurdly nested: sources/http/body.ts): its request was counted by its
 * status, so this is where the source's state and the log hear of it. `message` never quotes the body.
 */
export function bodyRefused(name: string, failure: string, message: string): void {
  const source = known.get(name);
  if (source) {
    source.consecutiveFailures++;
    source.lastFailureAt = Date.now();
    source.lastFailure = failure;
    sourceFailed(name, failure);
  }
  telemetry.upstreamBodiesRefused.labels(name, failure).inc();
  log?.warn({ source: name, failure, err: { message } }, `upstream ${name}: answer refused (${failure})`);
}

interface UndiciRequest {
  origin?: string | URL;
  path?: string;
}

diagnostics.subscribe('undici:request:create', (message) => {
  const { request } = message as { request: UndiciRequest };
  const path = (request.path ?? '').split('?')[0]!;
  const source = sourceOf(`${String(request.origin ?? '').replace(/\/+$/, '')}${path}`);
  if (source) started.set(request, { source, at: performance.now(), path });
});
diagnostics.subscribe('undici:request:headers', (message) => {
  const { request, response } = message as { request: object; response: { statusCode: number } };
  const entry = started.get(request);
  if (!entry) return;
  started.delete(request);
  settle(entry, response.statusCode);
});
diagnostics.subscribe('undici:request:error', (message) => {
  const { request, error } = message as { request: object; error: Error };
  const entry = started.get(request);
  if (!entry) return;
  started.delete(request);
  settle(entry, undefined, error);
});

/** Sets each budget's remaining requests (called at each scrape). */
export function readBudgets(): void {
  for (const [name, budget] of budgets) telemetry.budgetRemaining.labels(name).set(budget.remaining());
}
