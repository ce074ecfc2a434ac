/**
 * The one shape of a connector's options when it runs its own RequestLoop on a per-minute budget and
 * jittered backoff (DataJud, DJEN), and the loop built from them, so the two do not keep copies.
 */
import { systemClock, type Clock } from '../../platform/clock.ts';
import { jitteredSchedule, type RetryPolicy } from './backoff.ts';
import type { BodyLimits } from './body.ts';
import { RequestBudget } from './budget.ts';
import { RequestLoop, type RateLimitPause } from './loop.ts';
import { realSleep, type Sleep } from './waits.ts';

export interface BudgetedConnectorOptions<P extends RetryPolicy = RetryPolicy> {
  /** Per attempt, headers and body included. */
  timeoutMs: number;
  /** Size of the connector's own budget; ignored when `budget` is given. */
  requestsPerMinute: number;
  /** True when the base URL is the sandbox simulator's (reported in `info`). */
  sandbox?: boolean;
  /** A budget shared with other users of this source in the process. */
  budget?: RequestBudget;
  clock?: Clock;
  /** Used for backoff and budget waits; tests pass one that does not really wait. */
  sleep?: Sleep;
  random?: () => number;
  retry?: Partial<P>;
  /** Requests in flight at once. */
  maxInFlight?: number;
  /** Size and idle limits of an answer's body (TRAMITA_UPSTREAM_MAX_BYTES). */
  body?: BodyLimits;
}

/** The connector's loop: its budget (or the shared one), in-flight limit and jittered schedule, plus what only it needs. */
export function budgetedLoop(
  o: BudgetedConnectorOptions,
  name: string,
  retry: RetryPolicy,
  maxInFlight: number,
  extra: { rateLimit?: RateLimitPause; oncePerCaller?: boolean } = {},
): RequestLoop {
  const clock = o.clock ?? systemClock;
  const sleep = o.sleep ?? realSleep;
  return new RequestLoop({
    budget: o.budget ?? new RequestBudget({ perMinute: o.requestsPerMinute, clock, sleep, name }),
    maxInFlight,
    schedule: jitteredSchedule(retry, o.random ?? Math.random),
    sleep,
    ...extra,
  });
}
