/**
 * The publication monitors' cycle (spec §4.5, §4.8): one recurring job, `publicacoes.monitores.ciclo`,
 * that every `cycleMs(TRAMITA_MONITOR_INTERVAL_MS)`
 * 1. renews the intimação and publication monitors whose 30-day period ended (platform/monitoring
 *    /renewal.ts), or suspends them;
 * 2. ingests the final daily cadernos of the courts TRAMITA_DJEN_CADERNOS lists (cadernos.ts);
 * 3. asks DJEN for the due monitors, one query per distinct target (polling.ts);
 * 4. asks DJEN for the numbers of the case monitors no caderno covers, once per their monitors' frequency (case-polling.ts).
 * Steps 2 to 4 share one budget of queries per run (cycle-budget.ts). Events come from the ingest
 * alone (ingest.ts), whatever brought the publication.
 */
import type { JobHandler } from '../../platform/jobs/worker.ts';
import { renewAndCheckJob } from '../../platform/monitoring/renewal.ts';
import type { Services } from '../../platform/services.ts';
import { coveredCourts, ingestCadernos } from './cadernos.ts';
import { CycleBudget, queriesPerRun } from './cycle-budget.ts';
import { PUBLICATION_MONITORS } from '../publication-monitors/parts.ts';
import type { PublicationIngest } from './ingest.ts';
import { pollDue } from './polling.ts';
import { CaseAskPace, pollCaseNumbers } from './case-polling.ts';

export function publicationCycleJob(s: Services, ingest: PublicationIngest): JobHandler {
  const pace = new CaseAskPace();
  return renewAndCheckJob(s, PUBLICATION_MONITORS, async (now, log) => {
    const budget = new CycleBudget(queriesPerRun(s.config.djenRequestsPerMinute));
    const cadernos = await ingestCadernos(s, ingest, now, budget, log);
    const covered = await coveredCourts(s, now);
    const polls = await pollDue(s, ingest, now, budget, covered, log);
    const cases = await pollCaseNumbers(s, ingest, { now, budget, covered, log, pace });
    return { work: budget.used, summary: { cadernos, ...polls, processos: cases, stoppedBy: budget.stoppedBy } };
  });
}
