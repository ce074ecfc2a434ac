/**
 * Runs jobs from the durable queue. A worker claims due jobs up to its concurrency, renews their
 * leases while they run, and settles each one: done, rescheduled by its handler's exact retry
 * schedule, or failed after its last attempt. `tramita worker` runs this in its own process
 * (PostgreSQL); on SQLite the server runs it in-process. Stopping hands unfinished jobs back.
 */
import type { Transaction } from 'kysely';
import type { Logger } from 'pino';
import type { DB } from '../db/schema.ts';
import { addMs, type Clock } from '../clock.ts';
import { newId } from '../ids.ts';
import type { Job, JobQueue, KindFilter, SettleOutcome } from './queue.ts';
import { telemetry } from '../observability/telemetry.ts';
import { noteStorageFailure, storageOutageOf } from '../db/outage.ts';
import { inBackground } from '../request-path.ts';

export type { SettleOutcome };

/** What a handler settles its job to, written by JobQueue.settleMany in the handler's transaction. */
export interface JobSettlement {
  id: string;
  workerId: string;
  outcome: SettleOutcome;
}

export interface JobContext {
  job: Job;
  clock: Clock;
  log: Logger;
  /**
   * Settles the job inside the handler's own transaction (done, or back in the queue at `retryAt`),
   * so its result and its settlement commit together: one commit instead of two on a hot job.
   * The worker then settles nothing more.
   */
  settleWithin(trx: Transaction<DB>, outcome: SettleOutcome): Promise<void>;
  /**
   * The same for a handler that writes many jobs' settlements together (JobQueue.settleMany, in its
   * transaction): the job counts as settled by its handler, and this says what to write.
   */
  settling(outcome: SettleOutcome): JobSettlement;
}

export interface JobHandler {
  kind: string;
  /** Returns a time to run again (recurring jobs), or nothing when done. Throws to retry. */
  // biome-ignore lint/suspicious/noConfusingVoidType: a handler that is done returns nothing (an async function with no return).
  run(payload: unknown, ctx: JobContext): Promise<Date | void>;
  /** Delay before attempt `attempt + 1` after a failure of attempt `attempt` (1-based). */
  retryDelayMs?(attempt: number): number;
  /**
   * Runs instead of `run` when the job was claimed more times than it may be attempted (each claim's
   * lease lapsed: the process died or hung mid-run), before the job is marked failed: what the job
   * was for is settled (a delivery ends FALHOU) instead of staying pending forever.
   */
  exhausted?(payload: unknown, ctx: Pick<JobContext, 'job' | 'clock' | 'log'>): Promise<void>;
}

export const defaultRetryDelayMs = (attempt: number): number => Math.min(3_600_000, 2 ** attempt * 10_000);

export interface WorkerOptions {
  queue: JobQueue;
  handlers: JobHandler[];
  clock: Clock;
  log: Logger;
  concurrency: number;
  leaseMs: number;
  pollMs: number;
  /** Only some of its handlers' kinds, or all but some (default: every kind it has a handler for). */
  kinds?: KindFilter;
}

export class Worker {
  readonly id = newId('wrk');
  readonly #o: WorkerOptions;
  readonly #handlers: Map<string, JobHandler>;
  /** The kinds it claims: those it has a handler for, narrowed by `kinds`. */
  readonly #kinds: string[];
  readonly #running = new Map<string, Promise<void>>();
  #timer: NodeJS.Timeout | undefined;
  #stopped = true;
  #ticking: Promise<void> | undefined;
  #claiming = false;
  #failedClaims = 0;
  /** Renews the leases of every running job of this worker, while it has any: one statement per tick. */
  #renewal: NodeJS.Timeout | undefined;

  constructor(options: WorkerOptions) {
    this.#o = options;
    this.#handlers = new Map(options.handlers.map((h) => [h.kind, h]));
    const { only, except } = options.kinds ?? {};
    this.#kinds = [...this.#handlers.keys()].filter((k) => (only === undefined || only.includes(k)) && !except?.includes(k));
  }

