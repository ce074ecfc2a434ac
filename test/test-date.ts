/**
 * The instant every test's "now" starts at (issue 42): pinned, never the wall clock's date, so the suite
 * gives the same answer on any day. TRAMITA_TEST_NOW moves it: the calendar sweep
 * (scripts/calendar-sweep.ts) runs the calendar-sensitive tests at the dates that stress the calendar.
 */
import { PinnedClock } from '../src/platform/clock.ts';

/** A Wednesday, noon in Brasília: an ordinary business day. */
export const DEFAULT_TEST_NOW = '2026-03-11T15:00:00.000Z';

/** The pinned start of the tests' clock (TRAMITA_TEST_NOW, or the default). */
export function testNow(): Date {
  const raw = process.env.TRAMITA_TEST_NOW || DEFAULT_TEST_NOW;
  const at = new Date(raw);
  if (Number.isNaN(at.getTime())) throw new RangeError(`TRAMITA_TEST_NOW: not an ISO instant: ${raw}`);
  return at;
}

/** A clock that starts at testNow() and runs at the real pace: what the harness gives every app it builds. */
export function testClock(): PinnedClock {
  return new PinnedClock(testNow());
}
