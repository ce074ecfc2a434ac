/**
 * One DataJud search: `POST <base>/<alias>/_search` with an Elasticsearch query (reference/upstream/
 * datajud.md §2, §5), through HttpUpstream on the connector's loop (its budget, in-flight limit and
 * retries). Every failure is classified by sources/http/classify.ts and never turned into "not
 * found"; DataJud adds only its own case, a missing index (§4). Paging: paging.ts.
 */
import { systemClock, type Clock } from '../../platform/clock.ts';
import { bodyJson, type BodyLimits, type BodyReading } from '../http/body.ts';
import { dataJudError } from './errors.ts';
import { HttpUpstream } from '../http/upstream.ts';
import { RequestLoop, type Tally } from '../http/loop.ts';
import { realSleep } from '../http/waits.ts';
import type { UpstreamResponse } from '../http/attempt.ts';
import type { RetryableSourceError } from '../../platform/ports/source-error.ts';

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
  /** The connector's loop (budget, in-flight limit, retries); alone, a client tries each search once. */
  loop?: RequestLoop;
}

/** How a search is sent: the caller's signal, its tally, and `once` inside a round of pages (RequestLoop.rounds). */
export interface SearchOptions {
  signal?: AbortSignal;
  tally?: Tally;
  once?: boolean;
}

export class DataJudClient {
  readonly #http: HttpUpstream;
  readonly #authorization: string;

  constructor(options: DataJudClientOptions) {
    this.#authorization = `APIKey ${options.apiKey}`;
    this.#http = new HttpUpstream({
      baseUrl: options.baseUrl,
      source: 'datajud',
      label: 'DataJud',
      error: dataJudError,
      timeoutMs: options.timeoutMs,
      connections: options.connections ?? 8,
      clock: options.clock ?? systemClock,
      body: options.body,
      loop: options.loop ?? new RequestLoop({ schedule: () => undefined, sleep: realSleep }),
      classify: {
        own: missingIndex,
        hints: { unauthorized: 'The CNJ may have changed its public key: update DATAJUD_API_KEY from https://datajud-wiki.cnj.jus.br/api-publica/acesso.' },
      },
    });
  }

  /** Runs one search; resolves only with a well-formed ES response, otherwise throws DataJud's failure (classify.ts). */
  search(alias: string, body: unknown, o: SearchOptions = {}): Promise<EsSearchResult> {
    return this.#http.send('POST', `/${encodeURIComponent(alias)}/_search`, {
      ...o,
      body: JSON.stringify(body),
      headers: { authorization: this.#authorization, 'content-type': 'application/json', accept: 'application/json' },
      // Inside the attempt: a malformed body is retried like an outage (§11).
      read: (raw: UpstreamResponse) => parseSearchResponse(alias, this.#http.ok(raw, `/${alias}/_search`).body),
    });
  }

  async close(): Promise<void> {
    await this.#http.close();
  }
}

/** DataJud's own case of the ladder (§4): a 404 `index_not_found_exception` is a missing index (e.g. api_publica_stf). */
function missingIndex(raw: UpstreamResponse, where: string): RetryableSourceError | undefined {
  if (raw.status !== 404 || !raw.body.includes('index_not_found_exception')) return undefined;
  return dataJudError('no_index', `DataJud has no such index: ${where}.`, { status: 404 });
}

/** How the body reader names this alias's answers and raises this connector's errors. */
function reading(alias: string): Omit<BodyReading, 'limits'> {
  return { source: 'datajud', what: `DataJud ${alias}`, fail: dataJudError };
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
    throw dataJudError('malformed', `DataJud ${alias} answered JSON without hits.hits: not an Elasticsearch search response.`);
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
