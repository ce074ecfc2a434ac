/**
 * The one request loop every upstream connector runs on: the in-flight limit, a pause every request
 * keeps (pause.ts), the per-minute budget (each attempt spends one request), retries of transient
 * failures on a schedule (backoff.ts), the counters, and close(). What one attempt sends and how its
 * answer or failure is read stays with the connector: `send` resolves with what the caller wants, or
 * throws a RetryableSourceError (retried while `retryable`) or anything else (thrown at once).
 */
import { RetryableSourceError } from '../../platform/ports/source-error.ts';
import { callerWaiting } from '../../platform/request-path.ts';
import type { Schedule } from './backoff.ts';
import type { RequestBudget } from './budget.ts';
import { Semaphore } from './concurrency.ts';
import type { RequestPause } from './pause.ts';
import type { Sleep } from './waits.ts';

export interface RequestStats {
  /** HTTP requests sent (every attempt counts). */
  requests: number;
  /** Attempts repeated after a transient failure, a 429 or an incomplete answer. */
  retries: number;
  /** Operations that ended in a source failure after their retries (aborts are not failures). */
  failures: number;
}

/** Requests spent by one logical operation (e.g. a search's `requests`). */
export interface Tally {
  requests: number;
}

/** A pause that 429s set for every request (DJEN): waited out up to `waits` times per operation, none longer than `maxWaitMs`. */
export interface RateLimitPause {
  pause: RequestPause;
  waits: number;
  /** When a 429 says nothing of how long. */
  defaultWaitMs: number;
  maxWaitMs: number;
}

export interface RequestLoopOptions {
  /** The per-minute budget; none for a server the operator runs itself (the portal, the chat model). */
  budget?: RequestBudget;
  /** Requests in flight at once; default no limit but the connector's sockets. */
  maxInFlight?: number;
  /** With it, a 429 pauses every request instead of counting as a transient failure. */
  rateLimit?: RateLimitPause;
  schedule: Schedule;
  sleep: Sleep;
  /** The main source of a request path (DataJud): one attempt while a caller waits, as for every auxiliary source (issue 51). */
  oncePerCaller?: boolean;
}

export class RequestLoop {
  readonly stats: RequestStats = { requests: 0, retries: 0, failures: 0 };
  readonly #budget: RequestBudget | undefined;
  readonly #inFlight: Semaphore | undefined;
  readonly #rateLimit: RateLimitPause | undefined;
  readonly #schedule: Schedule;
  readonly #sleep: Sleep;
  readonly #oncePerCaller: boolean;
  /** Errors already counted as failures: layers that rethrow one count it once. */
  readonly #counted = new WeakSet<object>();
  /** Aborted by close(): every run and every wait ends with it. */
  readonly #closing = new AbortController();
  /** Runs not yet settled, for close() to wait for. */
  readonly #running = new Set<Promise<void>>();

  constructor(o: RequestLoopOptions) {
    this.#budget = o.budget;
    this.#inFlight = o.maxInFlight === undefined ? undefined : new Semaphore(o.maxInFlight);
    this.#rateLimit = o.rateLimit;
    this.#schedule = o.schedule;
    this.#sleep = o.sleep;
    this.#oncePerCaller = o.oncePerCaller ?? false;
  }

  /** Whether a caller waits for this call: an auxiliary source's (platform/request-path.ts), or this main source's when `oncePerCaller`. */
  #callerWaits(): boolean {
    const wait = callerWaiting();
    return wait !== undefined && (wait.auxiliary === true || this.#oncePerCaller);
  }

  /** Aborted when the loop is closed, with the reason close() was given. */
  get closing(): AbortSignal {
    return this.#closing.signal;
  }

