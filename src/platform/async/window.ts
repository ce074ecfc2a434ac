/**
 * The synchronous window (spec §3.2): an async-eligible operation still running when the window
 * closes answers 202 with a status URL and goes on in the background, where its lease is renewed
 * while it runs; `Prefer: respond-async` asks for the 202 at once, `Prefer: wait=N` shortens the window.
 */
import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import { addMs, iso, type Clock } from '../clock.ts';
import { absoluteUrl } from '../http/absolute-url.ts';
import type { Preferences } from '../http/prefer.ts';
import { jsonResponse, type StoredResponse } from '../http/stored-response.ts';
import type { PendingOperation } from './pending.ts';
import type { AsyncRequestStore } from './store.ts';

const WINDOW_ELAPSED = Symbol('window elapsed');

/** Operations that answered 202 and still run here; shutdown waits for them. */
export class BackgroundOperations {
  readonly #running = new Set<Promise<unknown>>();
  track(p: Promise<unknown>): void {
    this.#running.add(p);
    void p.finally(() => this.#running.delete(p));
  }
  /** How many are running now. */
  get size(): number {
    return this.#running.size;
  }
  /** Waits for running operations, at most `ms`; those still running then end when the connectors close under them (cli/serve.ts). */
  async drain(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.#running]),
      new Promise((r) => {
        timer = setTimeout(r, ms);
      }),
    ]);
    clearTimeout(timer);
  }
}

export interface WindowDeps {
  config: Config;
  clock: Clock;
  asyncRequests: AsyncRequestStore;
  background: BackgroundOperations;
}

/** What is left of the window, which runs from the request's arrival (`elapsedMs` ago), not from the handler's start. */
function windowMs(config: Config, prefs: Preferences, elapsedMs: number): number {
  const window = Math.min(config.syncWindowMs, prefs.waitMs ?? Infinity);
  return Math.max(0, window - config.syncWindowMarginMs - elapsedMs);
}

/**
 * The answer of an async-eligible run: its result when it ends within the window, else a 202 while
 * the work goes on (tracked, its lease renewed). `start` begins the work; its promise never rejects.
 */
export async function answerWithinWindow(
  req: FastifyRequest,
  pending: PendingOperation,
  start: () => Promise<StoredResponse>,
  prefs: Preferences,
  deps: WindowDeps,
  elapsedMs = 0,
): Promise<StoredResponse> {
  // Formatted only if the operation goes pending: most finish within the window.
  const submitted = deps.clock.now();
  // Asked for a 202: pending before the work starts, even if it turns out to be instant.
  if (prefs.respondAsync) pending.goPending();
  const work = start();
  if (!prefs.respondAsync) {
    let timer: NodeJS.Timeout | undefined;
    const first = await Promise.race([
      work,
      new Promise<typeof WINDOW_ELAPSED>((r) => {
        timer = setTimeout(r, windowMs(deps.config, prefs, elapsedMs), WINDOW_ELAPSED);
      }),
    ]);
    clearTimeout(timer);
    if (first !== WINDOW_ELAPSED) return first;
    // Already writing its result: the answer is moments away, so it stays synchronous.
    if (!pending.goPending()) return work;
  }
  // Without its row the status URL could not answer: wait for the result instead of a 202 that leads nowhere.
  if (!(await pending.opened)) return work;
  const renewal = setInterval(() => void deps.asyncRequests.renew(req.id).catch(() => {}), Math.max(250, deps.asyncRequests.leaseMs / 3));
  renewal.unref();
  deps.background.track(work.finally(() => clearInterval(renewal)));
  return pendingResponse(deps, req.id, iso(submitted), prefs.respondAsync ? { 'preference-applied': 'respond-async' } : {});
}

/** The status URL of a pending operation. */
export function statusUrl(config: Config, requestId: string): string {
  return absoluteUrl(config, `/v1/requests/${requestId}`);
}

const PENDING_MESSAGE =
  'A consulta continua em processamento no servidor. Consulte statusUrl após pollAfterMs; a cobrança acontece uma única vez, quando terminar.';

/** The 202 of a pending operation (spec §2.2), with fresh poll hints. */
export function pendingResponse(
  deps: { clock: Clock; config: Config },
  requestId: string,
  submittedAt: string,
  extraHeaders: Record<string, string> = {},
): StoredResponse {
  const pollAfterMs = deps.config.pollAfterMs;
  const url = statusUrl(deps.config, requestId);
  const hints = {
    pollAfterSeconds: Math.ceil(pollAfterMs / 1000),
    pollAfterMs,
    nextPollAt: iso(addMs(deps.clock.now(), pollAfterMs)),
  };
  return jsonResponse(
    202,
    {
      data: { requestId, status: 'PROCESSANDO', statusUrl: url, submittedAt, ...hints, message: PENDING_MESSAGE },
      ...hints,
      meta: { requestId },
    },
    { location: url, 'retry-after': String(hints.pollAfterSeconds), ...extraHeaders },
  );
}
