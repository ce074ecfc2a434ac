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
import { TickBatch } from './tick-batch.ts';

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

/** A kind's items of one tick, written by one call of its `all` (platform/tick-batch.ts queues them). */
export class TickBatches<I, R> {
  readonly #db: Kysely<DB>;
  readonly #kind: AsyncBatchable<I, R>;
  readonly #batch: TickBatch<I, Settled<R>>;

  constructor(db: Kysely<DB>, kind: AsyncBatchable<I, R>) {
    this.#db = db;
    this.#kind = kind;
    this.#batch = new TickBatch({ all: (items) => this.#write(items), max: MAX_BATCH, maxInFlight: MAX_IN_FLIGHT });
  }

  async run(item: I): Promise<R> {
    const s = await this.#batch.add(item);
    if (s.ok) return s.value;
    throw s.error;
  }

  /** The batch's decisions; the items it left undecided (or all, if it failed) run alone, in queue order. */
  async #write(items: I[]): Promise<Array<Settled<R>>> {
    let settled: Array<Settled<R> | undefined>;
    try {
      settled = await this.#kind.all(items);
    } catch (error) {
      // The database is away: every caller fails at once (TickBatch rejects the whole batch).
      if (error instanceof StorageUnavailable) throw error;
      settled = items.map(() => undefined);
    }
    const out: Array<Settled<R>> = [];
    for (const [i, item] of items.entries()) out.push(settled[i] ?? (await this.#alone(item)));
    return out;
  }

  async #alone(item: I): Promise<Settled<R>> {
    try {
      return { ok: true, value: await this.#db.transaction().execute(this.#kind.one(item)) };
    } catch (error) {
      return { ok: false, error };
    }
  }
}
