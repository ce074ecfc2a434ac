/**
 * Calls made in the same turn of the event loop, served together: the one way hot paths batch (the
 * webhook deliveries a worker claimed together, the request path's charges on PostgreSQL, the hot
 * cover's stamp reads on both engines). `add` queues an item, and at the end of the turn
 * (db/turn-end.ts: every request parsed in that turn has queued its item by then) one call of `all`
 * gets every item queued since, at most `max` at a time. Each caller gets its own result, in
 * order: one statement for all of them instead of one each.
 *
 * At most `maxInFlight` calls of `all` run at once (each holds a pooled connection); items queued while
 * every slot is busy wait for the next call, so a busy server makes fewer, larger batches instead of
 * queueing on the pool.
 *
 * If `all` throws for a batch of several items and `isolate` is set, each item is tried again alone,
 * so one bad item fails only its own caller (a write); otherwise every caller of the batch gets the
 * error (a read, which fails the same way for all).
 */
import { atTurnEnd } from './turn-end.ts';

export interface TickBatchOptions<I, R> {
  all: (items: I[]) => Promise<R[]>;
  /** Items per call of `all` at most (default 256). */
  max?: number;
  /** Calls of `all` running at once at most (default: no limit). */
  maxInFlight?: number;
  isolate?: boolean;
}

interface Waiting<I, R> {
  item: I;
  resolve: (value: R) => void;
  reject: (err: unknown) => void;
}

export class TickBatch<I, R> {
  readonly #all: (items: I[]) => Promise<R[]>;
  readonly #max: number;
  readonly #maxInFlight: number;
  readonly #isolate: boolean;
  #waiting: Array<Waiting<I, R>> = [];
  #scheduled = false;
  #inFlight = 0;

  constructor(o: TickBatchOptions<I, R>) {
    this.#all = o.all;
    this.#max = o.max ?? 256;
    this.#maxInFlight = o.maxInFlight ?? Number.POSITIVE_INFINITY;
    this.#isolate = o.isolate ?? false;
  }

  add(item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.#waiting.push({ item, resolve, reject });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#scheduled || this.#inFlight >= this.#maxInFlight) return;
    this.#scheduled = true;
    atTurnEnd(() => this.#flush());
  }

  #flush(): void {
    this.#scheduled = false;
    while (this.#waiting.length > 0 && this.#inFlight < this.#maxInFlight) {
      this.#inFlight++;
      void this.#run(this.#waiting.splice(0, this.#max)).finally(() => {
        this.#inFlight--;
        if (this.#waiting.length > 0) this.#schedule();
      });
    }
  }

  async #run(batch: Array<Waiting<I, R>>): Promise<void> {
    let results: R[];
    try {
      results = await this.#all(batch.map((w) => w.item));
    } catch (err) {
      if (!this.#isolate || batch.length === 1) {
        for (const w of batch) w.reject(err);
        return;
      }
      await Promise.all(batch.map((w) => this.#run([w])));
      return;
    }
    for (const [i, w] of batch.entries()) w.resolve(results[i]!);
  }
}

/**
 * Reads by key, batched per turn (a TickBatch): the keys asked for in one turn are read by ONE call of
 * `fetch`, each distinct key once, and every caller gets its key's row (undefined when `fetch` left it
 * out). For PostgreSQL, where a read is a round trip whose socket writes cost more client CPU than the
 * read itself; a read that waits for the end of its turn still starts after the request that asked for
 * it arrived, so it sees everything committed before that request.
 */
export function tickLoader<K, V>(fetch: (keys: K[]) => Promise<Map<K, V>>): (key: K) => Promise<V | undefined> {
  const batch = new TickBatch<K, V | undefined>({
    all: async (keys) => {
      const found = await fetch([...new Set(keys)]);
      return keys.map((k) => found.get(k));
    },
  });
  return (key) => batch.add(key);
}
