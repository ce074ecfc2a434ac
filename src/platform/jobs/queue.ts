/**
 * The durable jobs table (DESIGN §4): an outbox in the same database as the business data.
 * - enqueue inside the caller's transaction, so a job exists if and only if its write committed;
 * - a dedupe key is unique among live (pending/running) jobs: enqueueing it again is a no-op;
 * - a claim is a lease (`locked_until`): a worker that dies leaves its jobs to be claimed again;
 * - every time comes from the injected clock, so retry schedules are exact and testable.
 */
import type { Kysely, Transaction } from 'kysely';
import { addMs, iso, type Clock } from '../clock.ts';
import type { Engine } from '../db/database.ts';
import type { DB, JobsTable } from '../db/schema.ts';
import { newId } from '../ids.ts';
import type { JobType } from './job-type.ts';

export type Job = Omit<JobsTable, 'attempts'> & { attempts: number };

/** Which kinds a worker claims: webhook deliveries get a worker of their own, with more concurrency. */
export interface KindFilter {
  only?: string[];
  except?: string[];
}

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
  constructor(db: Kysely<DB>, clock: Clock, engine: Engine) {
    this.#db = db;
    this.#clock = clock;
    this.#engine = engine;
  }

  /** Returns the job id, or undefined when a live job with the same dedupe key already exists. */
  async enqueue(opts: EnqueueOptions, trx: Kysely<DB> | Transaction<DB> = this.#db): Promise<string | undefined> {
    const now = this.#clock.now();
    const id = newId('job');
    const r = await trx.insertInto('jobs').values({
      id, kind: opts.kind, payload: JSON.stringify(opts.payload ?? null), status: 'pending',
      run_at: iso(opts.runAt ?? now), max_attempts: opts.maxAttempts ?? 5, locked_by: null, locked_until: null,
      dedupe_key: opts.dedupeKey ?? null, last_error: null, created_at: iso(now), updated_at: iso(now),
    }).onConflict((oc) => oc.doNothing()).executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0n) === 1 ? id : undefined;
  }

  /** Enqueues a job of a declared kind (job-type.ts): its attempts and dedupe key come from the declaration. */
  add<P>(type: JobType<P>, payload: P, trx?: Kysely<DB> | Transaction<DB>, opts: { runAt?: Date; maxAttempts?: number } = {}): Promise<string | undefined> {
    return this.enqueue({ kind: type.kind, payload, runAt: opts.runAt, dedupeKey: type.dedupeKey?.(payload), maxAttempts: opts.maxAttempts ?? type.maxAttempts }, trx);
  }

  /**
   * Claims up to `limit` due jobs: pending ones whose time has come, and running ones whose lease
   * lapsed (their worker died). On PostgreSQL, FOR UPDATE SKIP LOCKED lets concurrent workers claim
   * disjoint sets without waiting on each other; SQLite has one writer, so the UPDATE is already atomic.
   */
  async claim(workerId: string, limit: number, leaseMs: number, kinds?: KindFilter): Promise<Job[]> {
    const now = this.#clock.now();
    const due = this.#db.selectFrom('jobs').select('id')
      .where((eb) => eb.or([
        eb.and([eb('status', '=', 'pending'), eb('run_at', '<=', iso(now))]),
        eb.and([eb('status', '=', 'running'), eb('locked_until', '<', iso(now))]),
      ]))
      .$if(kinds?.only !== undefined, (q) => q.where('kind', 'in', kinds!.only!))
      .$if(kinds?.except !== undefined, (q) => q.where('kind', 'not in', kinds!.except!))
      .orderBy('run_at').limit(limit)
      .$if(this.#engine === 'postgres', (q) => q.forUpdate().skipLocked());
    return this.#db.updateTable('jobs')
      .set((eb) => ({ status: 'running', attempts: eb('attempts', '+', 1), locked_by: workerId, locked_until: iso(addMs(now, leaseMs)), updated_at: iso(now) }))
      .where('id', 'in', due)
      .returningAll()
      .execute() as Promise<Job[]>;
  }

  /** Extends the lease of a job this worker still holds; false when it lost it. */
  async renew(id: string, workerId: string, leaseMs: number): Promise<boolean> {
    const r = await this.#db.updateTable('jobs').set({ locked_until: iso(addMs(this.#clock.now(), leaseMs)) })
      .where('id', '=', id).where('locked_by', '=', workerId).where('status', '=', 'running').executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async complete(id: string, workerId: string, trx?: Transaction<DB>): Promise<void> {
    await this.#settle(id, workerId, { status: 'done', last_error: null }, trx);
  }

  /** Puts a job this worker holds back in the queue, due at `runAt`, with its attempts reset when recurring. */
  async reschedule(id: string, workerId: string, runAt: Date, opts: { resetAttempts?: boolean; error?: string } = {}, trx?: Transaction<DB>): Promise<void> {
    await this.#settle(id, workerId, {
      status: 'pending', run_at: iso(runAt), last_error: opts.error ?? null, ...(opts.resetAttempts ? { attempts: 0 } : {}),
    }, trx);
  }

  async fail(id: string, workerId: string, error: string, trx?: Transaction<DB>): Promise<void> {
    await this.#settle(id, workerId, { status: 'failed', last_error: error }, trx);
  }

  /** Hands back every job this worker holds (graceful shutdown), due at once for the next worker. */
  async releaseAll(workerId: string): Promise<number> {
    const now = iso(this.#clock.now());
    const r = await this.#db.updateTable('jobs')
      .set({ status: 'pending', locked_by: null, locked_until: null, run_at: now, updated_at: now })
      .where('locked_by', '=', workerId).where('status', '=', 'running').executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  async get(id: string): Promise<Job | undefined> {
    return this.#db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst() as Promise<Job | undefined>;
  }

  async counts(): Promise<Record<string, number>> {
    const rows = await this.#db.selectFrom('jobs').select(['status']).select((eb) => eb.fn.countAll<number>().as('n')).groupBy('status').execute();
    return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
  }

  async #settle(id: string, workerId: string, set: Partial<Omit<JobsTable, 'attempts'>> & { attempts?: number }, trx: Kysely<DB> | Transaction<DB> = this.#db): Promise<void> {
    await trx.updateTable('jobs')
      .set({ ...set, locked_by: null, locked_until: null, updated_at: iso(this.#clock.now()) })
      .where('id', '=', id).where('locked_by', '=', workerId).execute();
  }
}
