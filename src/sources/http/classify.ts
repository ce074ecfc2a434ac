/**
 * The one classifier of upstream failures (issue 55 item 2): every connector's request that got no
 * answer, and every answer whose status is a failure, becomes a RetryableSourceError here, from one
 * factory. No answer: a timeout (the attempt's timer or undici's own) is `timeout`; refused, reset,
 * unreachable or unresolvable is `unavailable`. The ladder of statuses: 429 is `rate_limited` with
 * its Retry-After; 401/403 `unauthorized`; 5xx `unavailable` (retried); any other 4xx the upstream's
 * refusal of this request, `unavailable` and not retried (asking again gets the same answer). A
 * connector adds only its own cases: `own` sees the answer first (DataJud's missing index, DJEN's
 * geoblock), `refused` names what a given 4xx means to it, `hints` add what an operator should do.
 */
import { RetryableSourceError, TRANSIENT_FAILURES, type SourceFailure } from '../../platform/ports/source-error.ts';
import { systemClock, type Clock } from '../../platform/clock.ts';
import { header, networkErrorText, type UpstreamResponse } from './attempt.ts';
import { errorBodyNote } from './body.ts';
import { retryAfterMs } from './retry-after.ts';
import { isUpstreamTimeout } from './timeout.ts';

export type ErrorOptions = { status?: number; retryAfterMs?: number; retryable?: boolean };

/** Raises one source's failures: the one factory every connector's errors come from. */
export type UpstreamErrorFactory = (failure: SourceFailure, message: string, opts?: ErrorOptions) => RetryableSourceError;

/**
 * A connector's failures, named by its source (`datajud`, `djen`, `stf`, `consulta-tjsp`): those in
 * `transient` are retried (default: unavailable, timeout, rate_limited; DataJud adds malformed).
 */
export function upstreamError(source: string, transient: ReadonlySet<SourceFailure> = TRANSIENT_FAILURES): UpstreamErrorFactory {
  return (failure, message, opts = {}) => new RetryableSourceError(source, transient, failure, message, opts);
}

/** Whether `err` is a failure this source raised (any connector's, by its source's name). */
export function isSourceFailure(err: unknown, source: string): err is RetryableSourceError {
  return err instanceof RetryableSourceError && err.source === source;
}

/** How one connector's failures are classified and named. */
export interface Classifier {
  error: UpstreamErrorFactory;
  /** How messages name the upstream (`DataJud`, `The model server`, `DJEN`). */
  label: string;
  /** The attempt's timeout, named in a `timeout` message. */
  timeoutMs: number;
  /** Turns an HTTP-date Retry-After into a delay (default: the system clock). */
  clock?: Clock;
  /** The connector's own reading of a failed answer, before the ladder; undefined: the ladder's. */
  own?: (raw: UpstreamResponse, where: string) => RetryableSourceError | undefined;
  /** What a 4xx other than 401/403/429 means to this connector (e.g. 400 → `malformed`); default `unavailable`. */
  refused?: Readonly<Partial<Record<number, SourceFailure>>> & { other?: SourceFailure };
  /** A sentence added to a failure's message: what the operator may do about it (`refused`: the last rung's, whatever its failure). */
  hints?: Partial<Record<SourceFailure | 'refused', string | ((wait: number | undefined) => string)>>;
  /** The wait a 429 without Retry-After means (DJEN: 60 s); default none (the schedule's own backoff). */
  defaultRetryAfterMs?: number;
  /** Applied to every message (the model's key, when a server echoes it). */
  redact?: (text: string) => string;
}

/** A status the loop retries (a 5xx, or a 429 after its wait): what no connector reads as an answer. */
export function isTransientStatus(status: number): boolean {
  return status >= 500 || status === 429;
}

/** A request that got no answer: `timeout` when it ran out of time, else `unavailable` (refused, reset, unreachable, DNS). */
export function unanswered(err: unknown, c: Classifier, what?: string): RetryableSourceError {
  const about = what ? ` ${what}` : '';
  const redact = c.redact ?? ((t: string) => t);
  if (isUpstreamTimeout(err)) return c.error('timeout', `${c.label} did not answer${about} within ${c.timeoutMs} ms.`);
  return c.error('unavailable', redact(`${c.label} unreachable${what ? ` for ${what}` : ''}: ${networkErrorText(err)}`));
}

/**
 * What a request throws when its attempt failed: a source failure as it is (raised by the body
 * reader or the connector), the caller's abort as its reason, else the classified "no answer".
 */
export function attemptFailure(err: unknown, signal: AbortSignal | undefined, c: Classifier, what?: string): unknown {
  if (err instanceof RetryableSourceError) return err;
  if (signal?.aborted) return signal.reason;
  return unanswered(err, c, what);
}

/** The failure an answer's status means (`raw` is not a success the connector reads). */
export function statusFailure(raw: UpstreamResponse, c: Classifier, what?: string): RetryableSourceError {
  const { status } = raw;
  const redact = c.redact ?? ((t: string) => t);
  const where = `${c.label} answered HTTP ${status}${what ? ` for ${what}` : ''}`;
  const own = c.own?.(raw, where);
  if (own) return own;
  const note = redact(errorBodyNote(raw.body));
  const say = (failure: SourceFailure | 'refused', wait?: number): string => {
    const hint = c.hints?.[failure];
    const text = typeof hint === 'function' ? hint(wait) : hint;
    return `${where} ${note}.${text ? ` ${text}` : ''}`;
  };
  const after = (): number | undefined => retryAfterMs(header(raw, 'retry-after'), (c.clock ?? systemClock).now().getTime());
  if (status === 429) {
    const wait = after() ?? c.defaultRetryAfterMs;
    return c.error('rate_limited', say('rate_limited', wait), { status, retryAfterMs: wait });
  }
  if (status === 401 || status === 403) return c.error('unauthorized', say('unauthorized'), { status, retryable: false });
  if (isTransientStatus(status)) return c.error('unavailable', say('unavailable'), { status, retryAfterMs: after() });
  // Any other status: the upstream refused this request; asking again would get the same answer.
  const failure = c.refused?.[status] ?? c.refused?.other ?? 'unavailable';
  return c.error(failure, say(c.hints?.refused ? 'refused' : failure), { status, retryable: false });
}
