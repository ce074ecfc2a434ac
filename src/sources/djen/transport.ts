/**
 * One DJEN call with everything around it: in-flight limit, DJEN's rate-limit gate, the shared
 * per-minute budget (each attempt spends one request), retries, and counters.
 */
import type { RequestBudget } from '../http/budget.ts';
import type { Sleep } from '../http/waits.ts';
import { Semaphore } from '../http/concurrency.ts';
import { backoffMs } from '../http/backoff.ts';
import { DEFAULT_RETRY_AFTER_MS } from './client.ts';
import { DjenError, isRetryable } from './errors.ts';
import type { RateLimitGate } from './gate.ts';
import type { DjenRetryPolicy } from './retry.ts';

export interface DjenStats {
  /** HTTP requests sent (every attempt and every caderno download counts). */
  requests: number;
  /** Attempts repeated after a transient failure or a 429. */
  retries: number;
  /** Operations that ended in a SourceError after their retries (aborts are not failures). */
  failures: number;
}

/** Requests spent by one logical operation (a search's `requests`). */
export interface Tally {
  requests: number;
}

export interface DjenTransportOptions {
  budget: RequestBudget;
  gate: RateLimitGate;
  maxInFlight: number;
  retry: DjenRetryPolicy;
  sleep: Sleep;
  random: () => number;
}

export class DjenTransport {
  readonly stats: DjenStats = { requests: 0, retries: 0, failures: 0 };
  readonly #budget: RequestBudget;
  readonly #gate: RateLimitGate;
  readonly #inFlight: Semaphore;
  readonly #retry: DjenRetryPolicy;
  readonly #sleep: Sleep;
  readonly #random: () => number;
  readonly #counted = new WeakSet<DjenError>();

  constructor(options: DjenTransportOptions) {
    this.#budget = options.budget;
    this.#gate = options.gate;
    this.#inFlight = new Semaphore(options.maxInFlight);
    this.#retry = options.retry;
    this.#sleep = options.sleep;
    this.#random = options.random;
  }

  /** Whether a request would go out now: a slot of the budget free and no 429 pause in force. */
  readyNow(): boolean {
    return this.#budget.remaining() > 0 && !this.#gate.paused();
  }

  /**
   * Runs `send` (one HTTP request and the reading of its answer) until it succeeds, retrying
   * transient failures; throws the last DjenError otherwise. A 429 pauses every request of the
   * process for its Retry-After (the gate), then this one tries again.
   */
  async run<T>(send: (signal?: AbortSignal) => Promise<T>, signal?: AbortSignal, tally?: Tally): Promise<T> {
    let transientFailures = 0;
    let rateLimitWaits = 0;
    for (;;) {
      try {
        return await this.#attempt(send, signal, tally);
      } catch (err) {
        if (signal?.aborted || !isRetryable(err)) throw this.failed(err, signal);
        if (err.failure === 'rate_limited') {
          const wait = Math.min(err.retryAfterMs ?? DEFAULT_RETRY_AFTER_MS, this.#retry.maxRetryAfterMs);
          this.#gate.pauseFor(wait);
          if (++rateLimitWaits > this.#retry.rateLimitWaits || (err.retryAfterMs ?? 0) > this.#retry.maxRetryAfterMs) throw this.failed(err, signal);
          this.stats.retries++;
          continue;
        }
        if (++transientFailures >= this.#retry.attempts || (err.retryAfterMs ?? 0) > this.#retry.maxRetryAfterMs) throw this.failed(err, signal);
        this.stats.retries++;
        await this.#sleep(backoffMs(this.#retry, transientFailures, this.#random, err.retryAfterMs), signal);
      }
    }
  }

  /** Counts a final failure (once per error, however many layers rethrow it) and hands it back for `throw`. */
  failed(err: unknown, signal?: AbortSignal): unknown {
    if (err instanceof DjenError && !signal?.aborted && !this.#counted.has(err)) {
      this.#counted.add(err);
      this.stats.failures++;
    }
    return err;
  }

  async #attempt<T>(send: (signal?: AbortSignal) => Promise<T>, signal: AbortSignal | undefined, tally: Tally | undefined): Promise<T> {
    await this.#inFlight.acquire(signal);
    try {
      await this.#gate.wait(signal);
      await this.#budget.acquire(signal);
      this.stats.requests++;
      if (tally) tally.requests++;
      return await send(signal);
    } finally {
      this.#inFlight.release();
    }
  }
}
