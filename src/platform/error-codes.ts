/**
 * The one registry of error codes (spec §7). Every error the API returns is one of these, with its
 * status and meaning; `docs/errors.md` and the OpenAPI document are generated from this table.
 */

export const ERRORS = {
  // 400: the request itself is wrong
  INVALID_JSON: { status: 400, meaning: 'The body is not valid JSON.' },
  INVALID_BODY: { status: 400, meaning: 'The body is valid JSON but not the shape the operation takes.' },
  UNSUPPORTED_CONTENT_TYPE: { status: 400, meaning: "The body's Content-Type is not one the operation accepts (send `application/json`)." },
  BODY_TOO_LARGE: { status: 413, meaning: 'The body is larger than TRAMITA_BODY_LIMIT_BYTES.' },
  MISSING_PARAMETER: { status: 400, meaning: 'A required parameter is missing; `details.field` names it.' },
  UNKNOWN_PARAMETER: { status: 400, meaning: 'A parameter the operation does not take was sent; `details.field` names it.' },
  INVALID_PARAMETER: { status: 400, meaning: 'A parameter has the wrong type, format or range; `details.field` names it.' },
  INVALID_CURSOR: { status: 400, meaning: 'The pagination cursor is malformed or belongs to another listing.' },
  INVALID_CNJ: { status: 400, meaning: 'Not a CNJ case number: wrong length, format or check digits (MOD 97-10).' },
  INVALID_CPF_CNPJ: { status: 400, meaning: 'Not a valid CPF or CNPJ (numeric or alphanumeric): wrong length or check digits.' },
  INVALID_OAB: { status: 400, meaning: 'Not an OAB registration: expected a UF and a number, e.g. `SP123456`, `123456/SP`, `OAB/SP 123.456`.' },
  INVALID_NUMERO_PECA: {
    status: 400,
    meaning: 'Not a BNMP piece number: 28 digits, `NNNNNNN-DD.AAAA.J.TR.OOOO.TT.SSSS-DV`, whose case number has valid check digits.',
  },
  INVALID_NUP: { status: 400, meaning: 'Not a NUP (17 digits with mod-11 check digits).' },
  INVALID_DATE: { status: 400, meaning: 'A date is not a real calendar day written `YYYY-MM-DD` (`data_inicio`, `data_fim`); `details.field` names it.' },
  INVALID_ELECTORAL_COURT: { status: 400, meaning: 'The electoral court is not `TSE` nor `TRE-` plus one of the 27 UFs (e.g. `TRE-SP`).' },
  INVALID_WEBHOOK_URL: { status: 400, meaning: 'The webhook URL is not HTTPS or points to a private, loopback or link-local address.' },
  INVALID_IDEMPOTENCY_KEY: { status: 400, meaning: 'The Idempotency-Key header is empty, repeated, or longer than 255 characters.' },
  MALFORMED_URL: {
    status: 400,
    meaning: 'The URL is not valid: a percent sign not followed by two hex digits, or an unencoded character where only encoded ones are allowed.',
  },
  MALFORMED_REQUEST: { status: 400, meaning: 'The HTTP request itself could not be read (a malformed request line or header); the connection is closed.' },
  METHOD_NOT_ALLOWED: { status: 405, meaning: 'The path exists, but not with this method; the `Allow` header lists the methods it takes.' },
  REQUEST_TIMEOUT: { status: 408, meaning: 'The request was not received in time; the connection is closed.' },
  URI_TOO_LONG: { status: 414, meaning: 'A path segment is longer than the server accepts (100 characters).' },
  HEADERS_TOO_LARGE: { status: 431, meaning: "The request's headers are larger than the server accepts (16 KiB); the connection is closed." },
  // 401: who are you?
  MISSING_API_KEY: { status: 401, meaning: 'No API key: send it in `x-api-key` or `Authorization: Bearer`.' },
  INVALID_API_KEY: { status: 401, meaning: 'The API key is unknown or was revoked.' },
  // 403: known, but not allowed
  ACCOUNT_INACTIVE: { status: 403, meaning: 'The account bound to the key is deactivated.' },
  INSUFFICIENT_CREDITS: { status: 403, meaning: 'The balance does not cover the price of the operation; nothing was charged.' },
  OPERATION_NOT_ALLOWED: { status: 403, meaning: "The account's plan does not include this operation." },
  // 404
  ROUTE_NOT_FOUND: { status: 404, meaning: 'No operation at this method and path.' },
  NOT_FOUND: { status: 404, meaning: 'The resource does not exist, or belongs to another account.' },
  CASE_NOT_FOUND: { status: 404, meaning: 'No case with this number at the source, nor in the store; nothing was charged.' },
  ADMINISTRATIVE_PROCESS_NOT_FOUND: { status: 404, meaning: 'The source answered that it has no administrative process with this NUP; nothing was charged.' },
  DOCUMENT_NOT_FOUND: { status: 404, meaning: 'The case has no public document with this id.' },
  EDITION_NOT_FOUND: {
    status: 404,
    meaning: 'No electoral gazette edition with this id (`<tribunal>:<número>`, from GET /v1/dje-eleitoral/edicoes); nothing was charged.',
  },
  PUBLICATION_NOT_FOUND: { status: 404, meaning: 'No gazette publication with this id, in the store or at DJEN; nothing was charged.' },
  REQUEST_NOT_FOUND: { status: 404, meaning: "No pending operation with this id for this account (unknown, another account's, or past retention)." },
  // 409 / 422: well-formed, but a rule says no
  IDEMPOTENCY_KEY_IN_USE: { status: 409, meaning: 'A request with this Idempotency-Key is still running; retry after it finishes.' },
  IDEMPOTENCY_ANSWER_LOST: {
    status: 409,
    meaning:
      'The request with this Idempotency-Key was completed and charged, but the server stopped before answering it; it is never run again. ' +
      '`details.searchLogId` names the charge: look up what it created (e.g. GET the monitor or radar list).',
  },
  API_KEY_LIMIT_REACHED: {
    status: 422,
    meaning: 'The account already holds TRAMITA_MAX_API_KEYS active API keys (`details.limit`): revoke one before creating another.',
  },
  IDEMPOTENCY_KEY_REUSED: { status: 422, meaning: 'This Idempotency-Key was used with a different request (method, path or body).' },
  QUERY_NOT_SUPPORTED: {
    status: 422,
    meaning:
      'The provider configured for this source cannot answer this kind of query (e.g. warrants by piece number through a provider that searches by CPF ' +
      'only); nothing was charged.',
  },
  PERIOD_INVERTED: { status: 422, meaning: '`data_fim` is before `data_inicio`.' },
  PERIOD_TOO_LONG: {
    status: 422,
    meaning: 'The period from `data_inicio` to `data_fim` is longer than the operation allows (62 days for the gazettes, spec §8).',
  },
  COURT_NOT_FOUND: { status: 422, meaning: 'The identifier is well-formed but names no court (e.g. a CNJ number whose J.TR is not a court).' },
  UNKNOWN_COURT: { status: 422, meaning: 'The court sigla is not one of the 92 courts of GET /v1/tribunais (e.g. TJSP, TRF4, TRE-SP).' },
  MONITOR_REQUIRED: {
    status: 422,
    meaning: 'None of the OABs asked has a live intimação monitor: create one with POST /v1/intimacoes/oab first (`details.missingMonitorings`).',
  },
  BODY_NOT_COVERED: { status: 422, meaning: 'The NUP is valid, but its first five digits (the protocol unit) name no body of GET /v1/orgaos-administrativos.' },
  COURT_NOT_COVERED: { status: 422, meaning: 'The number names a real court, but no source carries this data for it (STF has no DataJud index).' },
  DOCUMENT_NOT_PUBLIC: {
    status: 422,
    meaning: 'The court opens this document only behind a login or secrecy (its list says so in `restricao`): Tramita never reads it; nothing was charged.',
  },
  REFRESH_REQUIRED: { status: 422, meaning: 'Public documents are listed only after a completed refresh (spec §4.3): POST `solicitar-atualizacao` first.' },
  MONITOR_DEACTIVATED: {
    status: 422,
    meaning: 'The monitor or radar was deactivated (DELETE): its history stays readable, but it can no longer be changed. Create a new one.',
  },
  WEBHOOK_NOT_CONFIGURED: { status: 422, meaning: 'The account webhook has no URL: set one with PUT /v1/conta/webhook first.' },
  DETAILS_UNAVAILABLE: {
    status: 422,
    meaning: 'No case-details provider is configured (TRAMITA_PORTAL_URL), so parties, values and documents cannot be looked up.',
  },
  // 429
  RATE_LIMITED: { status: 429, meaning: 'Too many requests in this route class; wait `Retry-After` seconds.' },
  // 5xx: our side or the source's
  INTERNAL_ERROR: { status: 500, meaning: 'Unexpected failure on our side; nothing was charged. Quote `meta.requestId` to support.' },
  SOURCE_UNAVAILABLE: { status: 503, meaning: 'The upstream source failed or is unavailable; nothing was charged. Retry later.' },
  MODEL_OUTPUT_INCOMPLETE: {
    status: 502,
    meaning:
      'The language model stopped before finishing the summary, even with twice the output budget (TRAMITA_SUMMARY_MAX_OUTPUT_TOKENS); nothing was charged.',
  },
  SOURCE_NOT_CONFIGURED: {
    status: 503,
    meaning:
      'The source sits behind a captcha and is served by a provider the operator configures (docs/providers.md); none is configured ' +
      'in this deployment. Nothing was charged.',
  },
  STORAGE_UNAVAILABLE: {
    status: 503,
    meaning:
      'The database is unavailable for a moment (PostgreSQL restarting or unreachable, SQLite busy or its disk full); nothing was written or charged. Retry ' +
      'after `Retry-After` seconds.',
  },
  SOURCE_TIMEOUT: { status: 504, meaning: 'The upstream source did not answer in time; nothing was charged. Retry later.' },
  OPERATION_INTERRUPTED: { status: 503, meaning: 'The server stopped while the operation ran in the background; nothing was charged. Send it again.' },
  SERVICE_UNAVAILABLE: { status: 503, meaning: 'The server is starting or shutting down.' },
} as const satisfies Record<string, { status: number; meaning: string }>;

export type ErrorCode = keyof typeof ERRORS;
