/**
 * Recurring jobs (job-type.ts `defineRecurring`): enqueued at start by every process that runs a
 * worker, a no-op when the job already exists (its dedupe key is its kind).
 */
import type { RecurringJob } from './job-type.ts';
import type { JobQueue } from './queue.ts';

export async function ensureRecurring(jobs: JobQueue, types: readonly RecurringJob[]): Promise<void> {
  for (const type of types) await jobs.add(type, null);
}
