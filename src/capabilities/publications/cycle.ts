/**
 * The publication monitors' cycle (spec §4.5, §4.8): one recurring job, `publicacoes.monitores.ciclo`,
 * that every `cycleMs(TRAMITA_MONITOR_INTERVAL_MS)`
 * 1. renews the intimação and publication monitors whose 30-day period ended (platform/monitoring
 *    /renewal.ts), or suspends them;
 * 2. ingests the final daily cadernos of the courts TRAMITA_DJEN_CADERNOS lists (cadernos.ts);
 * 3. asks DJEN for the due monitors, one query per distinct target (polling.ts).
 * Steps 2 and 3 share one budget of queries per run (cycle-budget.ts). Events come from the ingest
 * alone (ingest.ts), whatever brought the publication.
 */
import type { JobHandler } from '../../platform/jobs/worker.ts';
import { addMs } from '../../platform/clock.ts';
import { cycleMs } from '../../platform/monitoring/frequency.ts';
import { renewDue, type RenewalPlan } from '../../platform/monitoring/renewal.ts';
import type { Services } from '../../platform/services.ts';
import { coveredCourts, ingestCadernos } from './cadernos.ts';
import { CycleBudget, queriesPerRun } from './cycle-budget.ts';
import { MONITOR_QUERY_TYPES, type PublicationMonitorRow } from './monitors.ts';
import type { PublicationIngest } from './ingest.ts';
import { pollDue } from './polling.ts';

export const PUBLICATION_CYCLE_JOB = 'publicacoes.monitores.ciclo';

const RENEWAL: RenewalPlan<PublicationMonitorRow> = {
  table: 'publication_monitors',
  label: 'publication monitor',
  jobKind: PUBLICATION_CYCLE_JOB,
  queryType: (m) => MONITOR_QUERY_TYPES[m.origem],
  // A new period changes nothing the matcher reads: no rebuild for it.
  stampsPeriod: false,
};

export function publicationCycleJob(s: Services, ingest: PublicationIngest): JobHandler {
  return {
    kind: PUBLICATION_CYCLE_JOB,
    async run(_payload, { clock, log }) {
      const now = clock.now();
      const renewals = await renewDue(s, RENEWAL, now, log);
      const budget = new CycleBudget(queriesPerRun(s.config.djenRequestsPerMinute));
      const cadernos = await ingestCadernos(s, ingest, now, budget, log);
      const polls = await pollDue(s, ingest, now, budget, await coveredCourts(s, now), log);
      const busy = budget.used + renewals.renewed + renewals.suspended + renewals.failedRenewals > 0;
      log[busy ? 'info' : 'debug']({ ...renewals, cadernos, ...polls, stoppedBy: budget.stoppedBy }, 'publication monitor cycle');
      return addMs(clock.now(), cycleMs(s.config.monitorIntervalMs));
    },
  };
}
