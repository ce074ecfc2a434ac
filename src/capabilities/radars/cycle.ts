/**
 * The radars' recurring job (one per deployment: its dedupe key keeps a single live copy). Each run:
 * 1. renews the periods that ended (spec §8 "monitor.novos_processos", per 30 days): one debit per
 *    radar and period, keyed `<radar>:<period>` so it can never be charged twice; a balance that does
 *    not cover it suspends the radar (SUSPENSO: no checks), and every later cycle tries the renewal
 *    again, so a top-up resumes it;
 * 2. checks the ATIVO radars that are due. A failed check (upstream down) records `ultimo_erro`, sends
 *    nothing, charges nothing, and leaves the radar due for the next cycle.
 * DESATIVADO radars are never touched again (spec §3.2).
 */
import { backgroundFailureLevel } from '../../platform/db/outage.ts';
import { telemetry } from '../../platform/observability/telemetry.ts';
import type { Logger } from 'pino';
import { jobOrigin } from '../../platform/billing/ledger.ts';
import { addMs, iso } from '../../platform/clock.ts';
import type { RadarsTable } from '../../platform/db/schema.ts';
import { isApiError } from '../../platform/errors.ts';
import type { JobHandler } from '../../platform/jobs/worker.ts';
import { cycleMs, RENEWAL_PERIOD_MS } from '../../platform/monitoring/frequency.ts';
import { periodDebit } from '../../platform/monitoring/renewal.ts';
import { SourceError } from '../../platform/ports/sources.ts';
import { checkRadar } from './check.ts';
import type { RadarParts } from './parts.ts';

export const RADAR_CYCLE_JOB = 'monitoramentos.novos_processos.ciclo';
export const RADAR_QUERY_TYPE = 'monitor.novos_processos';
/** Radars renewed and checked per run at most; the rest stay due for the next run. */
const BATCH = 200;

export function radarCycleJob(m: RadarParts): JobHandler {
  return {
    kind: RADAR_CYCLE_JOB,
    async run(_payload, { clock, log }) {
      await renewDue(m, log);
      await checkDue(m, log);
      return addMs(clock.now(), cycleMs(m.services.config.monitorIntervalMs));
    },
  };
}

async function renewDue(m: RadarParts, log: Logger): Promise<void> {
  for (const radar of await m.store.dueForRenewal(iso(m.services.clock.now()), BATCH)) {
    try {
      const outcome = await renew(m, radar);
      if (outcome === 'renewed') telemetry.renewals.labels('radars', 'charged').inc();
      if (outcome === 'suspended') {
        telemetry.renewals.labels('radars', 'suspended').inc();
        log.warn({ radarId: radar.id, account: radar.account_id }, 'radar suspended: the balance did not cover its renewal');
      }
    } catch (err) {
      telemetry.renewals.labels('radars', 'failed').inc();
      log[backgroundFailureLevel(err)]({ err, radarId: radar.id }, 'radar renewal failed');
    }
  }
}

/** Charges the next period; INSUFFICIENT_CREDITS suspends the radar (and rolls the period back). */
export async function renew(m: RadarParts, radar: RadarsTable): Promise<'renewed' | 'suspended' | 'skipped'> {
  const { db, clock, ledger } = m.services;
  const now = clock.now();
  const periodo = radar.periodo + 1;
  const end = addMs(new Date(radar.proxima_cobranca_em), RENEWAL_PERIOD_MS);
  // Periods are not charged retroactively: after a suspension, the new period starts now.
  const next = end > now ? end : addMs(now, RENEWAL_PERIOD_MS);
  try {
    return await db.transaction().execute(async (trx) => {
      const claimed = await trx.updateTable('radars').set({ periodo, proxima_cobranca_em: iso(next), status: 'ATIVO' })
        .where('id', '=', radar.id).where('periodo', '=', radar.periodo).where('status', 'in', ['ATIVO', 'SUSPENSO']).executeTakeFirst();
      if (Number(claimed.numUpdatedRows) === 0) return 'skipped'; // renewed elsewhere, or deactivated meanwhile
      if (radar.preco_centavos > 0) {
        const debit = periodDebit({ ...radar, periodo });
        await ledger.chargeIn(trx, { accountId: radar.account_id, queryType: RADAR_QUERY_TYPE, origin: jobOrigin(RADAR_CYCLE_JOB, debit.operationId), debits: [debit] });
      }
      return 'renewed';
    });
  } catch (err) {
    if (!isApiError(err) || err.code !== 'INSUFFICIENT_CREDITS') throw err;
    await db.updateTable('radars').set({ status: 'SUSPENSO' }).where('id', '=', radar.id).where('status', '=', 'ATIVO').execute();
    return 'suspended';
  }
}

async function checkDue(m: RadarParts, log: Logger): Promise<void> {
  for (const due of await m.store.dueForCheck(iso(m.services.clock.now()), BATCH)) {
    // Read again: an earlier check of this run may have taken long enough for a DELETE or PATCH to land.
    const radar = await m.store.byId(due.id);
    if (radar?.status !== 'ATIVO') continue;
    try {
      await checkRadar(m, radar);
      telemetry.monitorChecks.labels('radars', 'ok').inc();
    } catch (err) {
      telemetry.monitorChecks.labels('radars', 'failed').inc();
      // Already recorded on the radar; an upstream failure is expected now and then, anything else is a bug.
      if (err instanceof SourceError) log.warn({ radarId: radar.id, account: radar.account_id, source: err.source, failure: err.failure }, 'radar check: source failed; tried again at the next cycle');
      else log[backgroundFailureLevel(err)]({ err, radarId: radar.id }, 'radar check failed');
    }
  }
}
