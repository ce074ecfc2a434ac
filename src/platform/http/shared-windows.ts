/**
 * Rate-limit windows shared by every API process on one PostgreSQL (issue 19, item 4). A request is
 * counted at once in memory (the check stays synchronous: no round trip per request); every
 * `syncMs` the process adds what it counted to `rate_limit_counters` in one statement and reads back
 * each window's total, which includes the other processes' flushes. Windows are aligned to the clock
 * (a multiple of the class's window since the epoch), so every process means the same window.
 *
 * Tolerance: a process learns the others' requests at its next flush. With N processes a key can get
 * at most about (N − 1) × (the requests one process admits in one sync interval) beyond its limit;
 * at the default 100 ms and the default limits, a few requests. docs/operations.md says so.
 */
import { sql, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { DB } from '../db/schema.ts';
import type { Window, WindowCounter } from './rate-limit.ts';

interface Bucket {
  key: string;
  windowStart: number;
  windowMs: number;
  /** The deployment's total as of the last flush (ours included). */
  known: number;
  /** Counted here since the last flush. */
  pending: number;
}

/** Rows older than this after their window started are deleted (longer than any class's window). */
const KEEP_ROWS_MS = 2 * 3_600_000;
const CLEANUP_EVERY_MS = 60_000;
/** Most buckets per statement. */
const MAX_PER_FLUSH = 500;

export class SharedWindows implements WindowCounter {
  readonly #db: Kysely<DB>;
  readonly #log: Pick<Logger, 'warn'>;
  readonly #syncMs: number;
  readonly #buckets = new Map<string, Bucket>();
  #timer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> | undefined;
  #lastCleanup = 0;
  #lastWarning = 0;
  #closed = false;

  constructor(db: Kysely<DB>, log: Pick<Logger, 'warn'>, syncMs: number) {
    this.#db = db;
    this.#log = log;
    this.#syncMs = syncMs;
  }

  count(key: string, now: number, windowMs: number): Window {
    const windowStart = Math.floor(now / windowMs) * windowMs;
    const id = `${key}@${windowStart}`;
    let b = this.#buckets.get(id);
    if (!b) {
      b = { key, windowStart, windowMs, known: 0, pending: 0 };
      this.#buckets.set(id, b);
    }
    b.pending++;
    this.#schedule();
    return { startedAt: windowStart, count: b.known + b.pending };
  }

  /** Adds what this process counted to the shared rows and reads back the totals. */
  async flush(): Promise<void> {
    if (this.#flushing) return this.#flushing;
    this.#flushing = this.#flushOnce().finally(() => {
      this.#flushing = undefined;
    });
    return this.#flushing;
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    await this.flush().catch(() => {});
  }

  #schedule(): void {
    if (this.#timer || this.#closed) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.flush().then(() => {
        if ([...this.#buckets.values()].some((b) => b.pending > 0)) this.#schedule();
      });
    }, this.#syncMs);
    this.#timer.unref();
  }

  async #flushOnce(): Promise<void> {
    const now = Date.now();
    for (const [id, b] of this.#buckets) if (b.windowStart + b.windowMs <= now && b.pending === 0) this.#buckets.delete(id);
    const due = [...this.#buckets.values()].filter((b) => b.pending > 0).slice(0, MAX_PER_FLUSH);
    if (due.length === 0) return;
    const sent = due.map((b) => b.pending);
    try {
      const rows = await this.#db
        .insertInto('rate_limit_counters')
        .values(due.map((b, i) => ({ bucket: b.key, window_start: b.windowStart, count: sent[i]! })))
        .onConflict((oc) => oc.columns(['bucket', 'window_start']).doUpdateSet({ count: sql<number>`rate_limit_counters.count + excluded.count` }))
        .returning(['bucket', 'window_start', 'count'])
        .execute();
      const totals = new Map(rows.map((r) => [`${r.bucket}@${Number(r.window_start)}`, Number(r.count)]));
      due.forEach((b, i) => {
        b.pending -= sent[i]!;
        b.known = totals.get(`${b.key}@${b.windowStart}`) ?? b.known + sent[i]!;
      });
      if (now - this.#lastCleanup > CLEANUP_EVERY_MS) {
        this.#lastCleanup = now;
        await this.#db
          .deleteFrom('rate_limit_counters')
          .where('window_start', '<', now - KEEP_ROWS_MS)
          .execute();
      }
    } catch (err) {
      // The counts stay local (this process still limits on its own) and go out at the next flush.
      if (now - this.#lastWarning > 60_000) {
        this.#lastWarning = now;
        this.#log.warn(
          { err: { message: (err as Error).message } },
          'rate limits: the shared counters could not be written; this process limits alone until they can',
        );
      }
    }
  }
}
