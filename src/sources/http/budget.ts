/**
 * The process-wide DataJud request budget: at most N requests in any rolling minute, across every
 * alias, lookup, refresh and monitor (terms of use 3.13: ≤ 120/min, reference/upstream/datajud.md §3).
 * A sliding log of grant times rather than a refilling bucket: a bucket of N that refills at N/min
 * lets 2N through in some 60 s windows; the log never does. Callers queue (FIFO) and wait for a slot;
 * waiting is abortable and never fails otherwise.
 */
import { realSleep, type Sleep } from './waits.ts';
import { systemClock, type Clock } from '../../platform/clock.ts';
import { raceAbort } from './concurrency.ts';
import { budgetSpent, watchBudget } from '../../platform/observability/upstreams.ts';

export interface RequestBudgetOptions {
  perMinute: number;
  clock?: Clock;
  sleep?: Sleep;
  /** The rolling window; 60 000 ms unless a test says otherwise. */
  windowMs?: number;
  /** The source it paces (metrics' `source` label, the warn line when it is spent). */
  name?: string;
  /** Called at each grant with its time (metrics, tests). */
  onGrant?: (atMs: number) => void;
}

export class RequestBudget {
  readonly perMinute: number;
  readonly #windowMs: number;
  readonly #clock: Clock;
  readonly #sleep: Sleep;
  readonly #onGrant: ((atMs: number) => void) | undefined;
  readonly #name: string | undefined;
  /** Grant times (ms), oldest first; `#head` skips the expired ones without shifting the array. */
  #grants: number[] = [];
  #head = 0;
  #tail: Promise<void> = Promise.resolve();
  #granted = 0;

  constructor(options: RequestBudgetOptions) {
    if (!Number.isInteger(options.perMinute) || options.perMinute < 1) throw new RangeError('RequestBudget: perMinute must be a positive integer');
    this.perMinute = options.perMinute;
    this.#windowMs = options.windowMs ?? 60_000;
    this.#clock = options.clock ?? systemClock;
    this.#sleep = options.sleep ?? realSleep;
    this.#onGrant = options.onGrant;
    this.#name = options.name;
    if (options.name) watchBudget(options.name, this);
  }

  /** Requests that may still go in the current window without waiting. */
  remaining(): number {
    const since = this.#clock.now().getTime() - this.#windowMs;
    let used = 0;
    for (let i = this.#grants.length - 1; i >= this.#head && this.#grants[i]! > since; i--) used++;
    return Math.max(0, this.perMinute - used);
  }

  /** Requests granted so far (for stats and tests). */
  get granted(): number {
    return this.#granted;
  }

  /** Resolves when this caller may send one request; rejects only when `signal` aborts. */
  acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const turn = this.#tail.then(() => this.#waitForSlot(signal));
    this.#tail = turn.catch(() => undefined);
    return signal ? raceAbort(turn, signal) : turn;
  }

  async #waitForSlot(signal: AbortSignal | undefined): Promise<void> {
    for (let waited = false; ; waited = true) {
      // An aborted caller gives its turn away without taking a slot.
      signal?.throwIfAborted();
      const waitMs = this.#tryTake();
      if (waitMs === 0) return;
      if (!waited && this.#name) budgetSpent(this.#name, this.perMinute, waitMs);
      await this.#sleep(waitMs, signal);
    }
  }

  /** Takes a slot and returns 0, or returns how long until the oldest grant leaves the window. */
  #tryTake(): number {
    const now = this.#clock.now().getTime();
    if (this.#grants.length > this.#head && this.#grants[this.#grants.length - 1] > now) {
      // The clock went back: forget the log rather than stall every caller until it catches up.
      this.#grants = [];
      this.#head = 0;
    }
    while (this.#head < this.#grants.length && this.#grants[this.#head] <= now - this.#windowMs) this.#head++;
    if (this.#head > 1024 && this.#head * 2 > this.#grants.length) {
      this.#grants = this.#grants.slice(this.#head);
      this.#head = 0;
    }
    if (this.#grants.length - this.#head < this.perMinute) {
      this.#grants.push(now);
      this.#granted++;
      this.#onGrant?.(now);
      return 0;
    }
    return Math.max(1, this.#grants[this.#head] + this.#windowMs - now);
  }
}
