/**
 * Housekeeping, as one recurring job (so several workers never run it twice at once): finish pending
 * operations whose process died, and drop what is past retention (async results, idempotency keys,
 * settled jobs).
 */
import { defineRecurring, jobHandler } from './jobs/job-type.ts';
import { addMs, iso } from './clock.ts';
import { purgeExpiredIdempotencyKeys } from './http/idempotency.ts';
import type { JobHandler } from './jobs/worker.ts';
import type { Services } from './services.ts';

export const MAINTENANCE_JOB = 'platform.maintenance';
export const MAINTENANCE = defineRecurring(MAINTENANCE_JOB);
const EVERY_MS = 60_000;
const SETTLED_JOB_RETENTION_MS = 7 * 24 * 3_600_000;

export function maintenanceJob(s: Services): JobHandler {
  return jobHandler(MAINTENANCE, {
    async run(_payload, { clock, log }) {
      const { interrupted, results } = await s.asyncRequests.sweep();
      const keys = await purgeExpiredIdempotencyKeys(s.db, clock);
      const jobs = await s.db
        .deleteFrom('jobs')
        .where('status', 'in', ['done', 'failed'])
        .where('updated_at', '<', iso(addMs(clock.now(), -SETTLED_JOB_RETENTION_MS)))
        .executeTakeFirst();
      if (interrupted || results || keys || Number(jobs.numDeletedRows)) {
        log.info({ interrupted, results, keys, jobs: Number(jobs.numDeletedRows) }, 'maintenance');
      }
      return addMs(clock.now(), EVERY_MS);
    },
  });
}
