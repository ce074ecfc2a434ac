/**
 * How much of DJEN one run of the publication cycle may use. DJEN allows 20 requests a minute per IP
 * (djen.md §3) and the connector paces every request on that budget, so a run that asked for
 * everything due could last hours; a run asks at most `max` queries (cadernos and searches alike) and
 * the rest wait for the next. A geoblock or a rate limit ends the run at once: every further query
 * would fail the same way.
 */
import { SourceError } from '../../platform/ports/source-error.ts';

export class CycleBudget {
  readonly max: number;
  #used = 0;
  #stoppedBy: string | null = null;

  constructor(max: number) {
    this.max = max;
  }

  /** Takes one query; false when the run must not ask DJEN any more. */
  take(): boolean {
    if (this.#stoppedBy !== null || this.#used >= this.max) return false;
    this.#used++;
    return true;
  }

  /** Ends the run when the failure would repeat for every other query. */
  noteFailure(err: unknown): void {
    if (err instanceof SourceError && (err.failure === 'geoblocked' || err.failure === 'rate_limited')) this.#stoppedBy = err.failure;
  }

  get used(): number {
    return this.#used;
  }

  /** Why the run stopped early (`geoblocked`, `rate_limited`), or null. */
  get stoppedBy(): string | null {
    return this.#stoppedBy;
  }
}

/** Queries per run: ten minutes of DJEN's budget. */
export function queriesPerRun(requestsPerMinute: number): number {
  return Math.max(1, requestsPerMinute * 10);
}
