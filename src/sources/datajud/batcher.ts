/**
 * Coalesces single lookups: keys asked for the same group (alias) within a short window go out as
 * one batch, so thousands of concurrent cold lookups cost about one request per alias per batch.
 * A batch leaves when the window ends or as soon as it holds `maxBatch` keys.
 */

export type BatchRunner<T> = (group: string, keys: string[]) => Promise<Map<string, T>>;

export interface BatcherOptions<T> {
  windowMs: number;
  maxBatch: number;
  run: BatchRunner<T>;
}

interface Waiter<T> {
  resolve(value: T | null): void;
  reject(err: unknown): void;
}

interface PendingBatch<T> {
  waiters: Map<string, Array<Waiter<T>>>;
  timer: ReturnType<typeof setTimeout>;
}

export class Batcher<T> {
  readonly #options: BatcherOptions<T>;
  readonly #pending = new Map<string, PendingBatch<T>>();

  constructor(options: BatcherOptions<T>) {
    if (!Number.isInteger(options.maxBatch) || options.maxBatch < 1) throw new RangeError('Batcher: maxBatch must be a positive integer');
    this.#options = options;
  }

  /** The value for `key`, or null when the batch answered without it. */
  get(group: string, key: string, signal?: AbortSignal): Promise<T | null> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const batch = this.#batchFor(group);
    return new Promise<T | null>((resolve, reject) => {
      const waiter = this.#waiter(batch, key, resolve, reject, signal);
      const list = batch.waiters.get(key);
      if (list) list.push(waiter);
      else batch.waiters.set(key, [waiter]);
      if (batch.waiters.size >= this.#options.maxBatch) this.#flush(group, batch);
    });
  }

  /** Rejects every lookup not yet sent (used on close). */
  rejectPending(err: unknown): void {
    for (const [group, batch] of this.#pending) {
      this.#detach(group, batch);
      for (const list of batch.waiters.values()) for (const w of list) w.reject(err);
    }
  }

  #batchFor(group: string): PendingBatch<T> {
    let batch = this.#pending.get(group);
    if (!batch) {
      const fresh: PendingBatch<T> = { waiters: new Map(), timer: setTimeout(() => this.#flush(group, fresh), this.#options.windowMs) };
      this.#pending.set(group, fresh);
      batch = fresh;
    }
    return batch;
  }

  /** A waiter that settles once; an aborted caller leaves the batch (the others still get theirs). */
  #waiter(batch: PendingBatch<T>, key: string, resolve: (v: T | null) => void, reject: (e: unknown) => void, signal?: AbortSignal): Waiter<T> {
    const onAbort = () => {
      const list = batch.waiters.get(key);
      const i = list ? list.indexOf(waiter) : -1;
      if (list && i >= 0) list.splice(i, 1);
      reject(signal?.reason);
    };
    const waiter: Waiter<T> = {
      resolve: (v) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(v);
      },
      reject: (e) => {
        signal?.removeEventListener('abort', onAbort);
        reject(e);
      },
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    return waiter;
  }

  #detach(group: string, batch: PendingBatch<T>): void {
    clearTimeout(batch.timer);
    if (this.#pending.get(group) === batch) this.#pending.delete(group);
  }

  #flush(group: string, batch: PendingBatch<T>): void {
    this.#detach(group, batch);
    const keys = [...batch.waiters].filter(([, list]) => list.length > 0).map(([key]) => key);
    if (keys.length === 0) return;
    this.#options.run(group, keys).then(
      (found) => {
        for (const [key, list] of batch.waiters) for (const w of list) w.resolve(found.get(key) ?? null);
      },
      (err: unknown) => {
        for (const list of batch.waiters.values()) for (const w of list) w.reject(err);
      },
    );
  }
}
