/**
 * Turns every failure into the registry's `{error: {code, message, details?}}`: Fastify's own errors
 * (bad JSON, wrong content type, oversized body, schema validation) get precise 400 codes naming the
 * field; anything unexpected is logged and answered as INTERNAL_ERROR without a stack trace.
 */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { newId } from '../ids.ts';
import { isClosedConnector, SourceError } from '../ports/source-error.ts';
import { isDatabaseClosed, noteStorageFailure, storageOutageOf } from '../db/outage.ts';
import { ApiError, errorBody, isApiError, languageOf } from '../errors.ts';

interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

const CONTEXT_NAMES: Record<string, string> = { querystring: 'query', params: 'path', body: 'body', headers: 'header' };

function fieldName(instancePath: string, extra?: unknown): string {
  const parts = instancePath.split('/').filter(Boolean);
  if (typeof extra === 'string') parts.push(extra);
  return parts.join('.');
}

/**
 * The error worth reporting: a `null | T` union (http/nullable.ts) that fails reports its null branch
 * first ("must be null") and then the summary "must match a schema in anyOf"; what T wanted says more.
 */
function mostTelling(validation: AjvError[]): AjvError {
  const telling = validation.filter((e) => e.keyword !== 'anyOf' && !(e.keyword === 'type' && e.params.type === 'null'));
  return telling[0] ?? validation[0];
}

function fromValidation(validation: AjvError[], context: string | undefined): ApiError {
  const first = mostTelling(validation);
  const where = CONTEXT_NAMES[context ?? ''] ?? context ?? 'request';
  if (first.keyword === 'additionalProperties') {
    const field = fieldName(first.instancePath, first.params.additionalProperty);
    return new ApiError('UNKNOWN_PARAMETER', `Unknown ${where} parameter "${field}".`, { field, in: where });
  }
  if (first.keyword === 'required') {
    const field = fieldName(first.instancePath, first.params.missingProperty);
    return new ApiError('MISSING_PARAMETER', `Missing required ${where} parameter "${field}".`, { field, in: where });
  }
  const field = fieldName(first.instancePath);
  if (where === 'body' && !field) return new ApiError('INVALID_BODY', `The body ${first.message ?? 'has the wrong shape'}.`, { in: where });
  // A union of literals fails once per literal: name them all, not the first.
  const allowedValues = validation
    .filter((e) => e.instancePath === first.instancePath && (e.keyword === 'const' || e.keyword === 'enum'))
    .flatMap((e) => (e.keyword === 'const' ? [e.params.allowedValue] : ((e.params.allowedValues as unknown[] | undefined) ?? [])));
  if (allowedValues.length > 0) {
    return new ApiError('INVALID_PARAMETER', `The ${where} parameter "${field}" must be one of: ${allowedValues.join(', ')}.`, {
      field,
      in: where,
      allowedValues,
    });
  }
  return new ApiError('INVALID_PARAMETER', `The ${where} parameter "${field}" ${first.message ?? 'is invalid'}.`, {
    field,
    in: where,
    rule: first.keyword,
    ...first.params,
  });
}

/** An upstream failure is never "not found" and never charged (DESIGN.md §5); a missing index is the court's, not ours. */
function fromSource(e: SourceError): ApiError {
  const details = { source: e.source, failure: e.failure };
  if (e.failure === 'no_index') return new ApiError('COURT_NOT_COVERED', e.message, details);
  if (e.failure === 'timeout') return new ApiError('SOURCE_TIMEOUT', `${e.source} did not answer in time; nothing was charged.`, details);
  const retryAfter = e.retryAfterMs !== undefined ? { 'retry-after': String(Math.max(1, Math.ceil(e.retryAfterMs / 1000))) } : undefined;
  // Say why, not just "failed": DJEN refuses hosts outside Brazil (djen.md §3); a captcha, an anti-bot page or a
  // login wall is never passed (DESIGN.md §8).
  if (e.failure === 'geoblocked' || e.failure === 'captcha' || e.failure === 'anti_bot' || e.failure === 'login')
    return new ApiError('SOURCE_UNAVAILABLE', `${e.message} Nothing was charged.`, details);
  return new ApiError('SOURCE_UNAVAILABLE', `${e.source} failed (${e.failure}); nothing was charged. Retry later.`, details, retryAfter);
}

/** How long a caller should wait after a storage outage: a PostgreSQL restart takes seconds. */
const STORAGE_RETRY_AFTER_S = 5;

/** The database is away (db/outage.ts): a clear 503 with Retry-After, counted; never a 500. */
function fromStorageOutage(engine: 'sqlite' | 'postgres'): ApiError {
  noteStorageFailure(engine, 'request');
  return new ApiError('STORAGE_UNAVAILABLE', undefined, { engine }, { 'retry-after': String(STORAGE_RETRY_AFTER_S) });
}

