/**
 * Each upstream's health (issue 51): `healthy` until a request fails, `degraded` while failures or
 * timeouts come in a row, `failing` after TRAMITA_SOURCE_FAILING_AFTER of them, `healthy` again at the
 * first answer. Fed by every request the process sends (upstreams.ts hears them on undici's channels).
 * A failing auxiliary source is not waited on by request paths: one of them may ask it once per probe
 * period (TRAMITA_SOURCE_PROBE_MS, jittered), the period claimed in the shared store, and between
 * those the background prober (startSourceProber) asks it until it answers. Each change is one log
 * line, the `tramita_upstream_health` gauge and a row of `source_health` (migration 0026) that the
 * other processes of the deployment read (PostgreSQL: shared; SQLite: this process's file).
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { iso, systemClock, type Clock } from '../clock.ts';
import type { DB } from '../db/schema.ts';
import { telemetry } from './telemetry.ts';

export type SourceHealthState = 'healthy' | 'degraded' | 'failing';

/** How integrators and the console read each state (Portuguese, as every answer's words). */
export const SAUDE = { healthy: 'saudavel', degraded: 'degradada', failing: 'falhando' } as const;
export type Saude = (typeof SAUDE)[SourceHealthState];

/** The gauge's value of each state. */
export const HEALTH_GAUGE: Record<SourceHealthState, number> = { healthy: 0, degraded: 1, failing: 2 };

export interface SourceHealthRow {
  fonte: string;
  estado: SourceHealthState;
  falhasSeguidas: number;
  ultimaFalha: string | null;
  mudouEm: string;
  proximaSondaEm: string | null;
}

/** Where the states are shared: one implementation over Kysely serves both engines. */
export interface SourceHealthStore {
  write(row: SourceHealthRow): Promise<void>;
  read(): Promise<SourceHealthRow[]>;
  /** Takes the failing source's next ask if its time has come (`now` ≥ its instant): moves it to `next`; false if another took it. */
  claimProbe(fonte: string, now: string, next: string): Promise<boolean>;
}

export class DbSourceHealthStore implements SourceHealthStore {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  async write(r: SourceHealthRow): Promise<void> {
    const values = {
      estado: r.estado,
      falhas_seguidas: r.falhasSeguidas,
      ultima_falha: r.ultimaFalha,
      mudou_em: r.mudouEm,
      proxima_sonda_em: r.proximaSondaEm,
    };
    await this.#db
      .insertInto('source_health')
      .values({ fonte: r.fonte, ...values })
      .onConflict((oc) => oc.column('fonte').doUpdateSet(values))
      .execute();
  }

  async read(): Promise<SourceHealthRow[]> {
    const rows = await this.#db.selectFrom('source_health').selectAll().execute();
    return rows.map((r) => ({
      fonte: r.fonte,
      estado: r.estado as SourceHealthState,
      falhasSeguidas: r.falhas_seguidas,
      ultimaFalha: r.ultima_falha,
      mudouEm: r.mudou_em,
      proximaSondaEm: r.proxima_sonda_em,
    }));
  }

  async claimProbe(fonte: string, now: string, next: string): Promise<boolean> {
    const r = await this.#db
      .updateTable('source_health')
      .set({ proxima_sonda_em: next })
      .where('fonte', '=', fonte)
      .where('estado', '=', 'failing')
      .where('proxima_sonda_em', '<=', now)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }
}

export interface SourceHealthSettings {
  failingAfter: number;
  probeMs: number;
}

interface Entry {
  state: SourceHealthState;
  consecutive: number;
  lastFailure: string | null;
  changedAt: number;
  nextProbeAt: number | null;
}

const entries = new Map<string, Entry>();
let settings: SourceHealthSettings = { failingAfter: 3, probeMs: 30_000 };
let store: SourceHealthStore | null = null;
let clock: Clock = systemClock;
let log: Pick<Logger, 'warn' | 'info'> | undefined;
/** Writes not yet settled, in order per source (a later state never lands before an earlier one). */
const writing = new Map<string, Promise<void>>();

/** Where states are shared and logged, and with which thresholds (createServices: every process). */
export function shareSourceHealth(o: {
  store: SourceHealthStore | null;
  clock?: Clock;
  settings: SourceHealthSettings;
  log?: Pick<Logger, 'warn' | 'info'>;
}): void {
  store = o.store;
  clock = o.clock ?? systemClock;
  settings = o.settings;
  log = o.log ?? log;
  entries.clear();
}

/** Where the change lines go (serve and worker set the process's logger; upstreams.ts forwards it). */
export function logSourceHealthTo(logger: Pick<Logger, 'warn' | 'info'>): void {
  log = logger;
}

function entryOf(name: string): Entry {
  let e = entries.get(name);
  if (!e) {
    e = { state: 'healthy', consecutive: 0, lastFailure: null, changedAt: 0, nextProbeAt: null };
    entries.set(name, e);
  }
  return e;
}

/** A probe period, jittered ±20 % so processes and sources do not probe in step. */
function jitteredPeriod(): number {
  return Math.round(settings.probeMs * (0.8 + 0.4 * Math.random()));
}

/** An answer (any status a source gives on purpose: 2xx, 4xx) from `name`. */
export function sourceAnswered(name: string): void {
  const e = entryOf(name);
  e.consecutive = 0;
  if (e.state !== 'healthy') change(name, e, 'healthy');
}

