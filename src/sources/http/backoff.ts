/** The connectors' one retry schedule: jittered exponential backoff that honours Retry-After up to a ceiling. */

export interface RetryPolicy {
  /** Total attempts, the first included. */
  attempts: number;
  /** Backoff before the 2nd attempt; doubles each time. */
  baseMs: number;
  capMs: number;
  /** A Retry-After longer than this is not waited out: the error goes back to the caller with it. */
  maxRetryAfterMs: number;
}

/**
 * Delay before the next attempt after `failures` failed ones: "equal jitter" (half fixed, half
 * random) so concurrent callers spread out, never below the upstream's Retry-After.
 */
export function backoffMs(policy: RetryPolicy, failures: number, random: () => number, retryAfterMs?: number): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, failures - 1));
  const jittered = ceiling / 2 + random() * (ceiling / 2);
  return Math.round(Math.max(jittered, retryAfterMs ?? 0));
}
