/**
 * The case monitor capability (spec §4.8) as the capability list plugs it in: its routes, its one
 * recurring job (the cycle: renewals, then checks) and how that job is put in the queue.
 */
import type { JobHandler } from '../../platform/jobs/worker.ts';
import type { Services } from '../../platform/services.ts';
import { MONITOR_CYCLE_JOB, monitorCycleJob } from './check.ts';

export { monitorRoutes } from './routes.ts';

export function monitorJobs(s: Services): JobHandler[] {
  return [monitorCycleJob(s)];
}

/** Makes sure the recurring cycle job exists (a no-op when it does): one live job, whatever the number of workers. */
export async function scheduleMonitorCycle(s: Services): Promise<void> {
  // Recurring: each run reschedules itself with its attempts reset, so maxAttempts only bounds crash loops.
  await s.jobs.enqueue({ kind: MONITOR_CYCLE_JOB, payload: null, dedupeKey: MONITOR_CYCLE_JOB, maxAttempts: 1_000_000 });
}
