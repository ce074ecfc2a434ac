/**
 * The case monitor cycle (spec §4.8, §6.4): one recurring job, `monitoramentos.processos.ciclo`, that
 * every `cycleMs(TRAMITA_MONITOR_INTERVAL_MS)` first renews the monitors whose period ended
 * (platform/monitoring/renewal.ts, CASE_MONITORS), then checks the ones that are due.
 *
 * Checks are batched per DataJud alias: ONE `fetchCases` per alias for all its due numbers (the
 * connector packs up to DATAJUD_BATCH_SIZE numbers into each upstream request), which keeps a large
 * deployment at a few upstream requests per thousand monitored cases. What comes back is saved through
 * the case service, so the store records `novo_processo` / `nova_movimentacao` itself and the monitors'
 * subscriptions carry the movement news. Then each monitor's row is updated with its own events, in one
 * transaction: `processo_encontrado` / `processo_nao_encontrado` on a change of situation,
 * `atualizacao_processo_concluida` when the check stored new movements, `processo_verificado` always.
 * An upstream failure records `ultimo_erro` and nothing else (no events); those monitors stay due and
 * are tried again at the next cycle, while the other aliases go on.
 *
 * Beside DataJud, which lags the courts by days (issue 43 item 3): the monitored cases of courts whose
 * consultation is enabled have their pages read on their own schedule (court-pages.ts), and a case
 * whose check stored new movements has its parties asked again; both by the enrichment job, auxiliary.
 * DJEN's communications of monitored cases reach them through the publication cycle
 * (publications/case-polling.ts).
 */
import { backgroundFailureLevel } from '../../platform/db/outage.ts';
import { telemetry } from '../../platform/observability/telemetry.ts';
import type { Logger } from 'pino';
import { iso } from '../../platform/clock.ts';
import type { EventData, EventOf } from '../../platform/events/catalog.ts';
import type { JobHandler } from '../../platform/jobs/worker.ts';
import type { Services } from '../../platform/services.ts';
import type { CaseRecord } from '../../platform/ports/case-metadata.ts';
import { SourceError } from '../../platform/ports/source-error.ts';
import type { CaseParts } from '../processes/parts.ts';
import { renewAndCheckJob } from '../../platform/monitoring/renewal.ts';
import { CASE_MONITORS } from './lifecycle.ts';
import { monitorAudience, movementTotals, type MonitorRow } from './store.ts';
import { dueForCheck, recordCheck, recordFailedCheck } from '../../platform/monitoring/checks.ts';
import { readCourtPages } from './court-pages.ts';

/** Most checks in one cycle; the most overdue go first and the rest stay due for the next one. */
const MAX_CHECKS_PER_RUN = 10_000;
/** Aliases asked at the same time (the connector's shared budget still paces the requests). */
const ALIAS_CONCURRENCY = 4;

type Situacao = MonitorRow['situacao'];

export function monitorCycleJob(s: Services, cases: CaseParts): JobHandler {
  return renewAndCheckJob(s, CASE_MONITORS, async (now, log) => {
    const checks = await checkDue(s, cases, now, log);
    return { work: checks.aliases + checks.pages, summary: { ...checks } };
  });
}

export interface CheckSummary {
  checked: number;
  /** Aliases asked (one fetchCases each). */
  aliases: number;
  /** Cases whose court's page is enqueued for reading this cycle (consultation courts, court-pages.ts). */
  pages: number;
  /** Aliases whose fetch failed: their monitors are tried again next cycle. */
  failedAliases: number;
}

/** Checks the ATIVO monitors due by `now`, one upstream call per alias. */
export async function checkDue(s: Services, cases: CaseParts, now: Date, log: Logger): Promise<CheckSummary> {
  const due = await dueForCheck<MonitorRow>(s.db, CASE_MONITORS.table, iso(now), MAX_CHECKS_PER_RUN);
  const byAlias = Map.groupBy(due, (m) => m.datajud_alias);
  const summary: CheckSummary = { checked: 0, aliases: byAlias.size, failedAliases: 0, pages: 0 };
  await forEachConcurrently([...byAlias], ALIAS_CONCURRENCY, async ([alias, monitors]) => {
    let checked: number | null = null;
    try {
      checked = await checkAlias(s, cases, alias, monitors, now, log);
    } catch (err) {
      // A storage failure while completing checks: the rest stay due; other aliases go on.
      log[backgroundFailureLevel(err)]({ err, alias }, 'case monitor check failed');
    }
    if (checked === null) summary.failedAliases++;
    else {
      summary.checked += checked;
      telemetry.monitorChecks.labels('processos', 'ok').inc(checked);
    }
  });
  summary.pages = await readCourtPages(s, cases, now);
  return summary;
}

