/**
 * Rate limits per route class and per account (spec §8 says per route class; counting per account, not
 * per key, means more keys never mean more requests, issue 45): one counter per (class, account), fixed
 * windows. Unauthenticated routes count per IP. Where the counts live is a `WindowCounter`: in this
 * process's memory (`LocalWindows`: a window starts at its first request), or, on PostgreSQL, shared by
 * every API process of the deployment (`SharedWindows`, shared-windows.ts: windows aligned to the clock).
 * Every limited answer carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`
 * (seconds, IETF draft); the request past the limit is 429 RATE_LIMITED with `Retry-After`.
 * It runs right after auth (platform/http/gate.ts): a limited request never reaches billing.
 *
 * Synchronous on purpose: it runs on every request, and a promise per request costs more than the
 * counting itself.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimit, RouteClass } from './route-classes.ts';
import { ApiError } from '../errors.ts';

/** Address windows kept at most; past it, account windows are swept of ended ones too (they are as many as the accounts). */
export const MAX_ADDRESS_WINDOWS = 10_000;

/** One window of one (class, key): when it started and how many requests it holds, this one included. */
export interface Window {
  startedAt: number;
  count: number;
}

/**
 * Whose window: an account's (as many as the operator created), or an address's (anyone can bring
 * new ones, an IPv6 client by the billion), which is what a bound on memory must hold back.
 */
export type WindowOwner = 'account' | 'address';

/** Where windows are counted. `count` is synchronous: it runs on every request. */
export interface WindowCounter {
  count(key: string, now: number, windowMs: number, owner?: WindowOwner): Window;
  /** Sends what is still only local (shared counters) and stops; a no-op in memory. */
  close(): Promise<void>;
}

export class RateLimiter {
  readonly #limits: Record<RouteClass, RateLimit>;
  readonly #now: () => number;
  readonly #counter: WindowCounter;

  constructor(limits: Record<RouteClass, RateLimit>, now: () => number = Date.now, counter: WindowCounter = new LocalWindows()) {
    this.#limits = limits;
    this.#now = now;
    this.#counter = counter;
  }

  close(): Promise<void> {
    return this.#counter.close();
  }

  /** Counts the request; sets the RateLimit-* headers; throws RATE_LIMITED past the class's limit. */
  check(req: FastifyRequest, reply: FastifyReply, routeClass: RouteClass): void {
    const { max, windowMs } = this.#limits[routeClass];
    const now = this.#now();
    const window = req.auth
      ? this.#counter.count(`${routeClass} acct:${req.auth.account.id}`, now, windowMs, 'account')
      : this.#counter.count(`${routeClass} ip:${req.ip}`, now, windowMs, 'address');
    const resetSeconds = Math.max(1, Math.ceil((window.startedAt + windowMs - now) / 1000));
    reply.header('ratelimit-limit', max);
    reply.header('ratelimit-remaining', Math.max(0, max - window.count));
    reply.header('ratelimit-reset', resetSeconds);
    if (window.count > max) {
      throw new ApiError(
        'RATE_LIMITED',
        `More than ${max} requests in the "${routeClass}" class this window; retry in ${resetSeconds} s.`,
        { routeClass, limit: max, retryAfterSeconds: resetSeconds },
        { 'retry-after': String(resetSeconds) },
      );
    }
  }
}

/**
 * Windows in this process's memory: the only process of a SQLite deployment. A live window is never
 * dropped to make room, so no flood of new keys resets another key's window (issue 45). Ended windows
 * are swept when a new one would pass the bound; if the address windows are still all live, a new
 * address counts in one overflow window per window length, shared by every newcomer until some end:
 * an address flood limits itself, and the accounts' and the known addresses' windows stay as counted.
 */
export class LocalWindows implements WindowCounter {
  readonly #accounts = new Map<string, Window>();
  readonly #addresses = new Map<string, Window>();
  readonly #overflow = new Map<number, Window>();
  /** The longest window counted so far: a window this old has ended, whatever counted it. */
  #longestWindowMs = 0;

  async close(): Promise<void> {}

  count(key: string, now: number, windowMs: number, owner: WindowOwner = 'address'): Window {
    if (windowMs > this.#longestWindowMs) this.#longestWindowMs = windowMs;
    const windows = owner === 'account' ? this.#accounts : this.#addresses;
    if (!windows.has(key) && windows.size >= MAX_ADDRESS_WINDOWS) {
      this.#sweep(windows, now);
      if (owner === 'address' && windows.size >= MAX_ADDRESS_WINDOWS) return countIn(this.#overflow, windowMs, now, windowMs);
    }
    return countIn(windows, key, now, windowMs);
  }

  /** Drops the windows that have ended, oldest first; never a live one. */
  #sweep(windows: Map<string, Window>, now: number): void {
    for (const [key, w] of windows) {
      if (w.startedAt + this.#longestWindowMs > now) break; // oldest first: the rest are younger still
      windows.delete(key);
    }
  }
}

/** Counts one request in `key`'s window of `windows`, starting a new one (last in Map order: oldest first) when it has ended. */
function countIn<K>(windows: Map<K, Window>, key: K, now: number, windowMs: number): Window {
  const current = windows.get(key);
  if (current && current.startedAt + windowMs > now) {
    current.count++;
    return current;
  }
  windows.delete(key);
  const fresh = { startedAt: now, count: 1 };
  windows.set(key, fresh);
  return fresh;
}
