/**
 * Renewals of paid monitors and radars, whatever their table: a monitor is paid per period of 30 days
 * (frequency.ts `RENEWAL_PERIOD_MS`), at creation and then here, once per period. Each renewal is one
 * transaction: the row moves to the next period only if still in the status and period we read (a
 * second worker finds nothing to do), and the ledger's UNIQUE(account_id, operation_id), with operation
 * id `<monitor id>:<period>`, makes a second charge of one period impossible anyway. A balance that no
 * longer covers the price suspends the monitor (SUSPENSO: no checks, no charges, no news); what happens
 * next is the plan's suspension policy.
 */
import { backgroundFailureLevel } from '../db/outage.ts';
import { telemetry } from '../observability/telemetry.ts';
import type { Kysely, Transaction } from 'kysely';
import type { Logger } from 'pino';
import { jobOrigin, type DebitLine } from '../billing/ledger.ts';
import { formatReais } from '../format.ts';
import { addMs, iso } from '../clock.ts';
import type { DB } from '../db/schema.ts';
import { isApiError } from '../errors.ts';
import type { Services } from '../services.ts';
import { activeAccountIds } from './active-accounts.ts';
import { cycleMs, RENEWAL_PERIOD_MS } from './frequency.ts';
import { jobHandler, type RecurringJob } from '../jobs/job-type.ts';
import type { JobHandler } from '../jobs/worker.ts';
import { paidMonitors, type PaidMonitorRow, type PaidMonitorTable } from './tables.ts';

/**
 * What a renewal the balance does not cover leads to:
 * - `until-created-again` (monitors): SUSPENSO with the reason in `ultimo_erro`; renewals stop until
 *   the integrator creates it again (POST), which starts a new paid period;
 * - `retried-each-cycle` (radars): SUSPENSO; every later cycle tries the renewal again, and the first
 *   one paid (a top-up) makes it ATIVO again, in a new period.
 */
export type SuspensionPolicy = 'until-created-again' | 'retried-each-cycle';

/**
 * The debit of one paid period: operation id `<monitor id>:<period>`, so the ledger's
 * UNIQUE(account_id, operation_id) makes a second charge of one period impossible.
 */
export function periodDebit(m: Pick<PaidMonitorRow, 'id' | 'periodo' | 'preco_centavos'>): DebitLine {
  return { operationId: `${m.id}:${m.periodo}`, centavos: m.preco_centavos };
}

export interface RenewalPlan<R extends PaidMonitorRow> {
  table: PaidMonitorTable;
  /** What the log says it renews ("case monitor"). */
  label: string;
  /** The recurring job that renews and checks (its kind is what the renewal's search log names as its origin). */
  job: RecurringJob;
  /** The price table's query type of the debit. */
  queryType(m: R): string;
  /**
   * Whether moving to the next period stamps `atualizado_em`. Publication monitors do not: their
   * matcher is rebuilt whenever it changes (publication-monitors/monitor-index.ts), and a new period changes
   * nothing it matches.
   */
  stampsPeriod: boolean;
  suspension: SuspensionPolicy;
  /** More to undo when suspending, in the suspension's transaction (a case monitor drops its subscription). */
  onSuspend?(trx: Transaction<DB>, m: R): Promise<void>;
}

export interface RenewalSummary {
  renewed: number;
  suspended: number;
  /** Renewals that failed unexpectedly: nothing was charged, they are tried again next cycle. */
  failedRenewals: number;
}

/** What a cycle's checks did: `work` (how many lookups or checks) makes the cycle's log line info rather than debug. */
export interface CheckReport {
  work: number;
  summary: Record<string, unknown>;
}

/**
 * The recurring job of one kind (`plan.job`): every cycleMs(TRAMITA_MONITOR_INTERVAL_MS), renew
 * the periods that ended, then run the kind's checks; one log line per cycle.
 */
export function renewAndCheckJob<R extends PaidMonitorRow>(
  s: Services,
  plan: RenewalPlan<R>,
  check: (now: Date, log: Logger) => Promise<CheckReport>,
): JobHandler {
  return jobHandler(plan.job, {
    async run(_payload, { clock, log }) {
      const now = clock.now();
      const renewals = await renewDue(s, plan, now, log);
      const checks = await check(now, log);
      const busy = checks.work + renewals.renewed + renewals.suspended + renewals.failedRenewals > 0;
      log[busy ? 'info' : 'debug']({ ...checks.summary, ...renewals }, `${plan.label} cycle`);
      return addMs(clock.now(), cycleMs(s.config.monitorIntervalMs));
    },
  });
}

/** Most renewals handled in one cycle; the rest wait for the next one. */
const MAX_RENEWALS_PER_RUN = 10_000;

