/**
 * Recurring jobs: one live row per kind (its dedupe key is the kind), whatever the number of
 * processes; each run returns when to run again. Enqueued at start by every process that runs a
 * worker: a no-op when the job already exists.
 */
import type { JobQueue } from './queue.ts';

/** Each run reschedules itself with its attempts reset, so this only bounds a crash loop. */
const RECURRING_MAX_ATTEMPTS = 1_000_000;

export async function ensureRecurring(jobs: JobQueue, kinds: readonly string[]): Promise<void> {
  for (const kind of kinds) await jobs.enqueue({ kind, payload: null, dedupeKey: kind, maxAttempts: RECURRING_MAX_ATTEMPTS });
}
