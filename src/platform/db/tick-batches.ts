/**
 * Batching for PostgreSQL, the counterpart of SQLite's group commit (group-commit.ts): the items of
 * one kind queued in the same turn of the event loop (the request path's charges) are written by ONE
 * call of the kind's `all`, which commits them together (billing/charge-batch.ts: one statement, one
 * round trip, instead of four round trips per charge). Up to MAX_IN_FLIGHT batches run at once, each
 * on a pooled connection of its own; items queued while every slot is busy wait for the next batch, so
 * a busy server writes fewer, larger batches instead of queueing on the pool.
 *
 * Every caller settles only after its batch returned, i.e. after its COMMIT. An item the batch did not
 * decide (its account could not cover the whole batch's total for it) runs alone, as an ordinary unit
 * of work in a transaction of its own, in queue order, so exactly the charges the balance cannot cover
 * are refused. If the batch fails (a constraint, a deadlock), nothing of it was written and every item
 * runs alone the same way; if the database is away (StorageUnavailable), every item fails at once.
 */
import type { Kysely } from 'kysely';
import type { DB } from './schema.ts';
import type { Settled, Work } from './group-commit.ts';
import { StorageUnavailable } from './outage.ts';

/** Work of one shape that many callers queue in one tick, written for all of them by one statement. */
export interface AsyncBatchable<I, R> {
  /**
   * Every item at once, committed when this resolves; one entry per item, in order: its Settled, or
   * undefined for an item the batch left to run alone. Rejecting means nothing was written.
   */
  all(items: I[]): Promise<Array<Settled<R> | undefined>>;
  /** The same work for one item, as an ordinary unit of work in a transaction of its own. */
  one(item: I): Work<R>;
}

/** Batches at once, each holding one pooled connection (the pool has 10; the rest serve reads). */
const MAX_IN_FLIGHT = 4;
/** Items per batch at most, as in group-commit.ts. */
const MAX_BATCH = 256;

interface Queued<I, R> {
  item: I;
  resolve: (value: R) => void;
  reject: (err: unknown) => void;
}

export class TickBatches<I, R> {
  readonly #db: Kysely<DB>;
  readonly #kind: AsyncBatchable<I, R>;
  #queue: Array<Queued<I, R>> = [];
  #inFlight = 0;
  #scheduled = false;

  constructor(db: Kysely<DB>, kind: AsyncBatchable<I, R>) {
    this.#db = db;
    this.#kind = kind;
  }

  run(item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.#queue.push({ item, resolve, reject });
      this.#schedule();
    });
  }

  /** After the current I/O phase: every request parsed in it has queued its item by then. */
  #schedule(): void {
    if (this.#scheduled || this.#inFlight >= MAX_IN_FLIGHT) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      while (this.#queue.length > 0 && this.#inFlight < MAX_IN_FLIGHT) {
        this.#inFlight++;
        void this.#write(this.#queue.splice(0, MAX_BATCH)).finally(() => {
          this.#inFlight--;
          if (this.#queue.length > 0) this.#schedule();
        });
      }
    });
  }

  async #write(batch: Array<Queued<I, R>>): Promise<void> {
    let settled: Array<Settled<R> | undefined>;
    try {
      settled = await this.#kind.all(batch.map((q) => q.item));
    } catch (error) {
      if (error instanceof StorageUnavailable) {
        for (const q of batch) q.reject(error);
        return;
      }
      settled = batch.map(() => undefined);
    }
    const alone: Array<Queued<I, R>> = [];
    for (const [i, q] of batch.entries()) {
      const s = settled[i];
      if (!s) alone.push(q);
      else if (s.ok) q.resolve(s.value);
      else q.reject(s.error);
    }
    for (const q of alone) {
      const s = await this.#alone(q.item);
      if (s.ok) q.resolve(s.value);
      else q.reject(s.error);
    }
  }

  async #alone(item: I): Promise<Settled<R>> {
    try {
      return { ok: true, value: await this.#db.transaction().execute(this.#kind.one(item)) };
    } catch (error) {
      return { ok: false, error };
    }
  }
}
