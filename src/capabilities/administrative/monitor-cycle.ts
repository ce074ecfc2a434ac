/**
 * The administrative monitors' cycle: one recurring job, `monitoramentos.administrativos.ciclo`,
 * that every cycle first renews the monitors whose period ended (the shared renewal), then checks the
 * due ones: ONE source lookup per NUP however many accounts follow it, at most half of what the
 * Protocolo Integrado budget allows in a cycle (lookups by integrators keep the other half); the rest
 * stay due for the next cycle, the most overdue first. What the source says is saved through the
 * service, which turns new tramitações into `nova_movimentacao_administrativa` for every monitor of
 * the NUP. A failed lookup (5xx, timeout, captcha page…) is a warn line and `ultimo_erro` on its
 * monitors, which stay due; the other NUPs go on.
 */
import { backgroundFailureLevel } from '../../platform/db/outage.ts';
import { telemetry } from '../../platform/observability/telemetry.ts';
import type { Logger } from 'pino';
import { iso } from '../../platform/clock.ts';
import type { JobHandler } from '../../platform/jobs/worker.ts';
import { cycleMs } from '../../platform/monitoring/frequency.ts';
import { renewAndCheckJob } from '../../platform/monitoring/renewal.ts';
import { SourceError } from '../../platform/ports/source-error.ts';
import type { Services } from '../../platform/services.ts';
import { ADMIN_MONITORS } from './monitor-lifecycle.ts';
import type { AdminMonitorRow } from './monitor-store.ts';
import { dueForCheck, recordCheck, recordFailedCheck } from '../../platform/monitoring/checks.ts';
import type { AdministrativeService } from './service.ts';

export interface AdminCheckSummary {
  nups: number;
  checked: number;
  failedNups: number;
}

export function adminMonitorCycleJob(s: Services, service: AdministrativeService): JobHandler {
  return renewAndCheckJob(s, ADMIN_MONITORS, async (now, log) => {
    const checks = await checkDueAdminMonitors(s, service, now, log);
    return { work: checks.nups, summary: { ...checks } };
  });
}

/** How many NUPs one cycle may look up: half the source's budget over a cycle, at least one. */
function lookupsPerCycle(s: Services): number {
  return Math.max(1, Math.floor((s.config.protocoloRequestsPerMinute * cycleMs(s.config.monitorIntervalMs)) / 60_000 / 2));
}

export async function checkDueAdminMonitors(s: Services, service: AdministrativeService, now: Date, log: Logger): Promise<AdminCheckSummary> {
  const due = await dueForCheck<AdminMonitorRow>(s.db, ADMIN_MONITORS.table, iso(now), 10_000);
  const byNup = [...Map.groupBy(due, (m) => m.nup)].slice(0, lookupsPerCycle(s));
  const summary: AdminCheckSummary = { nups: byNup.length, checked: 0, failedNups: 0 };
  for (const [nup, monitors] of byNup) {
    let found: boolean;
    try {
      found = (await service.refresh(nup)) !== null;
    } catch (err) {
      summary.failedNups++;
      telemetry.monitorChecks.labels('processos_administrativos', 'failed').inc(monitors.length);
      if (err instanceof SourceError)
        log.warn({ nup, monitors: monitors.map((m) => m.id), failure: err.failure }, 'administrative monitor check: source failed');
      else log[backgroundFailureLevel(err)]({ err, nup }, 'administrative monitor check failed');
      await recordFailedCheck(s.db, 'administrative_monitors', monitors, err, now);
      continue;
    }
    for (const m of monitors) {
      const situacao = found ? 'ENCONTRADO' : 'NAO_ENCONTRADO';
      if (await recordCheck(s.db, 'administrative_monitors', m, { situacao }, now, s.config.monitorIntervalMs)) {
        summary.checked++;
        telemetry.monitorChecks.labels('processos_administrativos', 'ok').inc();
      }
    }
  }
  return summary;
}
