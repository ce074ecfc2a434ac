/**
 * The DJEN flavour of SourceError: every failure this connector raises is one of these, so the retry
 * loop can tell a transient failure (retry) from a permanent one. A failure is never "no results".
 */
import { RetryableSourceError, TRANSIENT_FAILURES, type SourceFailure } from '../../platform/ports/source-error.ts';

export const SOURCE_NAME = 'djen';

export class DjenError extends RetryableSourceError {
  constructor(failure: SourceFailure, message: string, opts: { status?: number; retryAfterMs?: number; retryable?: boolean } = {}) {
    super(SOURCE_NAME, TRANSIENT_FAILURES, failure, message, opts);
  }
}

export function isRetryable(err: unknown): err is DjenError {
  return err instanceof DjenError && err.retryable;
}

export function malformed(message: string): DjenError {
  return new DjenError('malformed', message);
}
