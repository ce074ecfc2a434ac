/**
 * Group commit for SQLite: the charges that arrive in the same turn of the event loop share one
 * transaction, so they share one COMMIT (on SQLite the commit, with its WAL writes, cost more than the
 * three statements of a charge together). Each charge stays atomic: it runs inside its own SAVEPOINT,
 * and a charge that fails (a debit the balance cannot cover) rolls back to its savepoint, leaving the
 * others alone. Every caller's promise settles only after the shared COMMIT has returned, so no
 * response ever reports a charge that was not committed; if the COMMIT fails, every charge of the batch
 * fails and none of them was written.
 *
 * Work of one repeated shape (a Batchable: the request path's charges) is written for all its callers
 * at once, before the other units, in one savepoint; if that fails, each caller's item runs as an
 * ordinary unit instead, so one bad item still fails alone.
 *
 * A unit of work must use only the transaction it is given (it holds the one connection: anything
 * else would wait for it forever) and must not wait on anything but its statements.
 */
import type { Kysely, Transaction } from 'kysely';
import type { DB } from './schema.ts';
import { registerSqliteHolder, sqliteConnectionOf, type NodeSqliteDatabase } from './sqlite-dialect.ts';
import { atTurnEnd } from './turn-end.ts';
import type { Settled } from '../async/settled.ts';

export type Work<T> = (trx: Transaction<DB>) => Promise<T>;

/** One caller's result in a batch: its value, or the error that refused it (its writes undone). */
export type { Settled } from '../async/settled.ts';

/**
 * Work of one shape that many callers queue in the same tick and the batch can write all at once
 * (the request path's charges: billing/charge-batch.ts), cheaper than one savepoint and a few
 * statements per caller.
 */
export interface Batchable<I, R> {
  /**
   * Every queued item, synchronously, on the connection the batch holds; one Settled per item, in
   * order. Throwing undoes all of it, and each item then runs `one` in a savepoint of its own.
   */
  all(items: I[]): Array<Settled<R>>;
  /** The same work for one item, as an ordinary unit of work. */
  one(item: I): Work<R>;
}

/** Runs units of work, each atomically, each in a transaction of its own or shared with others. */
export interface Transactor {
  run<T>(work: Work<T>): Promise<T>;
}

/** Group commit on SQLite, a transaction per unit on PostgreSQL: for any hot, short write path. */
export function transactorFor(db: Kysely<DB>): Transactor {
  const sqlite = sqliteConnectionOf(db);
  return sqlite ? new GroupCommit(db, sqlite) : ownTransactions(db);
}

/** PostgreSQL: one transaction per unit; the server overlaps them (row locks, not one connection). */
export function ownTransactions(db: Kysely<DB>): Transactor {
  return { run: (work) => db.transaction().execute(work) };
}

const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;

/** At most this many units per transaction: a batch holds the connection, so reads wait for it. */
const MAX_BATCH = 256;

interface Caller {
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

interface Queued extends Caller {
  work: Work<unknown>;
}

interface QueuedItem extends Caller {
  kind: Batchable<unknown, unknown>;
  item: unknown;
}

export class GroupCommit implements Transactor {
  readonly #db: Kysely<DB>;
  readonly #connection: NodeSqliteDatabase;
  #queue: Queued[] = [];
  #items: QueuedItem[] = [];
  #scheduled = false;

  constructor(db: Kysely<DB>, connection: NodeSqliteDatabase) {
    this.#db = db;
    this.#connection = connection;
  }

