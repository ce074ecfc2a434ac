/**
 * Elasticsearch-style error answers, shaped as DataJud (ES behind an API-key gateway) gives them:
 * `{"error":{"root_cause":[{type,reason,…}],type,reason,…},"status":N}` (datajud.md §4 quotes the
 * 404 `index_not_found_exception` "no such index [api_publica_stf]").
 */
import { jsonResponse, type SimResponse } from '../http.ts';

export class EsError extends Error {
  readonly status: number;
  readonly type: string;
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;
  constructor(status: number, type: string, reason: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    super(reason);
    this.status = status;
    this.type = type;
    this.extra = extra;
    this.headers = headers;
  }

  toResponse(): SimResponse {
    const cause = { type: this.type, reason: this.message, ...this.extra };
    return jsonResponse(this.status, { error: { root_cause: [cause], ...cause }, status: this.status }, this.headers);
  }
}

/** A query the sandbox cannot read (unknown query or key, bad shape): 400 `parsing_exception`. */
export function parsingError(reason: string): EsError {
  return new EsError(400, 'parsing_exception', reason, { line: 1, col: 1 });
}

/** A well-formed query that fails against the mapping (bad number, unsortable field): 400. */
export function shardError(reason: string): EsError {
  return new EsError(400, 'query_shard_exception', reason, { index_uuid: '_na_', index: 'api_publica' });
}

export function illegalArgument(reason: string): EsError {
  return new EsError(400, 'illegal_argument_exception', reason);
}

export function indexNotFound(index: string): EsError {
  return new EsError(404, 'index_not_found_exception', `no such index [${index}]`, {
    'resource.type': 'index_or_alias',
    'resource.id': index,
    index_uuid: '_na_',
    index,
  });
}

const AUTH_HEADER = { 'WWW-Authenticate': ['Basic realm="security" charset="UTF-8"', 'ApiKey'] };

export function unauthenticated(path: string, missing: boolean): EsError {
  const reason = missing
    ? `missing authentication credentials for REST request [${path}]`
    : 'unable to authenticate with provided credentials and anonymous access is not allowed for this request';
  return new EsError(401, 'security_exception', reason, { header: AUTH_HEADER }, { 'www-authenticate': 'ApiKey' });
}
