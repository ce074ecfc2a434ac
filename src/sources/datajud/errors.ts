/**
 * The DataJud flavour of SourceError: every failure this connector raises is one of these, so the
 * retry loop can tell a transient failure (retry) from a permanent one (a 400 from a bad query).
 */
import { RetryableSourceError, type SourceFailure } from '../../platform/ports/source-error.ts';

export const SOURCE_NAME = 'datajud';

/** Failures worth another attempt (reference/upstream/datajud.md §11: retry 429/5xx/timeouts). */
const TRANSIENT: ReadonlySet<SourceFailure> = new Set(['unavailable', 'timeout', 'rate_limited', 'malformed']);

export class DataJudError extends RetryableSourceError {
  constructor(failure: SourceFailure, message: string, opts: { status?: number; retryAfterMs?: number; retryable?: boolean } = {}) {
    super(SOURCE_NAME, TRANSIENT, failure, message, opts);
  }
}

export function isRetryable(err: unknown): err is DataJudError {
  return err instanceof DataJudError && err.retryable;
}
