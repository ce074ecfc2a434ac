/**
 * Same-day news of monitored cases from DJEN (issue 43 item 3; DESIGN.md §5, "Freshness"), at each
 * monitor's own frequency (issue 51 item 5). DataJud lags the courts by days, DJEN publishes the
 * courts' communications the day they are sent. Each case monitor's number is a PROCESSO pattern of
 * the publication matcher (monitor-index.ts), so whatever ingests a communication of the case (a daily
 * caderno, a publication monitor's query, a lawyer lookup) announces it to the monitor as
 * `diario_movimentacao_nova` in that same ingest. For the cases no caderno covers, the publication
 * cycle also asks DJEN by number:
 * - when due: each monitor keeps its number's next ask (`case_monitors.proxima_diario_em`, migration
 *   0027), one period of its frequency (HORARIA one TRAMITA_MONITOR_INTERVAL_MS, DIARIA 24…) after the
 *   number's last ask; a number is due when any live monitor of it is, so the shortest frequency among
 *   the accounts that follow it sets its pace, and it is asked once for all of them;
 * - how many: at most what DJEN_SHARE of DJEN's budget (DJEN_REQUESTS_PER_MINUTE) serves since the
 *   previous run (CaseAskPace), and within the run's budget shared with the cadernos and the publication
 *   monitors (cycle-budget.ts), so callers' own DJEN lookups keep the rest;
 * - in which order: the least recently asked first (never asked first), the time of the last ask kept
 *   in `publication_syncs` (`diario:<number>`); a number left over stays first in line.
 * Each query reads from three days before the previous one (DJEN backfills late). A failed query is
 * counted and named (observability/auxiliary.ts) and its number stays due. When the numbers need more
 * asks than the share makes in one HORARIA period, monitors hear DJEN late: gauges say so and a warn line
 * (at most one a period) tells the operator to ingest the cadernos (TRAMITA_DJEN_CADERNOS; CaseAskPace).
 */
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import { iso } from '../../platform/clock.ts';
import { brasiliaDayBefore } from '../../platform/format.ts';
import { activeAccountIds } from '../../platform/monitoring/active-accounts.ts';
import { cycleMs, FREQUENCIES, FREQUENCY_UNITS } from '../../platform/monitoring/frequency.ts';
import { auxiliaryFailed } from '../../platform/observability/auxiliary.ts';
import { telemetry } from '../../platform/observability/telemetry.ts';
import type { Services } from '../../platform/services.ts';
import { scheduleNext } from '../monitors/parts.ts';
import type { CycleBudget } from './cycle-budget.ts';
import { RECENT_DAYS } from './history.ts';
import type { PublicationIngest } from './ingest.ts';
import { BACKFILL_DAYS } from './polling.ts';

/** Pages of one case's query: a case has at most a few hundred communications in a few days. */
const MAX_PAGES = 5;
/**
 * The share of DJEN's budget monitored numbers may take: the other half keeps callers' lookups
 * (a case's addressees, its gazettes, lawyers' searches) from queueing behind the monitors.
 */
export const DJEN_SHARE = 0.5;

const syncKey = (numeroCnj: string) => `diario:${numeroCnj}`;

type PollConfig = Pick<Config, 'djenRequestsPerMinute' | 'monitorIntervalMs'>;

/** Numbers the monitors may ask a minute: DJEN_SHARE of DJEN's budget (a query is one request, but for a case with over 100 communications in its window). */
export function asksPerMinute(config: PollConfig): number {
  return config.djenRequestsPerMinute * DJEN_SHARE;
}

/** Numbers asked in one HORARIA period (one TRAMITA_MONITOR_INTERVAL_MS): what the monitored numbers may need before they hear DJEN late. */
export function asksPerPeriod(config: PollConfig): number {
  return (asksPerMinute(config) * config.monitorIntervalMs) / 60_000;
}

/** A run after a long pause (a worker down, a long cadernos run) asks at most this many cycles' worth at once. */
const MAX_CYCLES_OWED = 5;