  /** `signal` joined to the loop's closing. */
  linked(signal: AbortSignal | undefined): AbortSignal {
    return signal ? AbortSignal.any([signal, this.#closing.signal]) : this.#closing.signal;
  }

  /** Whether a request would go out now: a slot of the budget free and no pause in force. */
  readyNow(): boolean {
    return (this.#budget?.remaining() ?? 1) > 0 && !this.#rateLimit?.pause.paused();
  }

  /**
   * Runs `send` until it succeeds, retrying transient failures; throws the last failure otherwise (an
   * abort: its reason). At most `attempts` attempts: by default one while a caller waits for an
   * auxiliary source or for DataJud (issue 51: retries and backoff belong to background jobs;
   * platform/request-path.ts), else the schedule's. `uncounted`: a failure is not counted here, because
   * the caller's round counts it (rounds()).
   */
  run<T>(send: (signal: AbortSignal) => Promise<T>, signal?: AbortSignal, tally?: Tally, opts: { attempts?: number; uncounted?: boolean } = {}): Promise<T> {
    return this.#tracked(this.#retrying((s) => this.#attempt(send, s, tally), signal, opts));
  }

  /**
   * Runs `round` until it succeeds, on the same schedule as run(): several requests that stand or fall
   * together (every page of a query), each sent with `once` (one attempt, uncounted), so the round
   * and not each request is retried and no retry runs inside another. `round` may throw a retryable
   * failure of its own (an answer only the connector sees is incomplete); it gets the attempt's number.
   */
  rounds<T>(round: (attempt: number, signal: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<T> {
    return this.#tracked(this.#retrying((s, attempt) => round(attempt, s), signal, {}));
  }

  /** Counts a final failure (once per error; aborts are not failures) and hands it back for `throw`. */
  failed(err: unknown, signal?: AbortSignal): unknown {
    if (err instanceof RetryableSourceError && !signal?.aborted && !this.#counted.has(err)) {
      this.#counted.add(err);
      this.stats.failures++;
    }
    return err;
  }

  /** Ends every run and wait with `reason`, and waits until none is left. */
  async close(reason: unknown): Promise<void> {
    if (!this.#closing.signal.aborted) this.#closing.abort(reason);
    await Promise.all(this.#running);
  }

  #tracked<T>(result: Promise<T>): Promise<T> {
    const settled = result.then(
      () => undefined,
      () => undefined,
    );
    this.#running.add(settled);
    void settled.then(() => this.#running.delete(settled));
    return result;
  }

  async #retrying<T>(
    once: (signal: AbortSignal, attempt: number) => Promise<T>,
    outer: AbortSignal | undefined,
    opts: { attempts?: number; uncounted?: boolean },
  ): Promise<T> {
    const signal = this.linked(outer);
    const attempts = opts.attempts ?? (this.#callerWaits() ? 1 : Number.POSITIVE_INFINITY);
    const fail = (err: unknown): unknown => (opts.uncounted ? err : this.failed(err, signal));
    let failures = 0;
    let rateLimitWaits = 0;
    for (let attempt = 1; ; attempt++) {
      try {
        return await once(signal, attempt);
      } catch (err) {
        if (signal.aborted) throw signal.reason;
        if (!(err instanceof RetryableSourceError) || !err.retryable) throw fail(err);
        const limit = this.#rateLimit;
        if (limit && err.failure === 'rate_limited') {
          // The pause, not a sleep here, holds this request and every other until the 429's wait is over.
          limit.pause.pauseFor(Math.min(err.retryAfterMs ?? limit.defaultWaitMs, limit.maxWaitMs));
          if (attempt >= attempts || ++rateLimitWaits > limit.waits || (err.retryAfterMs ?? 0) > limit.maxWaitMs) throw fail(err);
          this.stats.retries++;
          continue;
        }
        if (attempt >= attempts) throw fail(err);
        const wait = this.#schedule(++failures, err.retryAfterMs);
        if (wait === undefined) throw fail(err);
        this.stats.retries++;
        await this.#sleep(wait, signal);
      }
    }
  }

  async #attempt<T>(send: (signal: AbortSignal) => Promise<T>, signal: AbortSignal, tally: Tally | undefined): Promise<T> {
    await this.#inFlight?.acquire(signal);
    try {
      await this.#rateLimit?.pause.wait(signal);
      await this.#budget?.acquire(signal);
      this.stats.requests++;
      if (tally) tally.requests++;
      return await send(signal);
    } finally {
      this.#inFlight?.release();
    }
  }
}
