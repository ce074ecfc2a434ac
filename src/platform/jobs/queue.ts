/**
 * The durable jobs table (DESIGN §4): an outbox in the same database as the business data.
 * - enqueue inside the caller's transaction, so a job exists if and only if its write committed;
 * - a dedupe key is unique among live (pending/running) jobs: enqueueing it again is a no-op;
 * - a claim is a lease (`locked_until`): a worker that dies leaves its jobs to be claimed again;
 * - every time comes from the injected clock, so retry schedules are exact and testable.
 */
import type { Kysely, QueryCreator, Transaction } from 'kysely';
import { addMs, iso, type Clock } from '../clock.ts';
import type { Engine } from '../db/database.ts';
import type { DB, JobsTable } from '../db/schema.ts';
import { newId } from '../ids.ts';
import { prepared, preparedIn, type Prepared } from '../db/prepared.ts';

export type Job = Omit<JobsTable, 'attempts'> & { attempts: number };

/**
 * Which of its kinds a worker claims: webhook deliveries get a worker of their own, with more
 * concurrency. Whatever the filter, a worker claims only kinds it has a handler for (worker.ts).
 */
export interface KindFilter {
  only?: string[];
  except?: string[];
}

/** Done (`{}`), due again at `retryAt`, or failed for good. */
/** A declared kind of job (job-type.ts `defineJob`); here so the queue needs nothing from the files above it. */
export interface JobType<P> {
  readonly kind: string;
  /** Attempts before the job fails for good (an enqueue may lower or raise it: webhook deliveries follow a setting). */
  readonly maxAttempts: number;
  /** Wait before attempt `attempt + 1` after attempt `attempt` failed (default: the worker's ladder). */
  readonly retryDelayMs?: (attempt: number) => number;
  /** One live job per key: enqueueing a payload whose key is pending or running is a no-op. */
  readonly dedupeKey?: (payload: P) => string;
}

export type SettleOutcome = { retryAt?: undefined; failed?: undefined } | { retryAt: Date; error: string } | { failed: string };

export interface EnqueueOptions {
  kind: string;
  payload: unknown;
  runAt?: Date;
  dedupeKey?: string;
  maxAttempts?: number;
}

export class JobQueue {
  readonly #db: Kysely<DB>;
  readonly #clock: Clock;
  readonly #engine: Engine;
  /** The claim of each kind filter, compiled once (db/prepared.ts): a worker claims many times a second under load. */
  readonly #claims = new Map<string, Prepared<'worker' | 'limit' | 'now' | 'until', Job>>();
  readonly #settleDone;
  constructor(db: Kysely<DB>, clock: Clock, engine: Engine) {
    this.#db = db;
    this.#clock = clock;
    this.#engine = engine;
    this.#settleDone = preparedIn((ids, p) => this.doneStatement(db, p.worker, ids, p.now), ['worker', 'now']);
  }

