/**
 * Renewals of case monitors: a monitor is paid per period of 30 days (platform/monitoring/frequency.ts),
 * at creation and then here, once per period. Each renewal is one transaction: the row moves to the
 * next period only if still ATIVO in the period we read (a second worker finds nothing to do), and the
 * ledger's UNIQUE(account_id, operation_id), with operation id `<monitor id>:<period>`, makes a second
 * charge of one period impossible anyway. A balance that no longer covers the price suspends the
 * monitor: no checks, no charges, no movement news until it is created again (POST).
 */
import type { Logger } from 'pino';
import { addMs, iso } from '../../platform/clock.ts';
import { toBrl } from '../../platform/billing/prices.ts';
import { unsubscribe } from '../../platform/events/subscriptions.ts';
import { isApiError } from '../../platform/http/errors.ts';
import { RENEWAL_PERIOD_MS } from '../../platform/monitoring/frequency.ts';
import type { Services } from '../../platform/services.ts';
import { dueForRenewal, MONITOR_QUERY_TYPE, type MonitorRow } from './store.ts';

/** Most renewals handled in one cycle; the rest wait for the next one. */
const MAX_RENEWALS_PER_RUN = 10_000;

export interface RenewalSummary {
  renewed: number;
  suspended: number;
  /** Renewals that failed unexpectedly: nothing was charged, they are tried again next cycle. */
  failedRenewals: number;
}

/** Charges every ATIVO monitor whose period ended by `now`, or suspends it. */
export async function renewDue(s: Services, now: Date, log: Logger): Promise<RenewalSummary> {
  const summary: RenewalSummary = { renewed: 0, suspended: 0, failedRenewals: 0 };
  for (const m of await dueForRenewal(s.db, iso(now), MAX_RENEWALS_PER_RUN)) {
    try {
      if (await renewOne(s, m, now)) summary.renewed++;
    } catch (err) {
      if (isApiError(err) && err.code === 'INSUFFICIENT_CREDITS') {
        if (await suspend(s, m, now)) summary.suspended++;
        continue;
      }
      summary.failedRenewals++;
      log.error({ err, monitor: m.id }, 'case monitor renewal failed');
    }
  }
  return summary;
}

/** The next period and its charge, together; false when another worker renewed (or someone removed) it first. */
async function renewOne(s: Services, m: MonitorRow, now: Date): Promise<boolean> {
  const periodo = m.periodo + 1;
  return s.db.transaction().execute(async (trx) => {
    const moved = await trx.updateTable('case_monitors')
      .set({ periodo, proxima_cobranca_em: nextChargeAt(m, now), atualizado_em: iso(now) })
      .where('id', '=', m.id).where('status', '=', 'ATIVO').where('periodo', '=', m.periodo).executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return false;
    if (m.preco_centavos > 0) {
      await s.ledger.debit(trx, { accountId: m.account_id, centavos: m.preco_centavos, operationId: `${m.id}:${periodo}`, queryType: MONITOR_QUERY_TYPE, searchLogId: null });
    }
    return true;
  });
}

/** Periods follow each other; after an outage (cycle not run for a while) the new one starts now, never in the past. */
function nextChargeAt(m: MonitorRow, now: Date): string {
  const following = addMs(new Date(m.proxima_cobranca_em), RENEWAL_PERIOD_MS);
  return iso(following > now ? following : addMs(now, RENEWAL_PERIOD_MS));
}

async function suspend(s: Services, m: MonitorRow, now: Date): Promise<boolean> {
  const reason = `Suspended at ${iso(now)}: the balance did not cover the renewal (R$ ${toBrl(m.preco_centavos).toFixed(2)}) of period ${m.periodo + 1}. `
    + 'Add credits and create the monitor again (POST) to reactivate it.';
  return s.db.transaction().execute(async (trx) => {
    const r = await trx.updateTable('case_monitors').set({ status: 'SUSPENSO', ultimo_erro: reason, atualizado_em: iso(now) })
      .where('id', '=', m.id).where('status', '=', 'ATIVO').where('periodo', '=', m.periodo).executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) return false;
    await unsubscribe(trx, m.id);
    return true;
  });
}
