/** The waits between attempts (and for a budget's slot): injectable, so tests see each wait without waiting it. */
import { setTimeout as delay } from 'node:timers/promises';
import type { Clock } from '../../platform/clock.ts';

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** Waits `ms`; an abort rejects with the signal's own reason (not a generic AbortError). */
export const realSleep: Sleep = async (ms, signal) => {
  try {
    await delay(ms, undefined, signal ? { signal } : undefined);
  } catch (err) {
    throw signal?.aborted ? signal.reason : err;
  }
};

/** What a connector's retries run on, injectable for tests: the waits, and the clock an HTTP-date Retry-After is read against. */
export interface RetryHooks {
  /** Default: the system clock. */
  clock?: Clock;
  /** Default: realSleep. */
  sleep?: Sleep;
}
