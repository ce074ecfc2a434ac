/**
 * One DataJud search: `POST <base>/<alias>/_search` with an Elasticsearch query (reference/upstream/
 * datajud.md §2, §5). Maps every failure to a DataJudError and never turns one into "not found".
 * No retries, budget or paging here: see the connector (on sources/http/loop.ts) and paging.ts.
 */
import type { Agent } from 'undici';
import { networkErrorText, sendOnce, upstreamAgent, type UpstreamResponse } from '../http/attempt.ts';
import { systemClock, type Clock } from '../../platform/clock.ts';
import { bodyJson, bodyLimits, errorBodyNote, type BodyLimits, type BodyReading } from '../http/body.ts';
import { DataJudError } from './errors.ts';
import { retryAfterMs } from '../http/retry-after.ts';
import { isUpstreamTimeout } from '../http/timeout.ts';

/** One hit as this connector needs it; `_source` stays exactly as received. */
export interface EsHit {
  _index: string | null;
  _id: string;
  _source: unknown;
  /** The hit's sort values (epoch millis of `@timestamp`) when the query sorted. */
  sort: unknown[] | null;
}

export interface EsSearchResult {
  hits: EsHit[];
  /** `_shards.failed`: hits on failed shards are missing from this page (§7). */
  shardsFailed: number;
  timedOut: boolean;
  total: number | null;
}

export interface DataJudClientOptions {
  /** e.g. `https://api-publica.datajud.cnj.jus.br` (a path prefix is kept). */
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  /** Sockets the connector's own Agent may open to the upstream. */
  connections?: number;
  /** Turns an HTTP-date Retry-After into a delay. */
  clock?: Clock;
  /** Size and idle limits of an answer's body (default: the `datajud` defaults of config.ts). */
  body?: BodyLimits;
}

export class DataJudClient {
  readonly #base: string;
  readonly #authorization: string;
  readonly #timeoutMs: number;
  readonly #clock: Clock;
  readonly #agent: Agent;
  readonly #body: BodyLimits;

  constructor(options: DataJudClientOptions) {
    this.#body = options.body ?? bodyLimits('datajud');
    this.#base = options.baseUrl.replace(/\/+$/, '');
    this.#authorization = `APIKey ${options.apiKey}`;
    this.#timeoutMs = options.timeoutMs;
    this.#clock = options.clock ?? systemClock;
    this.#agent = upstreamAgent(options.timeoutMs, options.connections ?? 8);
  }

  /** Runs one search; resolves only with a well-formed ES response, otherwise throws DataJudError. */
  async search(alias: string, body: unknown, signal?: AbortSignal): Promise<EsSearchResult> {
    signal?.throwIfAborted();
    let response: UpstreamResponse;
    try {
      response = await this.#post(alias, body, signal);
    } catch (err) {
      if (err instanceof DataJudError) throw err;
      if (signal?.aborted) throw signal.reason;
      throw networkFailure(alias, this.#timeoutMs, err);
    }
    return this.#interpret(alias, response);
  }

  async close(): Promise<void> {
    await this.#agent.close();
  }

  /** One POST under the timeout; the body is always read (even of errors) so the socket goes back to the pool. */
  #post(alias: string, query: unknown, signal: AbortSignal | undefined): Promise<UpstreamResponse> {
    return sendOnce(this.#agent, `${this.#base}/${encodeURIComponent(alias)}/_search`, {
      method: 'POST',
      timeoutMs: this.#timeoutMs,
      reading: { ...reading(alias), limits: this.#body },
      signal,
      body: JSON.stringify(query),
      headers: { authorization: this.#authorization, 'content-type': 'application/json', accept: 'application/json' },
    });
  }

  #interpret(alias: string, res: UpstreamResponse): EsSearchResult {
    if (res.status >= 200 && res.status < 300) return parseSearchResponse(alias, res.body);
    throw failureForStatus(alias, res, this.#clock.now().getTime());
  }
}

/** How the body reader names this alias's answers and raises this connector's errors. */
function reading(alias: string): Omit<BodyReading, 'limits'> {
  return { source: 'datajud', what: `DataJud ${alias}`, fail: (failure, message, opts) => new DataJudError(failure, message, opts) };
}

function networkFailure(alias: string, timeoutMs: number, err: unknown): DataJudError {
  // The attempt's timer, or undici's own (backstop) and connect timeouts: all timeouts, not outages.
  if (isUpstreamTimeout(err)) return new DataJudError('timeout', `DataJud ${alias} did not answer within ${timeoutMs} ms.`);
  return new DataJudError('unavailable', `DataJud ${alias} unreachable: ${networkErrorText(err)}`);
}

/**
 * Maps a non-2xx answer (§4: 404 index_not_found_exception is a missing index, e.g. api_publica_stf).
 * The message names the error body by size, hash and ES error type, never by its text.
 */
function failureForStatus(alias: string, res: UpstreamResponse, nowMs: number): DataJudError {
  const { status } = res;
  const where = `DataJud ${alias} answered HTTP ${status} ${errorBodyNote(res.body)}`;
  if (status === 429) {
    return new DataJudError('rate_limited', where, { status, retryAfterMs: retryAfterMs(res.headers['retry-after'], nowMs) });
  }
  if (status === 401 || status === 403) {
    return new DataJudError(
      'unauthorized',
      `${where}. The CNJ may have changed its public key: update DATAJUD_API_KEY from https://datajud-wiki.cnj.jus.br/api-publica/acesso.`,
      { status },
    );
  }
  if (status === 404 && res.body.includes('index_not_found_exception')) {
    return new DataJudError('no_index', `DataJud has no index ${alias} (${where}).`, { status });
  }
  if (status >= 500) {
    return new DataJudError('unavailable', where, { status, retryAfterMs: retryAfterMs(res.headers['retry-after'], nowMs) });
  }
  // Other 4xx: the upstream refused this query; asking again would get the same answer.
  return new DataJudError('unavailable', where, { status, retryable: false });
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A 2xx body → EsSearchResult, or 'malformed' when it is not JSON (http/body.ts) or not the ES shape (§7). */
export function parseSearchResponse(alias: string, body: Buffer): EsSearchResult {
  return toSearchResult(alias, bodyJson(body, reading(alias)));
}

export function toSearchResult(alias: string, body: unknown): EsSearchResult {
  const outer = isRecord(body) ? body.hits : undefined;
  const list = isRecord(outer) ? outer.hits : undefined;
  if (!isRecord(body) || !Array.isArray(list)) {
    throw new DataJudError('malformed', `DataJud ${alias} answered JSON without hits.hits: not an Elasticsearch search response.`);
  }
  const shards = isRecord(body._shards) ? body._shards : {};
  const total = isRecord(outer) && isRecord(outer.total) ? outer.total.value : isRecord(outer) ? outer.total : undefined;
  return {
    hits: list.filter(isRecord).map(toHit),
    shardsFailed: typeof shards.failed === 'number' ? shards.failed : 0,
    timedOut: body.timed_out === true,
    total: typeof total === 'number' ? total : null,
  };
}

function toHit(hit: Record<string, unknown>): EsHit {
  return {
    _index: typeof hit._index === 'string' ? hit._index : null,
    _id: typeof hit._id === 'string' ? hit._id : '',
    _source: hit._source,
    sort: Array.isArray(hit.sort) ? hit.sort : null,
  };
}