export interface CasePollSummary {
  /** Distinct numbers asked. */
  queries: number;
  failed: number;
  /** `diario_movimentacao_nova` events the answers brought (the ingest's). */
  events: number;
  /** Numbers still due after the run (0 when none was due). */
  due: number;
}

/** The live case monitors (of active accounts) of courts no caderno covers: the ones whose numbers are asked of DJEN. */
function askingMonitors(s: Services, covered: ReadonlySet<string>) {
  return s.db
    .selectFrom('case_monitors as m')
    .where('m.status', '=', 'ATIVO')
    .where('m.account_id', 'in', activeAccountIds(s.db))
    .$if(covered.size > 0, (q) => q.where('m.tribunal', 'not in', [...covered]));
}

/** Those whose number's DJEN ask is due by `now`. */
const dueMonitors = (s: Services, now: Date, covered: ReadonlySet<string>) => askingMonitors(s, covered).where('m.proxima_diario_em', '<=', iso(now));

/** Up to `limit` distinct due numbers, the least recently asked first (never asked first). */
async function dueNumbers(s: Services, now: Date, covered: ReadonlySet<string>, limit: number) {
  return dueMonitors(s, now, covered)
    .leftJoin('publication_syncs as p', (j) => j.on('p.chave', '=', sql<string>`${'diario:'} || m.numero_cnj`))
    .select(['m.numero_cnj', 'p.sincronizado_em'])
    .select((eb) => eb.fn.min('m.tribunal').as('tribunal'))
    .groupBy(['m.numero_cnj', 'p.sincronizado_em'])
    .orderBy(sql`p.sincronizado_em is not null`)
    .orderBy('p.sincronizado_em')
    .orderBy('m.numero_cnj')
    .limit(limit)
    .execute();
}

