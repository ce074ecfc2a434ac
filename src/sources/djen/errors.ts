/**
 * The DJEN flavour of SourceError: every failure this connector raises is one of these, so the retry
 * loop can tell a transient failure (retry) from a permanent one. A failure is never "no results".
 */
import { RetryableSourceError, type SourceFailure } from '../../platform/ports/sources.ts';

export const SOURCE_NAME = 'djen';

/** Failures worth another attempt: 5xx, network, timeouts (djen.md §4.4: sporadic 503) and 429 after its wait. */
const TRANSIENT: ReadonlySet<SourceFailure> = new Set(['unavailable', 'timeout', 'rate_limited']);

export class DjenError extends RetryableSourceError {
  constructor(failure: SourceFailure, message: string, opts: { status?: number; retryAfterMs?: number; retryable?: boolean } = {}) {
    super(SOURCE_NAME, TRANSIENT, failure, message, opts);
  }
}

export function isRetryable(err: unknown): err is DjenError {
  return err instanceof DjenError && err.retryable;
}

export function malformed(message: string): DjenError {
  return new DjenError('malformed', message);
}