/** Maps any thrown value to an ApiError (the registry is the only vocabulary of failures). */
export function toApiError(err: unknown): ApiError {
  if (isApiError(err)) return err;
  // The process is stopping: a connector closed under the operation is not the source failing.
  if (isClosedConnector(err)) return new ApiError('OPERATION_INTERRUPTED');
  if (err instanceof SourceError) return fromSource(err);
  const engine = storageOutageOf(err);
  if (engine) return fromStorageOutage(engine);
  if (isDatabaseClosed(err)) return new ApiError('OPERATION_INTERRUPTED');
  const e = err as FastifyError & { validation?: AjvError[]; validationContext?: string };
  if (e?.validation) return fromValidation(e.validation, e.validationContext);
  switch (e?.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('UNSUPPORTED_CONTENT_TYPE', 'Send the body as application/json.');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('BODY_TOO_LARGE');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('INVALID_JSON', 'The body is empty but Content-Type is application/json.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError('INVALID_JSON', e.message);
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError('INVALID_BODY', 'Content-Length does not match the body.');
    case 'FST_ERR_BAD_URL':
      return new ApiError(
        'MALFORMED_URL',
        'The URL is malformed: percent-encode every character outside A-Z a-z 0-9 - . _ ~ (a % must be followed by two hex digits).',
      );
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new ApiError('URI_TOO_LONG');
  }
  if (e instanceof SyntaxError || e?.name === 'SyntaxError') return new ApiError('INVALID_JSON', e.message);
  if (typeof e?.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return new ApiError('INVALID_PARAMETER', e.message);
  }
  return new ApiError('INTERNAL_ERROR');
}

export function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  if (error.headers) reply.headers(error.headers);
  if (error.status === 401) reply.header('www-authenticate', 'Bearer realm="tramita", ApiKey header="x-api-key"');
  return reply
    .code(error.status)
    .type('application/json; charset=utf-8')
    .send(JSON.stringify(errorBody(error, reply.request.id, languageOf(reply.request.headers['accept-language']))));
}

/**
 * Fastify's `frameworkErrors`: what its router refuses before any route or hook runs (a malformed
 * URL, a path segment too long) answers in the envelope like everything else.
 */
export function frameworkErrors(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  reply.header('x-request-id', req.id);
  sendError(reply, toApiError(err));
}

/**
 * Fastify's `clientErrorHandler`: a request Node's parser could not even read (headers too large, a
 * malformed request line, a timeout) gets the envelope too, with `Connection: close`, since the
 * socket is closed after it (a keep-alive client then opens a new one instead of failing on this one).
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const error =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? new ApiError('HEADERS_TOO_LARGE')
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new ApiError('REQUEST_TIMEOUT')
        : new ApiError('MALFORMED_REQUEST');
  const requestId = newId('req');
  const body = JSON.stringify(errorBody(error, requestId));
  if (!socket.writable) return void socket.destroy();
  const head =
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nx-request-id: ${requestId}\r\nConnection: close\r\n\r\n`;
  socket.end(head + body, () => socket.destroy());
}

/** An unknown parameter's refusal names the ones the operation takes, from its schema. */
function withAcceptedParameters(error: ApiError, req: FastifyRequest): ApiError {
  if (error.code !== 'UNKNOWN_PARAMETER') return error;
  const part = error.details?.in === 'query' ? 'querystring' : error.details?.in === 'body' ? 'body' : null;
  const schema = part ? (req.routeOptions.schema as Record<string, { properties?: Record<string, unknown> } | undefined> | undefined)?.[part] : undefined;
  const accepted = Object.keys(schema?.properties ?? {});
  if (accepted.length === 0)
    return new ApiError(error.code, `${error.message} This operation takes no ${error.details?.in} parameters.`, { ...error.details, accepted });
  return new ApiError(error.code, `${error.message} Accepted: ${accepted.join(', ')}.`, { ...error.details, accepted });
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * Every route's path in a router of its own, to tell a path that exists with other methods (405 with
 * `Allow`) from one that does not (404). Fastify's own router answers only "not found".
 */
function knownPaths(app: FastifyInstance): (method: string, path: string) => string[] {
  const router = FindMyWay();
  const noop = () => {};
  app.addHook('onRoute', (route) => {
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
      if ((METHODS as readonly string[]).includes(method) && !router.hasRoute(method as HTTPMethod, route.url))
        router.on(method as HTTPMethod, route.url, noop);
    }
  });
  return (method, path) => {
    const allowed = METHODS.filter((m) => router.find(m, path) !== null);
    // Fastify answers HEAD on every GET route (exposeHeadRoutes) without announcing it to onRoute.
    if (allowed.includes('GET') && !allowed.includes('HEAD')) allowed.push('HEAD');
    return allowed.includes(method as (typeof METHODS)[number]) ? [] : allowed;
  };
}

export function installErrorHandling(app: FastifyInstance): void {
  const allowedMethods = knownPaths(app);
  app.setErrorHandler((err, req: FastifyRequest, reply) => {
    const error = withAcceptedParameters(toApiError(err), req);
    if (error.code === 'INTERNAL_ERROR') req.log.error({ err }, 'unhandled error');
    return sendError(reply, error);
  });
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0];
    const allow = allowedMethods(req.method, path);
    if (allow.length > 0) {
      reply.header('allow', allow.join(', '));
      return sendError(reply, new ApiError('METHOD_NOT_ALLOWED', `${path} takes ${allow.join(', ')}, not ${req.method}.`, { method: req.method, allow }));
    }
    return sendError(reply, new ApiError('ROUTE_NOT_FOUND', `No operation ${req.method} ${path}.`));
  });
}
