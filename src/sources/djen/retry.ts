/** Retry schedule of DJEN calls (djen.md §4.4: sporadic 503; 429 → wait ≥ 60 s). */
import type { RetryPolicy } from '../http/backoff.ts';

export interface DjenRetryPolicy extends RetryPolicy {
  /** 429s waited out in one operation before giving up with `rate_limited` (each wait ≥ its Retry-After). */
  rateLimitWaits: number;
}

/**
 * 3 attempts for 5xx/network/timeouts with jittered exponential backoff; up to 2 waits of a 429's
 * Retry-After (60 s when absent), and none longer than 5 minutes, so an operation can still fail.
 */
export const DEFAULT_DJEN_RETRY: DjenRetryPolicy = { attempts: 3, baseMs: 2_000, capMs: 30_000, maxRetryAfterMs: 300_000, rateLimitWaits: 2 };
