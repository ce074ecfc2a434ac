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

/** The wait before the next attempt after `failures` failed ones (1 after the first), or undefined: give up. */
export type Schedule = (failures: number, retryAfterMs: number | undefined) => number | undefined;

/** Jittered exponential backoff (backoffMs) for `policy.attempts` attempts; a Retry-After beyond its ceiling gives up. */
export function jitteredSchedule(policy: RetryPolicy, random: () => number): Schedule {
  return (failures, retryAfterMs) =>
    failures >= policy.attempts || (retryAfterMs ?? 0) > policy.maxRetryAfterMs ? undefined : backoffMs(policy, failures, random, retryAfterMs);
}

/** How a connector tunes a fixed list of waits (HttpUpstream, the portal, the chat model); unset fields take the connector's defaults. */
export interface FixedRetryTuning {
  /** Retries after the first attempt. */
  retries?: number;
  /** Wait before each retry, the last repeated; a Retry-After replaces it. */
  retryDelaysMs?: readonly number[];
  /** A Retry-After longer than this gives up: the caller gets the failure with it. */
  maxRetryAfterMs?: number;
}

/** A fixed list of waits for `retries` retries; a Retry-After replaces the wait, and beyond `maxRetryAfterMs` gives up. */
export function fixedSchedule(tuning: FixedRetryTuning, defaults: Required<FixedRetryTuning>): Schedule {
  const retries = tuning.retries ?? defaults.retries;
  const delays = tuning.retryDelaysMs ?? defaults.retryDelaysMs;
  const ceiling = tuning.maxRetryAfterMs ?? defaults.maxRetryAfterMs;
  return (failures, retryAfterMs) => {
    const wait = retryAfterMs ?? delays[Math.min(failures - 1, delays.length - 1)] ?? 0;
    return failures > retries || (retryAfterMs !== undefined && wait > ceiling) ? undefined : wait;
  };
}
