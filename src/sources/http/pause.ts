/**
 * A pause every request of a RequestLoop keeps: an upstream's own rate-limit signals, shared by every
 * request of the process. DJEN's (djen.md §4.4): when an answer says `x-ratelimit-remaining` ≤ 2, or a
 * 429 asks to wait, the next requests wait that long (60 s by default) before going out. This is on top
 * of the RequestBudget: the budget counts this process's requests, the header tells what the upstream
 * counted for the IP (other processes included).
 */
import { systemClock, type Clock } from '../../platform/clock.ts';
import type { ResponseHeaders } from './attempt.ts';
import type { Sleep } from './waits.ts';

export const LOW_REMAINING = 2;
export const LOW_REMAINING_PAUSE_MS = 60_000;

export class RequestPause {
  readonly #clock: Clock;
  readonly #sleep: Sleep;
  /** Epoch ms before which no request should go out; 0 when open. */
  #until = 0;

  constructor(options: { clock?: Clock; sleep: Sleep }) {
    this.#clock = options.clock ?? systemClock;
    this.#sleep = options.sleep;
  }

  /** Reads `x-ratelimit-remaining` from an answer. */
  note(headers: ResponseHeaders): void {
    const raw = headers['x-ratelimit-remaining'];
    const value = Number(Array.isArray(raw) ? raw[0] : raw);
    if (raw !== undefined && Number.isFinite(value) && value <= LOW_REMAINING) this.pauseFor(LOW_REMAINING_PAUSE_MS);
  }

  /** No request goes out for `ms` from now (a longer pause already set is kept). */
  pauseFor(ms: number): void {
    this.#until = Math.max(this.#until, this.#clock.now().getTime() + ms);
  }

  /** Whether a pause is in force now. */
  paused(): boolean {
    return this.#until > this.#clock.now().getTime();
  }

  /** Waits the pause out (once; abortable). Returns the time waited. */
  async wait(signal?: AbortSignal): Promise<number> {
    const until = this.#until;
    const ms = until - this.#clock.now().getTime();
    if (ms <= 0) return 0;
    await this.#sleep(ms, signal);
    // Whoever waited a pause out reopens it, unless a newer pause was set meanwhile. Also keeps a
    // test's instant sleep (clock not moving) from waiting again on every later request.
    if (this.#until === until) this.#until = 0;
    return ms;
  }
}
