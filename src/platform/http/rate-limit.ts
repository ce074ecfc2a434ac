/**
 * Rate limits per route class and per API key (spec §8): one counter per (class, key), fixed windows.
 * Unauthenticated routes count per IP. Where the counts live is a `WindowCounter`: in this process's
 * memory (`LocalWindows`: a window starts at a key's first request), or, on PostgreSQL, shared by every
 * API process of the deployment (`SharedWindows`, shared-windows.ts: windows aligned to the clock).
 * Every limited answer carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`
 * (seconds, IETF draft); the request past the limit is 429 RATE_LIMITED with `Retry-After`.
 * It runs right after auth (platform/http/gate.ts): a limited request never reaches billing.
 *
 * Synchronous on purpose: it runs on every request, and a promise per request costs more than the
 * counting itself.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimit, RouteClass } from '../../config.ts';
import { ApiError } from '../errors.ts';

/** Counters kept at most; past it, ended windows go first, then the longest-kept. */
const MAX_COUNTERS = 10_000;

/** One window of one (class, key): when it started and how many requests it holds, this one included. */
export interface Window {
  startedAt: number;
  count: number;
}

/** Where windows are counted. `count` is synchronous: it runs on every request. */
export interface WindowCounter {
  count(key: string, now: number, windowMs: number): Window;
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
    const window = this.#counter.count(`${routeClass} ${req.auth ? req.auth.keyId : `ip:${req.ip}`}`, now, windowMs);
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

/** Windows in this process's memory: the only process of a SQLite deployment. */
export class LocalWindows implements WindowCounter {
  readonly #windows = new Map<string, Window>();
  /** The longest window counted so far: a window this old has ended, whatever counted it. */
  #longestWindowMs = 0;

  async close(): Promise<void> {}

  count(key: string, now: number, windowMs: number): Window {
    if (windowMs > this.#longestWindowMs) this.#longestWindowMs = windowMs;
    const current = this.#windows.get(key);
    if (current && current.startedAt + windowMs > now) {
      current.count++;
      return current;
    }
    // A new window: (re)inserted last, so Map order is oldest window first.
    if (current) this.#windows.delete(key);
    else if (this.#windows.size >= MAX_COUNTERS) this.#evict(now);
    const fresh = { startedAt: now, count: 1 };
    this.#windows.set(key, fresh);
    return fresh;
  }

  /** Drops the windows that have ended; if none has, the oldest one. */
  #evict(now: number): void {
    for (const [key, w] of this.#windows) {
      if (w.startedAt + this.#longestWindowMs > now) break; // oldest first: the rest are younger still
      this.#windows.delete(key);
    }
    if (this.#windows.size >= MAX_COUNTERS) this.#windows.delete(this.#windows.keys().next().value!);
  }
}
