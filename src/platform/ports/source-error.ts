/** Why an upstream call failed: the one error every connector throws. Never means "not found". */
/** `geoblocked`: the upstream refuses this host's country (DJEN's CloudFront 403 outside Brazil, djen.md §3). */
/** `input_too_long`: a language model refused the prompt as longer than its context (ports/model.ts). */
/** `captcha`: the upstream answered a captcha page; Tramita never solves one (DESIGN.md), so it is a failure. */
/** `too_large`: the answer's body crossed its source's size limit (TRAMITA_UPSTREAM_MAX_BYTES; sources/http/body.ts). */
export type SourceFailure =
  | 'unavailable'
  | 'timeout'
  | 'rate_limited'
  | 'malformed'
  | 'unauthorized'
  | 'no_index'
  | 'geoblocked'
  | 'input_too_long'
  | 'captcha'
  | 'too_large'
  | 'anti_bot'
  | 'login';

export class SourceError extends Error {
  readonly source: string;
  readonly failure: SourceFailure;
  readonly retryAfterMs: number | undefined;
  constructor(source: string, failure: SourceFailure, message: string, retryAfterMs?: number) {
    super(message);
    this.name = 'SourceError';
    this.source = source;
    this.failure = failure;
    this.retryAfterMs = retryAfterMs;
  }
}

/** Failures worth another attempt: 5xx, network, timeouts and 429 (after its wait). */
export const TRANSIENT_FAILURES: ReadonlySet<SourceFailure> = new Set(['unavailable', 'timeout', 'rate_limited']);

/**
 * A connector's SourceError that knows whether another attempt may help: each connector subclasses it
 * with its name and its own set of transient failures, so its retry loop can tell a transient failure
 * from a permanent one.
 */
export class RetryableSourceError extends SourceError {
  /** HTTP status when the upstream answered, undefined for network errors and timeouts. */
  readonly status: number | undefined;
  readonly retryable: boolean;
  constructor(
    source: string,
    transient: ReadonlySet<SourceFailure>,
    failure: SourceFailure,
    message: string,
    opts: { status?: number; retryAfterMs?: number; retryable?: boolean } = {},
  ) {
    super(source, failure, message, opts.retryAfterMs);
    this.status = opts.status;
    this.retryable = opts.retryable ?? transient.has(failure);
  }
}

/**
 * The errors a connector ends its work in flight with when it is closed (the process is stopping):
 * not a failure of the source. An operation that meets one ends 503 OPERATION_INTERRUPTED, like one
 * that meets the closed database, rather than SOURCE_UNAVAILABLE.
 */
const closings = new WeakSet<Error>();

export function closedConnector<E extends Error>(err: E): E {
  closings.add(err);
  return err;
}

export function isClosedConnector(err: unknown): boolean {
  return err instanceof Error && closings.has(err);
}
