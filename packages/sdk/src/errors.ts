/** The errors a call can end in: the API's own (with its `error.code`), or a pending answer given up on. */

/** An error answer of the API: `code` is the envelope's `error.code` (docs/errors.md lists them). */
export class TramitaError extends Error {
  readonly code: string;
  readonly status: number;
  readonly requestId: string | null;
  readonly details: Record<string, unknown> | null;
  /** Seconds the server asked to wait (429, 503), when it said. */
  readonly retryAfterSeconds: number | null;

  constructor(init: {
    code: string;
    message: string;
    status: number;
    requestId: string | null;
    details?: Record<string, unknown> | null;
    retryAfterSeconds?: number | null;
  }) {
    super(init.message);
    this.name = 'TramitaError';
    this.code = init.code;
    this.status = init.status;
    this.requestId = init.requestId;
    this.details = init.details ?? null;
    this.retryAfterSeconds = init.retryAfterSeconds ?? null;
  }
}

/**
 * The answer was still pending when the wait ran out. Nothing is lost and nothing more is charged:
 * `client.resume(err.requestId)` fetches it later.
 */
export class TramitaPendingError extends Error {
  readonly requestId: string;
  readonly statusUrl: string;

  constructor(requestId: string, statusUrl: string) {
    super(`A resposta de ${requestId} ainda está em processamento; consulte-a depois com resume('${requestId}').`);
    this.name = 'TramitaPendingError';
    this.requestId = requestId;
    this.statusUrl = statusUrl;
  }
}