/** One alias: fetch, save, then complete each monitor's check. Returns how many completed, or null when the fetch failed. */
async function checkAlias(s: Services, cases: CaseParts, alias: string, monitors: MonitorRow[], now: Date, log: Logger): Promise<number | null> {
  const numbers = [...new Set(monitors.map((m) => m.numero_cnj))];
  const before = await movementTotals(s.db, numbers);
  let found: Map<string, CaseRecord>;
  try {
    found = await s.sources.cases.fetchCases(numbers);
    await cases.service.save(found.values());
  } catch (err) {
    if (err instanceof SourceError) log.warn({ alias, monitors: monitors.length, failure: err.failure }, 'case monitor check: upstream failed');
    else log[backgroundFailureLevel(err)]({ err, alias }, 'case monitor check failed');
    await recordFailedCheck(s.db, 'case_monitors', monitors, err, now);
    telemetry.monitorChecks.labels('processos', 'failed').inc(monitors.length);
    return null;
  }
  const after = await movementTotals(s.db, [...found.keys()]);
  // A case stored for the first time brings no news: its movements are the baseline.
  const newMovements = (n: string) => (found.has(n) && before.has(n) ? Math.max(0, after.get(n)! - before.get(n)!) : 0);
  // New movements often come with a new lawyer or party: the case's details are asked again, in a job of
  // their own (auxiliary: a failing DJEN or consultation retries there and never holds the news back).
  for (const n of numbers) if (newMovements(n) > 0) await cases.service.scheduleDetails(n, s.db, { documents: false, afterFailure: false });
  let checked = 0;
  for (const m of monitors) {
    if (await completeCheck(s, m, { found: found.has(m.numero_cnj), newMovements: newMovements(m.numero_cnj) }, now)) checked++;
  }
  return checked;
}

/**
 * The row's new state and the monitor's events, together. Nothing happens when the row changed since
 * it was read (removed, suspended, or already checked by another run): no events for a stale check.
 */
async function completeCheck(s: Services, m: MonitorRow, r: { found: boolean; newMovements: number }, now: Date): Promise<boolean> {
  const situacao: Situacao = r.found ? 'ENCONTRADO' : 'NAO_ENCONTRADO';
  return s.db.transaction().execute(async (trx) => {
    if (!(await recordCheck(trx, 'case_monitors', m, { situacao, novidades: r.newMovements }, now, s.config.monitorIntervalMs))) return false;
    const common = { numeroCnj: m.numero_cnj, tribunal: m.tribunal, monitorId: m.id, verificadoEm: iso(now) };
    for (const e of checkEvents(m.situacao, situacao, r.newMovements, common)) {
      await s.events.record(trx, {
        ...e,
        numeroCnj: m.numero_cnj,
        tribunal: m.tribunal,
        source: s.sources.cases.info.name,
        audience: monitorAudience(m),
      });
    }
    return true;
  });
}

/** The monitor's own events for one completed check (spec §6.4), in the order they are recorded. */
export function checkEvents(
  was: Situacao,
  is: Situacao,
  newMovements: number,
  common: EventData<'processo_encontrado'>,
): EventOf<'processo_encontrado' | 'processo_nao_encontrado' | 'atualizacao_processo_concluida' | 'processo_verificado'>[] {
  const events: ReturnType<typeof checkEvents> = [];
  if (is === 'ENCONTRADO' && was !== 'ENCONTRADO') events.push({ kind: 'processo_encontrado', data: common });
  // Once per transition: a case still missing at the next check is not announced again.
  if (is === 'NAO_ENCONTRADO' && was !== 'NAO_ENCONTRADO') events.push({ kind: 'processo_nao_encontrado', data: common });
  if (newMovements > 0) events.push({ kind: 'atualizacao_processo_concluida', data: { ...common, novasMovimentacoes: newMovements } });
  events.push({ kind: 'processo_verificado', data: { ...common, novasMovimentacoes: newMovements, situacao: is } });
  return events;
}

/** Runs `fn` over `items` with at most `limit` at a time. */
async function forEachConcurrently<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}
