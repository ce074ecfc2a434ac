/**
 * Renewals of paid monitors, whatever their table: a monitor is paid per period of 30 days
 * (frequency.ts `RENEWAL_PERIOD_MS`), at creation and then here, once per period. Each renewal is one
 * transaction: the row moves to the next period only if still ATIVO in the period we read (a second
 * worker finds nothing to do), and the ledger's UNIQUE(account_id, operation_id), with operation id
 * `<monitor id>:<period>`, makes a second charge of one period impossible anyway. A balance that no
 * longer covers the price suspends the monitor (SUSPENSO): no checks, no charges, no news until it is
 * created again (POST), which starts a new paid period.
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
import { RENEWAL_PERIOD_MS } from './frequency.ts';

/** The columns a renewable monitor has, whatever else its table holds. */
export interface RenewableRow {
  id: string;
  account_id: string;
  status: string;
  periodo: number;
  preco_centavos: number;
  proxima_cobranca_em: string;
  ultimo_erro: string | null;
  atualizado_em: string;
}

/**
 * The debit of one paid period: operation id `<monitor id>:<period>`, so the ledger's
 * UNIQUE(account_id, operation_id) makes a second charge of one period impossible.
 */
export function periodDebit(m: Pick<RenewableRow, 'id' | 'periodo' | 'preco_centavos'>): DebitLine {
  return { operationId: `${m.id}:${m.periodo}`, centavos: m.preco_centavos };
}

/** The tables of DB whose rows are renewable monitors. */
export type RenewableTable = { [T in keyof DB]: DB[T] extends RenewableRow ? T : never }[keyof DB];

export interface RenewalPlan<R extends RenewableRow> {
  table: RenewableTable;
  /** What the log says it renews ("case monitor"). */
  label: string;
  /** The recurring job that renews (what the renewal's search log names as its origin). */
  jobKind: string;
  /** The price table's query type of the debit. */
  queryType(m: R): string;
  /**
   * Whether moving to the next period stamps `atualizado_em`. Publication monitors do not: their
   * matcher is rebuilt whenever it changes (publications/monitor-index.ts), and a new period changes
   * nothing it matches.
   */
  stampsPeriod: boolean;
  /** More to undo when suspending, in the suspension's transaction (a case monitor drops its subscription). */
  onSuspend?(trx: Transaction<DB>, m: R): Promise<void>;
}

export interface RenewalSummary {
  renewed: number;
  suspended: number;
  /** Renewals that failed unexpectedly: nothing was charged, they are tried again next cycle. */
  failedRenewals: number;
}

/** Most renewals handled in one cycle; the rest wait for the next one. */
const MAX_RENEWALS_PER_RUN = 10_000;

/** The same queries on any renewable table (their shared columns only). */
type AnyRenewable = Kysely<Record<RenewableTable, RenewableRow>>;
const anyTable = (db: Kysely<DB> | Transaction<DB>) => db as unknown as AnyRenewable;

/** Charges every ATIVO monitor of the plan's table whose period ended by `now`, or suspends it. */
export async function renewDue<R extends RenewableRow>(s: Services, plan: RenewalPlan<R>, now: Date, log: Logger): Promise<RenewalSummary> {
  const summary: RenewalSummary = { renewed: 0, suspended: 0, failedRenewals: 0 };
  for (const m of await dueForRenewal<R>(s.db, plan.table, iso(now))) {
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
          log.warn({ monitor: m.id, account: m.account_id, kind: plan.table, priceCentavos: m.preco_centavos }, `${plan.label} suspended: the balance did not cover its renewal`);
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

/** ATIVO monitors (of active accounts) whose period ends by `now`, the most overdue first. */
async function dueForRenewal<R extends RenewableRow>(db: Kysely<DB>, table: RenewableTable, now: string): Promise<R[]> {
  const rows = await anyTable(db).selectFrom(table).selectAll().where('status', '=', 'ATIVO').where('proxima_cobranca_em', '<=', now)
    .where('account_id', 'in', activeAccountIds(db)).orderBy('proxima_cobranca_em').limit(MAX_RENEWALS_PER_RUN).execute();
  return rows as R[];
}

/** The next period and its charge, together; false when another worker renewed (or someone removed) it first. */
async function renewOne<R extends RenewableRow>(s: Services, plan: RenewalPlan<R>, m: R, now: Date): Promise<boolean> {
  const periodo = m.periodo + 1;
  return s.db.transaction().execute(async (trx) => {
    const set = { periodo, proxima_cobranca_em: nextChargeAt(m, now), ...(plan.stampsPeriod ? { atualizado_em: iso(now) } : {}) };
    const moved = await anyTable(trx).updateTable(plan.table).set(set)
      .where('id', '=', m.id).where('status', '=', 'ATIVO').where('periodo', '=', m.periodo).executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return false;
    if (m.preco_centavos > 0) {
      const debit = periodDebit({ ...m, periodo });
      await s.ledger.chargeIn(trx, { accountId: m.account_id, queryType: plan.queryType(m), origin: jobOrigin(plan.jobKind, debit.operationId), debits: [debit] });
    }
    return true;
  });
}

/** Periods follow each other; after an outage (cycle not run for a while) the new one starts now, never in the past. */
function nextChargeAt(m: RenewableRow, now: Date): string {
  const following = addMs(new Date(m.proxima_cobranca_em), RENEWAL_PERIOD_MS);
  return iso(following > now ? following : addMs(now, RENEWAL_PERIOD_MS));
}

async function suspend<R extends RenewableRow>(s: Services, plan: RenewalPlan<R>, m: R, now: Date): Promise<boolean> {
  const reason = `Suspended at ${iso(now)}: the balance did not cover the renewal (${formatReais(m.preco_centavos)}) of period ${m.periodo + 1}. `
    + 'Add credits and create the monitor again (POST) to reactivate it.';
  return s.db.transaction().execute(async (trx) => {
    const r = await anyTable(trx).updateTable(plan.table).set({ status: 'SUSPENSO', ultimo_erro: reason, atualizado_em: iso(now) })
      .where('id', '=', m.id).where('status', '=', 'ATIVO').where('periodo', '=', m.periodo).executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) return false;
    await plan.onSuspend?.(trx, m);
    return true;
  });
}
