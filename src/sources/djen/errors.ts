/**
 * DJEN's failures, raised through the one factory (sources/http/classify.ts), so the loop tells a
 * transient failure (retry) from a permanent one. A failure is never "no results".
 */
import { isSourceFailure, upstreamError } from '../http/classify.ts';
import type { RetryableSourceError } from '../../platform/ports/source-error.ts';

export const SOURCE_NAME = 'djen';

export const djenError = upstreamError(SOURCE_NAME);

/** Whether `err` is a failure DJEN raised. */
export const isDjenFailure = (err: unknown) => isSourceFailure(err, SOURCE_NAME);

export function malformed(message: string): RetryableSourceError {
  return djenError('malformed', message);
}