/** The statuses a renewal takes a row from: a suspended radar's renewal is tried again. */
const renewedFrom = (p: SuspensionPolicy) => (p === 'retried-each-cycle' ? ['ATIVO', 'SUSPENSO'] : ['ATIVO']);

/** Charges every monitor of the plan's table whose period ended by `now` (ATIVO, or SUSPENSO when retried), or suspends it. */
export async function renewDue<R extends PaidMonitorRow>(s: Services, plan: RenewalPlan<R>, now: Date, log: Logger): Promise<RenewalSummary> {
  const summary: RenewalSummary = { renewed: 0, suspended: 0, failedRenewals: 0 };
  for (const m of await dueForRenewal<R>(s.db, plan, iso(now))) {
    try {
      if (await renewOne(s, plan, m, now)) {
        summary.renewed++;
        telemetry.renewals.labels(plan.table, 'charged').inc();
      }
    } catch (err) {
      if (isApiError(err) && err.code === 'INSUFFICIENT_CREDITS') {
        if (await suspend(s, plan, m, now)) {
          summary.suspended++;
          telemetry.renewals.labels(plan.table, 'suspended').inc();
          log.warn(
            { monitor: m.id, account: m.account_id, kind: plan.table, priceCentavos: m.preco_centavos },
            `${plan.label} suspended: the balance did not cover its renewal`,
          );
        }
        continue;
      }
      summary.failedRenewals++;
      telemetry.renewals.labels(plan.table, 'failed').inc();
      log[backgroundFailureLevel(err)]({ err, monitor: m.id }, `${plan.label} renewal failed`);
    }
  }
  return summary;
}

/** Monitors (of active accounts) whose period ends by `now`, the most overdue first. */
async function dueForRenewal<R extends PaidMonitorRow>(db: Kysely<DB>, plan: RenewalPlan<R>, now: string): Promise<R[]> {
  const rows = await paidMonitors(db)
    .selectFrom(plan.table)
    .selectAll()
    .where('status', 'in', renewedFrom(plan.suspension))
    .where('proxima_cobranca_em', '<=', now)
    .where('account_id', 'in', activeAccountIds(db))
    .orderBy('proxima_cobranca_em')
    .limit(MAX_RENEWALS_PER_RUN)
    .execute();
  return rows as R[];
}

/** The next period and its charge, together; false when another worker renewed (or someone removed) it first. */
async function renewOne<R extends PaidMonitorRow>(s: Services, plan: RenewalPlan<R>, m: R, now: Date): Promise<boolean> {
  const periodo = m.periodo + 1;
  return s.db.transaction().execute(async (trx) => {
    const set = { periodo, proxima_cobranca_em: nextChargeAt(m, now), status: 'ATIVO', ...(plan.stampsPeriod ? { atualizado_em: iso(now) } : {}) };
    const moved = await paidMonitors(trx)
      .updateTable(plan.table)
      .set(set)
      .where('id', '=', m.id)
      .where('status', 'in', renewedFrom(plan.suspension))
      .where('periodo', '=', m.periodo)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return false;
    if (m.preco_centavos > 0) {
      const debit = periodDebit({ ...m, periodo });
      await s.ledger.chargeIn(trx, {
        accountId: m.account_id,
        queryType: plan.queryType(m),
        origin: jobOrigin(plan.job.kind, debit.operationId),
        debits: [debit],
      });
    }
    return true;
  });
}

/** Periods follow each other; after an outage (cycle not run for a while) the new one starts now, never in the past. */
function nextChargeAt(m: PaidMonitorRow, now: Date): string {
  const following = addMs(new Date(m.proxima_cobranca_em), RENEWAL_PERIOD_MS);
  return iso(following > now ? following : addMs(now, RENEWAL_PERIOD_MS));
}

/** SUSPENSO; false when it already was (a retried renewal), or another worker renewed or someone removed it first. */
async function suspend<R extends PaidMonitorRow>(s: Services, plan: RenewalPlan<R>, m: R, now: Date): Promise<boolean> {
  const reason =
    `Suspended at ${iso(now)}: the balance did not cover the renewal (${formatReais(m.preco_centavos)}) of period ${m.periodo + 1}. ` +
    'Add credits and create the monitor again (POST) to reactivate it.';
  // A retried suspension has nothing to explain: the next cycle tries again by itself, and the row keeps its time of change.
  const set = plan.suspension === 'retried-each-cycle' ? { status: 'SUSPENSO' } : { status: 'SUSPENSO', ultimo_erro: reason, atualizado_em: iso(now) };
  return s.db.transaction().execute(async (trx) => {
    const r = await paidMonitors(trx)
      .updateTable(plan.table)
      .set(set)
      .where('id', '=', m.id)
      .where('status', '=', 'ATIVO')
      .where('periodo', '=', m.periodo)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) return false;
    await plan.onSuspend?.(trx, m);
    return true;
  });
}
