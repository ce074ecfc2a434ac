/**
 * Targeted DJEN queries for the ATIVO publication and intimação monitors that are due. Monitors are
 * grouped by what DJEN is asked (OAB → `oab`, TERMO → `texto`, PROCESSO → `numeroCnj`, plus `tribunal`
 * when they all name the same single court), so N accounts following one OAB cost one query. The
 * answer is ingested (ingest.ts matches it against EVERY live monitor and emits the events; nothing
 * here emits any), then the group is marked checked.
 *
 * Window: DJEN backfills publications days late (djen.md §5.6), so a check reads from 3 days before
 * the previous one; a first check (or the first since a reactivation) reads the last RECENT_DAYS, so
 * `GET /v1/intimacoes` has the recent history at once. A monitor whose courts' cadernos are ingested
 * (cadernos.ts) needs no query after its first check: the caderno brings its publications.
 */
import { backgroundFailureLevel } from '../../platform/db/outage.ts';
import { telemetry } from '../../platform/observability/telemetry.ts';
import type { Logger } from 'pino';
import { brasiliaDayBefore } from '../../platform/format.ts';
import { iso } from '../../platform/clock.ts';
import { checkCompleted, dueForCheck, failedCheckMessage } from '../../platform/monitoring/checks.ts';
import type { Services } from '../../platform/services.ts';
import { SourceError } from '../../platform/ports/source-error.ts';
import type { PublicationQuery } from '../../platform/ports/publications.ts';
import { cadernoCourts } from './cadernos.ts';
import type { CycleBudget } from './cycle-budget.ts';
import { parseOabKey, RECENT_DAYS } from './history.ts';
import type { PublicationIngest } from './ingest.ts';
import { watchesDjen, type PublicationMonitorRow } from '../publication-monitors/parts.ts';
import { markMonitorChecks } from './polling-store.ts';

/** DJEN publishes late: each check reads again the days before the previous one (djen.md §5.6). */
export const BACKFILL_DAYS = 3;
/** Most due monitors read in one run; the most overdue first, the rest stay due. */
const MAX_DUE_PER_RUN = 10_000;
/** Pages of one query (per OAB spelling): bounds a run's time on a term that matches thousands. */
const MAX_PAGES_PER_QUERY = 20;

export interface PollSummary {
  /** Monitors whose check completed (asked, or covered by cadernos). */
  checked: number;
  /** Distinct DJEN queries made. */
  queries: number;
  failedQueries: number;
  /** Due monitors left for the next run (budget spent, or the run stopped early). */
  deferred: number;
}

/** Checks the due monitors, one query per distinct target, within the run's budget. */
export async function pollDue(
  s: Services,
  ingest: PublicationIngest,
  now: Date,
  budget: CycleBudget,
  covered: ReadonlySet<string>,
  log: Logger,
): Promise<PollSummary> {
  const summary: PollSummary = { checked: 0, queries: 0, failedQueries: 0, deferred: 0 };
  const due = await dueForCheck<PublicationMonitorRow>(s.db, 'publication_monitors', iso(now), MAX_DUE_PER_RUN);
  // A monitor of every court is covered only when every court's caderno is read.
  const everyCourt = s.config.djenCadernos.includes('all') && cadernoCourts(s.config.djenCadernos).every((c) => covered.has(c));
  // A monitor that does not watch DJEN (fontes: only the STF or electoral gazettes) hears the gazette ingest alone.
  const [byCaderno, toAsk] = partition(due, (m) => !watchesDjen(m) || isCovered(m, covered, everyCourt));
  await markChecked(s, byCaderno, now);
  summary.checked += byCaderno.length;
  const groups = [...Map.groupBy(toAsk, queryKey).values()];
  for (const [i, monitors] of groups.entries()) {
    if (!budget.take()) {
      summary.deferred += groups.slice(i).reduce((n, g) => n + g.length, 0);
      break;
    }
    summary.queries++;
    if (await checkGroup(s, ingest, monitors, now, budget, log)) summary.checked += monitors.length;
    else summary.failedQueries++;
  }
  return summary;
}

