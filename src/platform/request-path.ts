/**
 * Whether a caller is waiting for the work in progress (issue 51): an HTTP operation runs its handler
 * inside `whileCallerWaits` (platform/http/operation.ts), a job inside `inBackground` (the worker).
 * On a request path, the one request loop (sources/http/loop.ts) makes one attempt per call to an
 * auxiliary source (`asAuxiliary`) and to DataJud, the main source (retries and backoff are the
 * background jobs'), an auxiliary source marked failing is not asked (observability/source-health.ts),
 * and the auxiliary sources are waited on at most `auxiliaryDeadlineMs` past the main source's answer
 * (TRAMITA_AUXILIARY_DEADLINE_MS). Other main sources (a gazette, a provider answering its own route)
 * keep their connector's schedule: their answer is the caller's, within the synchronous window.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface CallerWait {
  /** How long a caller waits for an auxiliary source past the main source's answer. */
  auxiliaryDeadlineMs: number;
  /** Set while an auxiliary source is asked (`asAuxiliary`): one attempt, and a failing source is not asked. */
  auxiliary?: boolean;
}

const waiting = new AsyncLocalStorage<CallerWait>();

/** Runs `fn` as a request path: everything it starts (awaited or not) sees `callerWaiting()`. */
export function whileCallerWaits<T>(wait: CallerWait, fn: () => T): T {
  return waiting.run(wait, fn);
}

/**
 * Runs `fn` as the asking of an auxiliary source while a caller waits (a lookup's case-details chain and
 * DJEN's addressees, a search's court fan-out and its hits' details): its upstream calls make one attempt
 * and skip a failing source. Outside a request path it just runs `fn`.
 */
export function asAuxiliary<T>(fn: () => T): T {
  const wait = waiting.getStore();
  return wait ? waiting.run({ ...wait, auxiliary: true }, fn) : fn();
}

/** Runs `fn` as background work, even when started from a request path (a job run at once). */
export function inBackground<T>(fn: () => T): T {
  return waiting.exit(fn);
}

/** The caller's wait when a caller is waiting; undefined in background work. */
export function callerWaiting(): CallerWait | undefined {
  return waiting.getStore();
}

/**
 * The abort reason past a deadline: named `TimeoutError`, so the request it cuts counts as its
 * source's timeout (upstreamOutcome) and the connectors map it as one.
 */
export function deadlineError(ms: number): Error {
  const e = new Error(`no answer within the ${ms} ms a caller waits for an auxiliary source`);
  e.name = 'TimeoutError';
  return e;
}

/** An abort signal that fires `deadlineError(ms)` after `ms`, joined to `signal`; `cancel` clears the timer. */
export function deadlineSignal(ms: number, signal?: AbortSignal): { signal: AbortSignal; cancel(): void; expired(): boolean } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(deadlineError(ms)), ms);
  timer.unref?.();
  return {
    signal: signal ? AbortSignal.any([signal, controller.signal]) : controller.signal,
    cancel: () => clearTimeout(timer),
    expired: () => controller.signal.aborted,
  };
}
