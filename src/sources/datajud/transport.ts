/**
 * A search with everything around it: in-flight limit, the shared per-minute budget (each attempt
 * spends one request), retries with backoff, and counters for benchmarks.
 */
import type { RequestBudget } from '../http/budget.ts';
import type { Sleep } from '../http/waits.ts';
import type { DataJudClient, EsSearchResult } from './client.ts';
import { Semaphore } from '../http/concurrency.ts';
import { DataJudError, isRetryable } from './errors.ts';
import { backoffMs, type RetryPolicy } from '../http/backoff.ts';

export interface DataJudStats {
  /** HTTP requests sent (every attempt and alias probe counts). */
  requests: number;
  /** Attempts repeated after a transient failure or an incomplete (partial-shard) answer. */
  retries: number;
  /** Operations that ended in a SourceError after their retries. */
  failures: number;
}

export interface TransportOptions {
  client: DataJudClient;
  budget: RequestBudget;
  maxInFlight: number;
  retry: RetryPolicy;
  sleep: Sleep;
  random: () => number;
}

export class DataJudTransport {
  readonly stats: DataJudStats = { requests: 0, retries: 0, failures: 0 };
  readonly retry: RetryPolicy;
  readonly #client: DataJudClient;
  readonly #budget: RequestBudget;
  readonly #inFlight: Semaphore;
  readonly #sleep: Sleep;
  readonly #random: () => number;

  constructor(options: TransportOptions) {
    this.#client = options.client;
    this.#budget = options.budget;
    this.#inFlight = new Semaphore(options.maxInFlight);
    this.retry = options.retry;
    this.#sleep = options.sleep;
    this.#random = options.random;
  }

  /** One logical search, retried on transient failures; throws the last DataJudError otherwise. */
  async search(alias: string, body: unknown, signal?: AbortSignal): Promise<EsSearchResult> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#attempt(alias, body, signal);
      } catch (err) {
        if (!this.#worthRetrying(err, attempt)) throw this.failed(err, signal);
        await this.backoff(attempt, signal, err.retryAfterMs);
      }
    }
  }

  /** Counts a retry and waits the backoff after `failures` failed attempts. */
  async backoff(failures: number, signal?: AbortSignal, retryAfterMs?: number): Promise<void> {
    this.stats.retries++;
    await this.#sleep(backoffMs(this.retry, failures, this.#random, retryAfterMs), signal);
  }

  /** Counts a final failure (aborts are not failures) and hands the error back for `throw`. */
  failed(err: unknown, signal?: AbortSignal): unknown {
    if (err instanceof DataJudError && !signal?.aborted) this.stats.failures++;
    return err;
  }

  #worthRetrying(err: unknown, attempt: number): err is DataJudError {
    return isRetryable(err) && attempt < this.retry.attempts && (err.retryAfterMs ?? 0) <= this.retry.maxRetryAfterMs;
  }

  async #attempt(alias: string, body: unknown, signal?: AbortSignal): Promise<EsSearchResult> {
    await this.#inFlight.acquire(signal);
    try {
      await this.#budget.acquire(signal);
      this.stats.requests++;
      return await this.#client.search(alias, body, signal);
    } finally {
      this.#inFlight.release();
    }
  }
}
