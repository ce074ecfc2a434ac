/**
 * DataJud's failures, raised through the one factory (sources/http/classify.ts): a malformed answer is
 * transient here, unlike elsewhere (reference/upstream/datajud.md §11: retry 429/5xx/timeouts, and a
 * body cut or garbled by a gateway).
 */
import type { SourceFailure } from '../../platform/ports/source-error.ts';
import { isSourceFailure, upstreamError } from '../http/classify.ts';

export const SOURCE_NAME = 'datajud';

const TRANSIENT: ReadonlySet<SourceFailure> = new Set(['unavailable', 'timeout', 'rate_limited', 'malformed']);

export const dataJudError = upstreamError(SOURCE_NAME, TRANSIENT);

/** Whether `err` is a failure DataJud raised. */
export const isDataJudFailure = (err: unknown) => isSourceFailure(err, SOURCE_NAME);