  run<T>(work: Work<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ work, resolve: resolve as (v: unknown) => void, reject });
      this.#schedule();
    });
  }

  /** Queues `item` for `kind.all`, written with the other items of its kind queued in this tick. */
  runBatched<I, R>(kind: Batchable<I, R>, item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.#items.push({ kind: kind as Batchable<unknown, unknown>, item, resolve: resolve as (v: unknown) => void, reject });
      this.#schedule();
    });
  }

  /** At the end of the turn (db/turn-end.ts): every request parsed in it has queued its charge by then. */
  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    atTurnEnd(() => {
      this.#scheduled = false;
      const items = this.#items.splice(0, MAX_BATCH);
      const units = this.#queue.splice(0, MAX_BATCH);
      if (this.#queue.length > 0 || this.#items.length > 0) this.#schedule();
      void this.#commit(items, units);
    });
  }

  async #commit(items: QueuedItem[], units: Queued[]): Promise<void> {
    const groups = byKind(items);
    const settled: Settled[] = [];
    try {
      await this.#db.transaction().execute(async (trx) => {
        // This transaction holds the connection until it ends: its statements may run synchronously.
        const release = registerSqliteHolder(trx, this.#connection);
        try {
          // The first work of the transaction needs no savepoint of its own (#mark).
          let first = true;
          for (const [kind, ofKind] of groups) {
            const items = ofKind.map((q) => q.item);
            settled.push(...(await this.#all(trx, kind, items, first)));
            first = false;
          }
          for (const q of units) {
            settled.push(await this.#one(trx, q.work, first));
            first = false;
          }
        } finally {
          release();
        }
      });
    } catch (error) {
      // BEGIN, a savepoint, a unit's fatal error or the COMMIT failed: Kysely rolled back, nothing was written.
      for (const q of [...items, ...units]) q.reject(error);
      return;
    }
    // The same order as above: items grouped by kind, then the units.
    [...groups.values(), units].flat().forEach((q: Caller, i) => {
      const s = settled[i];
      if (s.ok) q.resolve(s.value);
      else q.reject(s.error);
    });
  }

  /** A kind's items at once; if that throws, what it wrote is undone and each item runs alone, as an ordinary unit. */
  async #all(trx: Transaction<DB>, kind: Batchable<unknown, unknown>, items: unknown[], first: boolean): Promise<Settled[]> {
    this.#mark(first);
    try {
      const settled = kind.all(items);
      this.#keep(first);
      return settled;
    } catch (error) {
      if (this.#endsTheBatch(error)) throw error;
      this.#undo(first);
      const one: Settled[] = [];
      for (const item of items) one.push(await this.#one(trx, kind.one(item), false));
      return one;
    }
  }

  async #one(trx: Transaction<DB>, work: Work<unknown>, first: boolean): Promise<Settled> {
    this.#mark(first);
    try {
      const value = await work(trx);
      this.#keep(first);
      return { ok: true, value };
    } catch (error) {
      if (this.#endsTheBatch(error)) throw error;
      this.#undo(first);
      return { ok: false, error };
    }
  }

  /**
   * Work that may fail alone runs in a savepoint, undone if it throws, except the first work of the
   * transaction: nothing else is written yet, so ROLLBACK and BEGIN on the connection the batch holds
   * undo the same (the COMMIT at the end of Kysely's transaction then commits the new one). SQLite
   * keeps a nested savepoint's sub-journal in memory up to 64 KiB and then in a temporary file: for a
   * batch of charges, a file created and deleted per batch, a quarter of a charge's SQLite time
   * (docs/benchmarks.md).
   */
  #mark(first: boolean): void {
    if (!first) this.#exec('savepoint work');
  }

  #keep(first: boolean): void {
    if (!first) this.#exec('release work');
  }

  #undo(first: boolean): void {
    if (first) {
      this.#exec('rollback');
      this.#exec('begin');
    } else {
      this.#exec('rollback to work');
      this.#exec('release work');
    }
  }

  /**
   * Errors that are not this unit's alone: SQLite rolled the whole transaction back, or the database is
   * locked by another process (the next units would each wait busy_timeout for the same lock). They
   * fail the batch at once; its other units are refused uncharged rather than delayed.
   */
  #endsTheBatch(error: unknown): boolean {
    // The primary result code is the low byte of an extended one (SQLITE_BUSY_SNAPSHOT is 5 | 2 << 8).
    const code = ((error as { errcode?: number }).errcode ?? 0) & 0xff;
    return !this.#connection.raw.isTransaction || code === SQLITE_BUSY || code === SQLITE_LOCKED;
  }

  /** Directly on the connection: this batch's transaction holds it. */
  #exec(sql: string): void {
    this.#connection.prepare(sql).execute([]);
  }
}

/** Items grouped by kind, each group in queue order (Map order: first seen first). */
function byKind(items: QueuedItem[]): Map<Batchable<unknown, unknown>, QueuedItem[]> {
  const groups = new Map<Batchable<unknown, unknown>, QueuedItem[]>();
  for (const q of items) {
    const group = groups.get(q.kind);
    if (group) group.push(q);
    else groups.set(q.kind, [q]);
  }
  return groups;
}