/** A failure or timeout of `name` (5xx, 429, no answer, a body refused). */
export function sourceFailed(name: string, failure: string): void {
  const e = entryOf(name);
  e.consecutive++;
  e.lastFailure = failure;
  const next = e.consecutive >= settings.failingAfter ? 'failing' : 'degraded';
  if (next !== e.state) change(name, e, next);
}

function change(name: string, e: Entry, next: SourceHealthState): void {
  const from = e.state;
  const now = clock.now().getTime();
  e.state = next;
  e.changedAt = now;
  e.nextProbeAt = next === 'failing' ? now + jitteredPeriod() : null;
  telemetry.upstreamHealth.labels(name).set(HEALTH_GAUGE[next]);
  const line = { source: name, from, to: next, consecutiveFailures: e.consecutive, lastFailure: e.lastFailure };
  if (next === 'healthy') log?.info(line, `upstream ${name} is ${next}`);
  else log?.warn(line, `upstream ${name} is ${next}`);
  if (!store) return;
  const row: SourceHealthRow = {
    fonte: name,
    estado: next,
    falhasSeguidas: e.consecutive,
    ultimaFalha: e.lastFailure,
    mudouEm: iso(new Date(now)),
    proximaSondaEm: e.nextProbeAt === null ? null : iso(new Date(e.nextProbeAt)),
  };
  const shared = store;
  const p = (writing.get(name) ?? Promise.resolve()).then(() =>
    shared.write(row).catch((err: unknown) => log?.warn({ source: name, err: { message: (err as Error).message } }, 'source health not shared')),
  );
  writing.set(name, p);
  void p.finally(() => writing.get(name) === p && writing.delete(name));
}

/** This process's view of a source (adopting other processes' changes at each refresh). */
export function sourceHealth(name: string): { state: SourceHealthState; consecutiveFailures: number; lastFailure: string | null; changedAt: string | null } {
  const e = entries.get(name);
  if (!e) return { state: 'healthy', consecutiveFailures: 0, lastFailure: null, changedAt: null };
  return { state: e.state, consecutiveFailures: e.consecutive, lastFailure: e.lastFailure, changedAt: e.changedAt ? iso(new Date(e.changedAt)) : null };
}

/** Adopts the changes other processes shared since this one's own (no log line: theirs was written). */
export async function refreshSourceHealth(): Promise<void> {
  if (!store) return;
  for (const r of await store.read()) {
    const e = entryOf(r.fonte);
    const at = Date.parse(r.mudouEm);
    if (at <= e.changedAt) continue;
    e.state = r.estado;
    e.changedAt = at;
    e.consecutive = r.falhasSeguidas;
    e.lastFailure = r.ultimaFalha;
    e.nextProbeAt = r.proximaSondaEm === null ? null : Date.parse(r.proximaSondaEm);
    telemetry.upstreamHealth.labels(r.fonte).set(HEALTH_GAUGE[r.estado]);
  }
}

/**
 * Whether a request path may ask `name` now: always unless it is failing; a failing one once per probe
 * period, that ask claimed in the shared store (so across processes too).
 */
export async function mayAskNow(name: string): Promise<boolean> {
  const e = entries.get(name);
  if (e?.state !== 'failing') return true;
  return claim(name, e);
}

async function claim(name: string, e: Entry): Promise<boolean> {
  const now = clock.now().getTime();
  if (e.nextProbeAt !== null && e.nextProbeAt > now) return false;
  const next = now + jitteredPeriod();
  if (store) {
    await writing.get(name);
    if (!(await store.claimProbe(name, iso(new Date(now)), iso(new Date(next))))) {
      e.nextProbeAt = next;
      return false;
    }
  }
  e.nextProbeAt = next;
  return true;
}

/**
 * One probe of a failing source: a GET of its base URL, null when it answered, else the failure as the
 * connectors' classifier names it. Given by whoever starts the prober (app.ts, cli/serve.ts) from the
 * layer that speaks HTTP to sources (sources/http/probe.ts): platform never imports sources.
 */
export type SourceProbe = (name: string, url: string, timeoutMs: number) => Promise<{ failure: string; message: string } | null>;

/**
 * The background prober: every tick it adopts the shared states, then asks each failing source whose
 * probe is due (claimed, so one process per period) with the probe (a GET of its base URL): any answer
 * a server gives on purpose makes it healthy (upstreams.ts hears it like any request), silence keeps it
 * failing.
 */
export function startSourceProber(o: { baseUrlOf(name: string): string | undefined; probe: SourceProbe; tickMs?: number; timeoutMs?: number }): {
  stop(): Promise<void>;
} {
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const tickMs = o.tickMs ?? Math.max(250, Math.min(5_000, Math.round(settings.probeMs / 4)));
  const timeoutMs = o.timeoutMs ?? Math.min(10_000, settings.probeMs);
  const tick = async () => {
    await refreshSourceHealth();
    for (const [name, e] of entries) {
      if (stopped || e.state !== 'failing') continue;
      const url = o.baseUrlOf(name);
      if (!url || !(await claim(name, e))) continue;
      log?.info({ source: name }, `probing failing upstream ${name}`);
      telemetry.upstreamProbes.labels(name).inc();
      const failed = await o.probe(name, url, timeoutMs);
      if (failed) log?.info({ source: name, failure: failed.failure }, `failing upstream ${name} still does not answer: ${failed.message}`);
    }
  };
  const timer = setInterval(() => {
    running = running.then(tick).catch((err: unknown) => log?.warn({ err: { message: (err as Error).message } }, 'source prober tick failed'));
  }, tickMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
