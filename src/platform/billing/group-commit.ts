/**
 * Group commit for SQLite: the charges that arrive in the same turn of the event loop share one
 * transaction, so they share one COMMIT (on SQLite the commit, with its WAL writes, cost more than the
 * three statements of a charge together). Each charge stays atomic: it runs inside its own SAVEPOINT,
 * and a charge that fails (a debit the balance cannot cover) rolls back to its savepoint, leaving the
 * others alone. Every caller's promise settles only after the shared COMMIT has returned, so no
 * response ever reports a charge that was not committed; if the COMMIT fails, every charge of the batch
 * fails and none of them was written.
 *
 * A unit of work must use only the transaction it is given (it holds the one connection: anything
 * else would wait for it forever) and must not wait on anything but its statements.
 */
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/schema.ts';
import { registerSqliteHolder, sqliteConnectionOf, type NodeSqliteDatabase } from '../db/sqlite-dialect.ts';

export type Work<T> = (trx: Transaction<DB>) => Promise<T>;

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

interface Queued {
  work: Work<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

type Settled = { ok: true; value: unknown } | { ok: false; error: unknown };

export class GroupCommit implements Transactor {
  readonly #db: Kysely<DB>;
  readonly #connection: NodeSqliteDatabase;
  #queue: Queued[] = [];
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

  /** After the current I/O phase: every request parsed in it has queued its charge by then. */
  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      const batch = this.#queue.splice(0, MAX_BATCH);
      if (this.#queue.length > 0) this.#schedule();
      void this.#commit(batch);
    });
  }

  async #commit(batch: Queued[]): Promise<void> {
    const settled: Settled[] = [];
    try {
      await this.#db.transaction().execute(async (trx) => {
        // This transaction holds the connection until it ends: its statements may run synchronously.
        const release = registerSqliteHolder(trx, this.#connection);
        try {
          for (const q of batch) settled.push(await this.#one(trx, q.work));
        } finally {
          release();
        }
      });
    } catch (error) {
      // BEGIN, a savepoint, a unit's fatal error or the COMMIT failed: Kysely rolled back, nothing was written.
      for (const q of batch) q.reject(error);
      return;
    }
    batch.forEach((q, i) => {
      const s = settled[i];
      if (s.ok) q.resolve(s.value);
      else q.reject(s.error);
    });
  }

  async #one(trx: Transaction<DB>, work: Work<unknown>): Promise<Settled> {
    this.#exec('savepoint charge');
    try {
      const value = await work(trx);
      this.#exec('release charge');
      return { ok: true, value };
    } catch (error) {
      if (this.#endsTheBatch(error)) throw error;
      this.#exec('rollback to charge');
      this.#exec('release charge');
      return { ok: false, error };
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