/** One query for a group, its answer ingested, the group marked checked; false (and `ultimo_erro`) when it failed. */
async function checkGroup(
  s: Services,
  ingest: PublicationIngest,
  monitors: PublicationMonitorRow[],
  now: Date,
  budget: CycleBudget,
  log: Logger,
): Promise<boolean> {
  const source = s.sources.publications;
  try {
    const found = await source.search(queryOf(monitors, now), { maxPages: MAX_PAGES_PER_QUERY });
    await ingest.ingest(found.items, source.info);
  } catch (err) {
    budget.noteFailure(err);
    if (err instanceof SourceError)
      log.warn({ key: queryKey(monitors[0]), monitors: monitors.length, failure: err.failure }, 'publication monitor check: DJEN failed');
    else log[backgroundFailureLevel(err)]({ err, key: queryKey(monitors[0]) }, 'publication monitor check failed');
    await markMonitorChecks(
      s.db,
      monitors.map((m) => m.id),
      // Left due (the next run tries again), with the reason it was not checked.
      { ultimo_erro: failedCheckMessage(err, now) },
    );
    telemetry.monitorChecks.labels('publicacoes', 'failed').inc(monitors.length);
    return false;
  }
  await markChecked(s, monitors, now);
  telemetry.monitorChecks.labels('publicacoes', 'ok').inc(monitors.length);
  return true;
}

/** What DJEN is asked for this monitor: monitors with the same key share one query. */
export function queryKey(m: Pick<PublicationMonitorRow, 'tipo' | 'valor'>): string {
  return `${m.tipo}:${m.valor}`;
}

/** The query of a group: its target, its one court when all name the same single one, and the widest window any of them needs. */
export function queryOf(monitors: readonly PublicationMonitorRow[], now: Date): PublicationQuery {
  const m = monitors[0];
  const target: PublicationQuery = m.tipo === 'OAB' ? { oab: parseOabKey(m.valor) } : m.tipo === 'PROCESSO' ? { numeroCnj: m.valor } : { texto: m.termo };
  const courts = new Set(monitors.map((x) => x.tribunais));
  const only = courts.size === 1 && m.tribunais !== null ? (JSON.parse(m.tribunais) as string[]) : [];
  const desde = monitors.map((x) => windowStart(x, now)).sort()[0];
  return { ...target, ...(only.length === 1 ? { tribunal: only[0] } : {}), desde, ate: brasiliaDayBefore(now) };
}

type CheckTimes = Pick<PublicationMonitorRow, 'ultima_verificacao_em' | 'desde'>;

/** Never checked, or not since `desde` moved (a reactivation): its recent history is not read yet. */
function isFirstCheck(m: CheckTimes): boolean {
  return !(m.ultima_verificacao_em && m.ultima_verificacao_em >= m.desde);
}

/** From 3 days before the previous check; the recent history on a first check. */
export function windowStart(m: CheckTimes, now: Date): string {
  if (isFirstCheck(m)) return brasiliaDayBefore(now, RECENT_DAYS);
  return brasiliaDayBefore(new Date(m.ultima_verificacao_em!), BACKFILL_DAYS);
}

/** Past its first check, and every court it follows has its caderno ingested (`everyCourt` for a monitor of all courts). */
function isCovered(m: PublicationMonitorRow, covered: ReadonlySet<string>, everyCourt: boolean): boolean {
  if (isFirstCheck(m)) return false;
  if (m.tribunais === null) return everyCourt;
  return (JSON.parse(m.tribunais) as string[]).every((c) => covered.has(c));
}

/** Completed: next check one interval from now. Not `atualizado_em`: a check changes nothing the matcher reads. */
async function markChecked(s: Services, monitors: readonly PublicationMonitorRow[], now: Date): Promise<void> {
  await markMonitorChecks(
    s.db,
    monitors.map((m) => m.id),
    checkCompleted(now, s.config.monitorIntervalMs),
  );
}

function partition<T>(items: readonly T[], test: (item: T) => boolean): [T[], T[]] {
  const yes: T[] = [];
  const no: T[] = [];
  for (const item of items) (test(item) ? yes : no).push(item);
  return [yes, no];
}