  /** Returns the job id, or undefined when a live job with the same dedupe key already exists. */
  async enqueue(opts: EnqueueOptions, trx: Kysely<DB> | Transaction<DB> = this.#db): Promise<string | undefined> {
    const now = this.#clock.now();
    const id = newId('job');
    const r = await trx
      .insertInto('jobs')
      .values({
        id,
        kind: opts.kind,
        payload: JSON.stringify(opts.payload ?? null),
        status: 'pending',
        run_at: iso(opts.runAt ?? now),
        max_attempts: opts.maxAttempts ?? 5,
        locked_by: null,
        locked_until: null,
        dedupe_key: opts.dedupeKey ?? null,
        last_error: null,
        created_at: iso(now),
        updated_at: iso(now),
      })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0n) === 1 ? id : undefined;
  }

  /** Enqueues a job of a declared kind (job-type.ts): its attempts and dedupe key come from the declaration. */
  add<P>(type: JobType<P>, payload: P, trx?: Kysely<DB> | Transaction<DB>, opts: { runAt?: Date; maxAttempts?: number } = {}): Promise<string | undefined> {
    return this.enqueue(
      { kind: type.kind, payload, runAt: opts.runAt, dedupeKey: type.dedupeKey?.(payload), maxAttempts: opts.maxAttempts ?? type.maxAttempts },
      trx,
    );
  }

  /**
   * Claims up to `limit` due jobs: running ones whose lease lapsed (their worker died) and pending ones
   * whose time has come, oldest first. Each of the two is its own limited subquery, so each walks the
   * `(status, run_at)` index in order and stops at its limit (one WHERE with an OR of both read and
   * sorted every due job, the whole backlog, on each claim); one statement, one round trip. On
   * PostgreSQL, FOR UPDATE SKIP LOCKED lets concurrent workers claim disjoint sets without waiting on
   * each other (rows a subquery locked beyond the final limit are let go at the statement's commit);
   * SQLite has one writer, so the UPDATE is already atomic.
   *
   * Only jobs of `kinds` (graphile-worker's `task_identifier = any($kinds)`): a job of a kind this
   * worker cannot run (a kind newer than its code, during a rolling deploy) stays queued for one that can.
   */
  async claim(workerId: string, limit: number, leaseMs: number, kinds: readonly string[]): Promise<Job[]> {
    if (kinds.length === 0) return [];
    const now = this.#clock.now();
    const key = kinds.join('\n');
    let claim = this.#claims.get(key);
    if (!claim) {
      claim = prepared(['worker', 'limit', 'now', 'until'], (p) => {
        const lapsed = this.#due(p.limit, kinds, p.now, 'running');
        const pending = this.#due(p.limit, kinds, p.now, 'pending');
        const due = this.#db
          .selectFrom(lapsed.as('l'))
          .select('l.id')
          .unionAll(this.#db.selectFrom(pending.as('p')).select('p.id'))
          .limit(p.limit);
        return this.#db
          .updateTable('jobs')
          .set((eb) => ({ status: 'running', attempts: eb('attempts', '+', 1), locked_by: p.worker, locked_until: p.until, updated_at: p.now }))
          .where('id', 'in', due)
          .returningAll();
      });
      this.#claims.set(key, claim);
    }
    return (await claim(this.#db, { worker: workerId, limit, now: iso(now), until: iso(addMs(now, leaseMs)) })).rows;
  }

  // biome-ignore lint/suspicious/noExplicitAny: a prepared query's markers (db/prepared.ts)
  #due(limit: any, kinds: readonly string[], now: any, status: 'pending' | 'running') {
    return this.#db
      .selectFrom('jobs')
      .select('id')
      .where('status', '=', status)
      .where(status === 'pending' ? 'run_at' : 'locked_until', status === 'pending' ? '<=' : '<', now)
      .where('kind', 'in', kinds)
      .orderBy('run_at')
      .limit(limit)
      .$if(this.#engine === 'postgres', (q) => q.forUpdate().skipLocked());
  }

  /** Extends the leases of every job this worker still holds: one statement per worker, not one per job. */
  async renewHeld(workerId: string, leaseMs: number): Promise<number> {
    const r = await this.#db
      .updateTable('jobs')
      .set({ locked_until: iso(addMs(this.#clock.now(), leaseMs)) })
      .where('locked_by', '=', workerId)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  /**
   * Settles many jobs this worker holds, in `trx`, as `complete`/`reschedule`/`fail` each would: the
   * done ones in one statement (the hot case: a batch of delivered webhooks), the others one by one.
   */
  async settleMany(trx: Transaction<DB>, workerId: string, items: ReadonlyArray<{ id: string; outcome: SettleOutcome }>): Promise<void> {
    const done: string[] = [];
    for (const { id, outcome } of items) {
      if ('retryAt' in outcome && outcome.retryAt) await this.reschedule(id, workerId, outcome.retryAt, { error: outcome.error }, trx);
      else if ('failed' in outcome && outcome.failed) await this.fail(id, workerId, outcome.failed, trx);
      else done.push(id);
    }
    if (done.length > 0) await this.#settleDone(trx, done, { worker: workerId, now: iso(this.#clock.now()) });
  }

  /** The statement that settles jobs this worker holds as done, for a caller that runs it inside a statement of its own (a PostgreSQL WITH). */
  // biome-ignore lint/suspicious/noExplicitAny: also built with a prepared query's markers (db/prepared.ts)
  doneStatement(qc: QueryCreator<DB>, workerId: any, ids: readonly any[], now: any = iso(this.#clock.now())) {
    return qc
      .updateTable('jobs')
      .set({ status: 'done', last_error: null, locked_by: null, locked_until: null, updated_at: now })
      .where('id', 'in', ids)
      .where('locked_by', '=', workerId);
  }

  async complete(id: string, workerId: string, trx?: Transaction<DB>): Promise<void> {
    await this.#settle(id, workerId, { status: 'done', last_error: null }, trx);
  }

  /** Puts a job this worker holds back in the queue, due at `runAt`, with its attempts reset when recurring. */
  async reschedule(id: string, workerId: string, runAt: Date, opts: { resetAttempts?: boolean; error?: string } = {}, trx?: Transaction<DB>): Promise<void> {
    await this.#settle(
      id,
      workerId,
      {
        status: 'pending',
        run_at: iso(runAt),
        last_error: opts.error ?? null,
        ...(opts.resetAttempts ? { attempts: 0 } : {}),
      },
      trx,
    );
  }

  async fail(id: string, workerId: string, error: string, trx?: Transaction<DB>): Promise<void> {
    await this.#settle(id, workerId, { status: 'failed', last_error: error }, trx);
  }

  /** Hands back every job this worker holds (graceful shutdown), due at once for the next worker. */
  async releaseAll(workerId: string): Promise<number> {
    const now = iso(this.#clock.now());
    const r = await this.#db
      .updateTable('jobs')
      .set({ status: 'pending', locked_by: null, locked_until: null, run_at: now, updated_at: now })
      .where('locked_by', '=', workerId)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  async get(id: string): Promise<Job | undefined> {
    return this.#db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst() as Promise<Job | undefined>;
  }

  async counts(): Promise<Record<string, number>> {
    const rows = await this.#db
      .selectFrom('jobs')
      .select(['status'])
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .groupBy('status')
      .execute();
    return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
  }

  async #settle(
    id: string,
    workerId: string,
    set: Partial<Omit<JobsTable, 'attempts'>> & { attempts?: number },
    trx: Kysely<DB> | Transaction<DB> = this.#db,
  ): Promise<void> {
    await trx
      .updateTable('jobs')
      .set({ ...set, locked_by: null, locked_until: null, updated_at: iso(this.#clock.now()) })
      .where('id', '=', id)
      .where('locked_by', '=', workerId)
      .execute();
  }
}
