/**
 * Calls made in the same turn of the event loop, served together: `add` queues an item, and after the
 * turn's I/O callbacks and microtasks (setImmediate) one call of `all` gets every item queued since,
 * at most `max` at a time. Each caller gets its own result, in order. For hot paths where many
 * independent callers make the same small query or write at once (the webhook deliveries a worker
 * claimed together): one statement for all of them instead of one each.
 *
 * If `all` throws for a batch of several items and `isolate` is set, each item is tried again alone,
 * so one bad item fails only its own caller (a write); otherwise every caller of the batch gets the
 * error (a read, which fails the same way for all).
 */
export interface TickBatchOptions<I, R> {
  all: (items: I[]) => Promise<R[]>;
  max?: number;
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
  readonly #isolate: boolean;
  #waiting: Array<Waiting<I, R>> = [];
  #scheduled = false;

  constructor(o: TickBatchOptions<I, R>) {
    this.#all = o.all;
    this.#max = o.max ?? 256;
    this.#isolate = o.isolate ?? false;
  }

  add(item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.#waiting.push({ item, resolve, reject });
      if (this.#scheduled) return;
      this.#scheduled = true;
      setImmediate(() => this.#flush());
    });
  }

  #flush(): void {
    this.#scheduled = false;
    const waiting = this.#waiting;
    this.#waiting = [];
    for (let i = 0; i < waiting.length; i += this.#max) void this.#run(waiting.slice(i, i + this.#max));
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
      for (const w of batch) void this.#run([w]);
      return;
    }
    batch.forEach((w, i) => w.resolve(results[i]));
  }
}
