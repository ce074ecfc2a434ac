/**
 * The one clock. Every timestamp the code stores or compares comes from an injected Clock,
 * never from SQL now() or a stray Date.now(), so tests can move time (retry schedules, leases, TTLs).
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  #ms: number;
  constructor(start: Date | string = '2026-01-01T00:00:00.000Z') {
    this.#ms = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.#ms);
  }
  advance(ms: number): void {
    this.#ms += ms;
  }
  set(to: Date | string): void {
    this.#ms = new Date(to).getTime();
  }
}

/**
 * A clock that starts at a chosen instant and runs at the real pace from there: what the test harness
 * pins, so the calendar a test sees (weekday, month's end, holidays) is the one it asked for, while
 * leases, timers and retry schedules still move as they do in production.
 */
export class PinnedClock implements Clock {
  readonly #startMs: number;
  readonly #realStart = performance.now();
  constructor(start: Date | string) {
    this.#startMs = new Date(start).getTime();
    if (Number.isNaN(this.#startMs)) throw new RangeError(`PinnedClock: not an instant: ${String(start)}`);
  }
  now(): Date {
    return new Date(this.#startMs + Math.floor(performance.now() - this.#realStart));
  }
}

/** ISO-8601 UTC with milliseconds: the storage format of every timestamp (sorts as text on both engines). */
export function iso(d: Date): string {
  return d.toISOString();
}

export function addMs(d: Date, ms: number): Date {
  return new Date(d.getTime() + ms);
}

export const DAY_MS = 86_400_000;