  start(): void {
    this.#stopped = false;
    this.#schedule(0);
  }

  /** Stops claiming, waits up to `graceMs` for running jobs, then hands the rest back. */
  async stop(graceMs = 5_000): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#ticking;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.#running.values()]),
      new Promise((r) => {
        timer = setTimeout(r, graceMs);
      }),
    ]);
    clearTimeout(timer);
    this.#stopRenewing();
    const released = await this.#o.queue.releaseAll(this.id);
    if (released > 0) this.#o.log.info({ released }, 'unfinished jobs handed back: they run again, here at the next start or in another worker');
  }

  /** Claims and runs what is due now, waiting for those jobs to settle (tests drive the worker with this). */
  async runDue(): Promise<number> {
    const jobs = await this.#claim();
    await Promise.allSettled(jobs.map((j) => this.#running.get(j.id)));
    return jobs.length;
  }

  #schedule(ms: number): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.#claiming = true;
      this.#ticking = this.#claim().then(
        (jobs) => {
          this.#claiming = false;
          this.#claimSucceeded();
          this.#schedule(jobs.length > 0 ? 0 : this.#o.pollMs);
        },
        (err) => {
          this.#claiming = false;
          this.#claimFailed(err);
          this.#schedule(this.#o.pollMs);
        },
      );
    }, ms);
    this.#timer.unref();
  }

  /**
   * A failed claim is tried again at the next poll. While the database is away (db/outage.ts) every
   * poll fails the same way: one warning when it starts and one line when claims resume, a count each time.
   */
  #claimFailed(err: unknown): void {
    const engine = storageOutageOf(err);
    if (!engine) {
      this.#o.log.error({ err }, 'job claim failed');
      return;
    }
    noteStorageFailure(engine, 'job_claim');
    if (this.#failedClaims++ === 0)
      this.#o.log.warn({ err: { message: (err as Error).message } }, 'job claims paused: the database is unavailable; retrying every poll');
  }

  #claimSucceeded(): void {
    if (this.#failedClaims === 0) return;
    this.#o.log.info({ failedClaims: this.#failedClaims }, 'job claims resumed: the database answers again');
    this.#failedClaims = 0;
  }

  async #claim(): Promise<Job[]> {
    const free = this.#o.concurrency - this.#running.size;
    if (free <= 0) return [];
    const jobs = await this.#o.queue.claim(this.id, free, this.#o.leaseMs, this.#kinds);
    if (jobs.length > 0) this.#renewLeases();
    for (const job of jobs) {
      // A settle that cannot be written (the database went away mid-job) leaves the job leased: it is
      // claimed again once the lease lapses. Never an unhandled rejection, which would end the process.
      const p = this.#execute(job)
        .catch((err) => this.#settleFailed(job, err))
        .finally(() => {
          this.#running.delete(job.id);
          if (this.#running.size === 0) this.#stopRenewing();
          this.#wake();
        });
      this.#running.set(job.id, p);
    }
    return jobs;
  }

  #stopRenewing(): void {
    clearInterval(this.#renewal);
    this.#renewal = undefined;
  }

  #renewLeases(): void {
    if (this.#renewal !== undefined) return;
    const { queue, leaseMs } = this.#o;
    this.#renewal = setInterval(() => void queue.renewHeld(this.id, leaseMs).catch((err) => this.#renewalFailed(err)), Math.max(100, leaseMs / 3));
    this.#renewal.unref();
  }

  /** Tried again at the next tick (a third of a lease later); if the leases lapse first, another worker may take the jobs still running here. */
  #renewalFailed(err: unknown): void {
    telemetry.jobLeaseRenewalFailures.inc();
    const engine = storageOutageOf(err);
    if (engine) noteStorageFailure(engine, 'job_lease_renewal');
    this.#o.log.warn(
      { worker: this.id, running: this.#running.size, err: { message: (err as Error).message } },
      'job lease renewal failed; tried again shortly, and a job whose lease lapses meanwhile may be taken by another worker',
    );
  }

  #settleFailed(job: Job, err: unknown): void {
    const engine = storageOutageOf(err);
    if (engine) noteStorageFailure(engine, 'job_settle');
    this.#o.log.warn(
      { job: job.id, kind: job.kind, err: { message: (err as Error).message } },
      'job could not be settled; it runs again when its lease lapses',
    );
  }

  /**
   * A slot freed up: claim again now rather than at the next poll, unless a claim is under way (it
   * reschedules itself). Without this, a worker whose slots were all busy at its last claim would wait
   * a whole poll interval with free slots and due jobs.
   */
  #wake(): void {
    if (this.#stopped || this.#claiming) return;
    // Claim in batches: a claim is a write, so wait until a quarter of the slots are free (or all are).
    const free = this.#o.concurrency - this.#running.size;
    if (free < Math.max(1, Math.floor(this.#o.concurrency / 4)) && this.#running.size > 0) return;
    clearTimeout(this.#timer);
    this.#schedule(0);
  }

  async #execute(job: Job): Promise<void> {
    const { queue, clock, log } = this.#o;
    // Claimed among this worker's kinds only (JobQueue.claim).
    const handler = this.#handlers.get(job.kind)!;
    if (job.attempts > job.max_attempts) {
      // Its lease lapsed on every attempt: the job kills or hangs its worker. Stop retrying it.
      const error = job.last_error ?? 'lease lapsed on every attempt';
      log.warn({ job: job.id, kind: job.kind, attempts: job.attempts, err: error }, 'job exhausted: every attempt was interrupted');
      try {
        await handler.exhausted?.(JSON.parse(job.payload), { job, clock, log: log.child({ job: job.id, kind: job.kind }) });
      } catch (err) {
        log.error({ err, job: job.id, kind: job.kind }, 'settling an exhausted job failed');
      }
      telemetry.jobRuns.labels(job.kind, 'exhausted').inc();
      await queue.fail(job.id, this.id, error);
      return;
    }
    const began = performance.now();
    let settled = false;
    const settling = (outcome: SettleOutcome): JobSettlement => {
      settled = true;
      return { id: job.id, workerId: this.id, outcome };
    };
    let jobLog: Logger | undefined;
    const ctx: JobContext = {
      job,
      clock,
      settling,
      // A child logger costs a few µs; most runs of a hot job never log.
      get log() {
        if (!jobLog) jobLog = log.child({ job: job.id, kind: job.kind });
        return jobLog;
      },
      settleWithin: (trx, outcome) => queue.settleMany(trx, this.id, [settling(outcome)]),
    };
    try {
      // Background work even when a request path started the worker's turn: retries and backoff are the jobs' (issue 51).
      const again = await inBackground(() => handler.run(JSON.parse(job.payload), ctx));
      telemetry.jobRuns.labels(job.kind, 'done').inc();
      if (settled) return;
      if (again) await queue.reschedule(job.id, this.id, again, { resetAttempts: true });
      else await queue.complete(job.id, this.id);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (job.attempts >= job.max_attempts) {
        telemetry.jobRuns.labels(job.kind, 'failed').inc();
        log.warn({ job: job.id, kind: job.kind, attempts: job.attempts, err: message }, 'job failed for good');
        await queue.fail(job.id, this.id, message);
      } else {
        const delay = (handler.retryDelayMs ?? defaultRetryDelayMs)(job.attempts);
        telemetry.jobRuns.labels(job.kind, 'retry').inc();
        log.warn(
          { job: job.id, kind: job.kind, attempt: job.attempts, of: job.max_attempts, retryInMs: delay, err: message },
          'job failed; it runs again later',
        );
        await queue.reschedule(job.id, this.id, addMs(clock.now(), delay), { error: message });
      }
    } finally {
      telemetry.jobDuration.labels(job.kind).observe((performance.now() - began) / 1000);
    }
  }
}
