/**
 * A job kind declared once (issue 33, item 4): the type of its payload, how many attempts it gets,
 * its backoff and its dedupe key sit in one declaration beside its handler. Callers enqueue through
 * the declaration (`JobQueue.add`) and handlers are built from it (`jobHandler`), so the payload a
 * handler reads is, for the compiler, the payload that was written: no cast in any handler. The one
 * place where stored JSON becomes the declared type is `jobHandler` below.
 */
import type { JobType } from './queue.ts';
import type { JobContext, JobHandler } from './worker.ts';

export type { JobType };

export function defineJob<P>(type: JobType<P>): JobType<P> {
  return type;
}

/** Each run of a recurring job reschedules itself with its attempts reset, so this only bounds a crash loop. */
const RECURRING_MAX_ATTEMPTS = 1_000_000;

/**
 * A recurring job (a capability's `schedules`): one live row of its kind (its dedupe key is the kind),
 * whatever the number of processes, made sure of at start (recurring.ts); each run returns when to run again.
 */
export interface RecurringJob extends JobType<null> {
  readonly recurring: true;
}

export function defineRecurring(kind: string): RecurringJob {
  return { kind, maxAttempts: RECURRING_MAX_ATTEMPTS, dedupeKey: () => kind, recurring: true };
}

export interface TypedHandler<P> {
  // biome-ignore lint/suspicious/noConfusingVoidType: a handler that is done returns nothing (an async function with no return).
  run(payload: P, ctx: JobContext): Promise<Date | void>;
  exhausted?(payload: P, ctx: Pick<JobContext, 'job' | 'clock' | 'log'>): Promise<void>;
  /** A backoff that needs the running services (the webhook planner's); otherwise the declaration's. */
  retryDelayMs?(attempt: number): number;
}

/** The worker's handler of a declared kind: the payload was written by `JobQueue.add` with this type. */
export function jobHandler<P>(type: JobType<P>, h: TypedHandler<P>): JobHandler {
  const exhausted = h.exhausted;
  return {
    kind: type.kind,
    retryDelayMs: h.retryDelayMs ?? type.retryDelayMs,
    run: (payload, ctx) => h.run(payload as P, ctx),
    ...(exhausted ? { exhausted: (payload: unknown, ctx: Pick<JobContext, 'job' | 'clock' | 'log'>) => exhausted(payload as P, ctx) } : {}),
  };
}
