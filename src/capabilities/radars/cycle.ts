/**
 * The radars' recurring job (one per deployment: its dedupe key keeps a single live copy). Each run:
 * 1. renews the periods that ended (spec §8 "monitor.novos_processos", per 30 days), through the
 *    shared renewal (platform/monitoring/renewal.ts) with the radars' policy: a balance that does not
 *    cover it suspends the radar (SUSPENSO: no checks), and every later cycle tries the renewal again,
 *    so a top-up resumes it;
 * 2. checks the ATIVO radars that are due. A failed check (upstream down) records `ultimo_erro`, sends
 *    nothing, charges nothing, and leaves the radar due for the next cycle.
 * DESATIVADO radars are never touched again (spec §3.2).
 */
import { backgroundFailureLevel } from '../../platform/db/outage.ts';
import { telemetry } from '../../platform/observability/telemetry.ts';
import type { Logger } from 'pino';
import { iso } from '../../platform/clock.ts';
import type { JobHandler } from '../../platform/jobs/worker.ts';
import { renewAndCheckJob } from '../../platform/monitoring/renewal.ts';
import { SourceError } from '../../platform/ports/source-error.ts';
import { checkRadar } from './check.ts';
import { RADARS } from './lifecycle.ts';
import type { RadarParts } from './parts.ts';

export { RADAR_QUERY_TYPE } from './lifecycle.ts';

/** Radars checked per run at most; the rest stay due for the next run. */
const BATCH = 200;

export function radarCycleJob(m: RadarParts): JobHandler {
  return renewAndCheckJob(m.services, RADARS, async (_now, log) => {
    const checked = await checkDue(m, log);
    return { work: checked, summary: { checked } };
  });
}

/** Checks the due ATIVO radars; how many it checked (or tried to). */
async function checkDue(m: RadarParts, log: Logger): Promise<number> {
  let checked = 0;
  for (const due of await m.store.dueForCheck(iso(m.services.clock.now()), BATCH)) {
    // Read again: an earlier check of this run may have taken long enough for a DELETE or PATCH to land.
    const radar = await m.store.byId(due.id);
    if (radar?.status !== 'ATIVO') continue;
    checked++;
    try {
      await checkRadar(m, radar);
      telemetry.monitorChecks.labels('radars', 'ok').inc();
    } catch (err) {
      telemetry.monitorChecks.labels('radars', 'failed').inc();
      // Already recorded on the radar; an upstream failure is expected now and then, anything else is a bug.
      if (err instanceof SourceError)
        log.warn(
          { radarId: radar.id, account: radar.account_id, source: err.source, failure: err.failure },
          'radar check: source failed; tried again at the next cycle',
        );
      else log[backgroundFailureLevel(err)]({ err, radarId: radar.id }, 'radar check failed');
    }
  }
  return checked;
}