async function dueCount(s: Services, now: Date, covered: ReadonlySet<string>): Promise<number> {
  const row = await dueMonitors(s, now, covered)
    .select((eb) => eb.fn.count<number | string>('m.numero_cnj').distinct().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Asks the monitored numbers need in one HORARIA period: each number once per the shortest period among
 * its live monitors, so H + D/24 + S/168 + M/720 for H numbers followed hourly at best, D daily… (one
 * scan of the live monitors: measured once a period).
 */
async function asksNeededPerPeriod(s: Services, covered: ReadonlySet<string>): Promise<number> {
  const units = sql<number>`min(case m.frequencia ${sql.join(
    // Literals: PostgreSQL would type parameters here as text, and min() would then compare them as text.
    FREQUENCIES.map((f) => sql`when ${sql.lit(f)} then ${sql.lit(FREQUENCY_UNITS[f])}`),
    sql` `,
  )} end)`;
  const perNumber = askingMonitors(s, covered)
    .select(['m.numero_cnj', units.as('unidades')])
    .groupBy('m.numero_cnj');
  const rows = await s.db
    .selectFrom(perNumber.as('n'))
    .select(['n.unidades', (eb) => eb.fn.countAll<number | string>().as('numeros')])
    .groupBy('n.unidades')
    .execute();
  return rows.reduce((sum, r) => sum + Number(r.numeros) / Number(r.unidades), 0);
}

/**
 * The pace of the asks by number, kept by the publication cycle's job in each process, and the operator's
 * view of it.
 * - Each run asks what asksPerMinute allows for the time since the previous run (a run starts one cycle
 *   after the previous one ended, so a fixed count per run would fall short of the share), at most
 *   MAX_CYCLES_OWED cycles' worth, the fraction of an ask carried over; allowance not used is not banked.
 * - After each run, the numbers left due (a gauge); once a period, the asks the numbers need in one
 *   HORARIA period beside what the share asks (a gauge each). When the need or the backlog exceeds what
 *   the share asks in one period, monitors hear DJEN late: one warn line a period tells the operator to
 *   ingest the cadernos.
 */
export class CaseAskPace {
  #lastRunAt: number | null = null;
  #carry = 0;
  #measuredAt: number | null = null;
  #needed = 0;
  #warnedAt: number | null = null;

  /** Numbers this run may ask. */
  allowance(config: PollConfig, now: Date): number {
    const cycle = cycleMs(config.monitorIntervalMs);
    const elapsed = this.#lastRunAt === null ? cycle : Math.min(Math.max(0, now.getTime() - this.#lastRunAt), MAX_CYCLES_OWED * cycle);
    this.#lastRunAt = now.getTime();
    const allowance = (asksPerMinute(config) * elapsed) / 60_000 + this.#carry;
    const asks = Math.floor(allowance);
    this.#carry = allowance - asks;
    return asks;
  }

  async note(s: Services, covered: ReadonlySet<string>, due: number, now: Date, log: Logger): Promise<void> {
    const config = s.config;
    const perPeriod = asksPerPeriod(config);
    const period = config.monitorIntervalMs;
    telemetry.djenCaseNumbersDue.set(due);
    if (this.#measuredAt === null || now.getTime() - this.#measuredAt >= period) {
      this.#measuredAt = now.getTime();
      this.#needed = await asksNeededPerPeriod(s, covered);
      telemetry.djenCaseAsksPerPeriod.labels('needed').set(this.#needed);
      telemetry.djenCaseAsksPerPeriod.labels('budget').set(perPeriod);
    }
    if (this.#needed <= perPeriod && due <= perPeriod) return;
    if (this.#warnedAt !== null && now.getTime() - this.#warnedAt < period) return;
    this.#warnedAt = now.getTime();
    log.warn(
      { needed: Math.ceil(this.#needed), perPeriod: Math.floor(perPeriod), due, djenRequestsPerMinute: config.djenRequestsPerMinute },
      `DJEN: the monitored numbers need ${Math.ceil(this.#needed)} asks a period and ${due} are due, more than DJEN's budget asks ` +
        `in one period (${Math.floor(perPeriod)}); case monitors hear DJEN late: ingest the cadernos of their courts (TRAMITA_DJEN_CADERNOS)`,
    );
  }
}

/** One run of the publication cycle: its time, its DJEN budget, the courts whose caderno it has, its log. */
export interface CycleRun {
  now: Date;
  budget: CycleBudget;
  covered: ReadonlySet<string>;
  log: Logger;
  pace: CaseAskPace;
}

/** Asks DJEN for the due monitored numbers within the run's budget and ingests the answers. */
export async function pollCaseNumbers(s: Services, ingest: PublicationIngest, { now, budget, covered, log, pace }: CycleRun): Promise<CasePollSummary> {
  const summary: CasePollSummary = { queries: 0, failed: 0, events: 0, due: 0 };
  const limit = Math.min(pace.allowance(s.config, now), budget.max - budget.used);
  const due = limit > 0 ? await dueNumbers(s, now, covered, limit) : [];
  const source = s.sources.publications;
  for (const n of due) {
    if (!budget.take()) break;
    summary.queries++;
    const desde = n.sincronizado_em ? brasiliaDayBefore(new Date(n.sincronizado_em), BACKFILL_DAYS) : brasiliaDayBefore(now, RECENT_DAYS);
    try {
      const found = await source.search({ numeroCnj: n.numero_cnj, desde, ate: brasiliaDayBefore(now) }, { maxPages: MAX_PAGES });
      summary.events += (await ingest.ingest(found.items, source.info)).eventos;
    } catch (err) {
      budget.noteFailure(err);
      summary.failed++;
      auxiliaryFailed(log, { tribunal: n.tribunal, step: 'diario', err, retry: 'the number is asked again at the next cycle' });
      continue;
    }
    // The ask's time and its monitors' next asks together: a crash between them neither loses an ask nor repeats it.
    await s.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('publication_syncs')
        .values({ chave: syncKey(n.numero_cnj), sincronizado_em: iso(now) })
        .onConflict((oc) => oc.column('chave').doUpdateSet({ sincronizado_em: iso(now) }))
        .execute();
      await scheduleNext(trx, 'proxima_diario_em', [n.numero_cnj], s.config.monitorIntervalMs, now);
    });
  }
  // Fewer were due than the run could ask: what is left is what was not asked, or failed.
  summary.due = due.length < limit ? due.length - (summary.queries - summary.failed) : await dueCount(s, now, covered);
  await pace.note(s, covered, summary.due, now, log);
  return summary;
}
