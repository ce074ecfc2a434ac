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

/** ISO-8601 UTC with milliseconds: the storage format of every timestamp (sorts as text on both engines). */
export function iso(d: Date): string {
  return d.toISOString();
}

export function addMs(d: Date, ms: number): Date {
  return new Date(d.getTime() + ms);
}

export const DAY_MS = 86_400_000;

/** The UTC day (`yyyy-mm-dd`) `days` days before `d` (0: its own day). */
export function dayBefore(d: Date, days = 0): string {
  return iso(addMs(d, -days * DAY_MS)).slice(0, 10);
}
