/** Sleeps for connector tests that do not really wait. Test-only code. */
import type { ManualClock } from '../../platform/clock.ts';
import type { Sleep } from '../http/waits.ts';

/** A sleep that returns at once and remembers every delay it was asked for. */
export function recordingSleep(): Sleep & { delays: number[] } {
  const delays: number[] = [];
  const sleep = async (ms: number, signal?: AbortSignal) => {
    signal?.throwIfAborted();
    delays.push(ms);
  };
  return Object.assign(sleep, { delays });
}

/** A sleep that moves a manual clock forward instead of waiting. */
export function clockSleep(clock: ManualClock): Sleep {
  return async (ms, signal) => {
    signal?.throwIfAborted();
    clock.advance(ms);
  };
}
