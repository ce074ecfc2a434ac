/**
 * The DataJud connector (reference/upstream/datajud.md): case metadata and movements by CNJ number,
 * batched per court alias with `terms` queries, plus an incremental scan for monitors. The sandbox
 * simulator speaks the same protocol, so this code runs unchanged against it (`sandbox` only labels
 * where the data came from).
 */
import type { Config } from '../../config.ts';
import { systemClock } from '../../platform/clock.ts';
import type { CaseMetadataSource, CaseRecord, SourceInfo } from '../../platform/ports/case-metadata.ts';
import { AliasResolver, courtOfAlias, routeCnj } from './aliases.ts';
import { Batcher } from './batcher.ts';
import { DataJudClient, type EsHit, type EsSearchResult } from './client.ts';
import { normalizeDataJudDate } from './dates.ts';
import { dataJudError, isDataJudFailure } from './errors.ts';
import { closedConnector } from '../../platform/ports/source-error.ts';
import { searchPages, SORT_BY_TIMESTAMP } from './paging.ts';
import { numeroOf, parseHits } from './parse.ts';
import { budgetedLoop, type BudgetedConnectorOptions } from '../http/connector-options.ts';
import type { RequestLoop, RequestStats } from '../http/loop.ts';
import { DEFAULT_RETRY } from './retry.ts';
import { bodyLimits } from '../http/body.ts';

/** ES `max_result_window` / DataJud's largest page (§6). */
const MAX_PAGE = 10_000;
/** Room for one document per grau (G1, G2, JE, TR, …; §8.1) so a batch rarely needs a 2nd page. */
const HITS_PER_NUMBER = 6;

/** Requests in flight at once by default 8; the rest of the shape is every budgeted connector's. */
export interface DataJudConnectorOptions extends BudgetedConnectorOptions {
  /** e.g. `https://api-publica.datajud.cnj.jus.br`, or the sandbox simulator's URL. */
  baseUrl: string;
  apiKey: string;
  /** Most numbers in one `terms` request. */
  batchSize: number;
  /** How long `fetchCase` gathers concurrent lookups of one alias (default 5 ms). */
  coalesceWindowMs?: number;
}

/** Connector options from the settings (config.ts); the base URL is passed apart (sandbox or real). */
export function dataJudOptionsFromConfig(
  config: Pick<Config, 'datajudApiKey' | 'datajudTimeoutMs' | 'datajudRequestsPerMinute' | 'datajudBatchSize' | 'upstreamMaxBytes' | 'upstreamIdleTimeoutMs'>,
  baseUrl: string,
  sandbox: boolean,
): DataJudConnectorOptions {
  return {
    baseUrl,
    apiKey: config.datajudApiKey,
    timeoutMs: config.datajudTimeoutMs,
    requestsPerMinute: config.datajudRequestsPerMinute,
    batchSize: config.datajudBatchSize,
    sandbox,
    body: bodyLimits('datajud', config),
  };
}

export class DataJudConnector implements CaseMetadataSource {
  readonly info: SourceInfo;
  readonly #client: DataJudClient;
  readonly #loop: RequestLoop;
  readonly #aliases: AliasResolver;
  readonly #batcher: Batcher<CaseRecord>;
  readonly #batchSize: number;

  constructor(options: DataJudConnectorOptions) {
    if (!Number.isInteger(options.batchSize) || options.batchSize < 1) throw new RangeError('DataJudConnector: batchSize must be a positive integer');
    const clock = options.clock ?? systemClock;
    const maxInFlight = options.maxInFlight ?? 8;
    this.info = { name: 'DataJud', sandbox: options.sandbox ?? false };
    this.#batchSize = options.batchSize;
    // The main source: asked once while a caller waits, within its timeout (issue 51); jobs keep the retries.
    this.#loop = budgetedLoop(options, 'datajud', { ...DEFAULT_RETRY, ...options.retry }, maxInFlight, { oncePerCaller: true });
    this.#client = new DataJudClient({
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      timeoutMs: options.timeoutMs,
      connections: maxInFlight,
      clock,
      body: options.body,
      loop: this.#loop,
    });
    this.#aliases = new AliasResolver((alias) => this.#probe(alias));
    this.#batcher = new Batcher<CaseRecord>({
      windowMs: options.coalesceWindowMs ?? 5,
      maxBatch: options.batchSize,
      run: (alias, numbers) => this.#fetchChunk(alias, numbers, this.#loop.closing),
    });
  }

  /**
   * Cases by number (masked or bare), keyed by the 20 bare digits; numbers DataJud does not have are
   * absent. Every number is routed before the first request, so one without an index (STF) fails
   * the call with `no_index` and nothing is sent.
   */
  async fetchCases(numerosCnj: readonly string[], signal?: AbortSignal): Promise<Map<string, CaseRecord>> {
    this.#assertOpen();
    const chunks = this.#chunksByAlias(numerosCnj);
    const result = new Map<string, CaseRecord>();
    // One failed chunk fails the call: stop its siblings rather than spend budget on them.
    const siblings = new AbortController();
    const linked = AbortSignal.any([siblings.signal, this.#loop.closing, ...(signal ? [signal] : [])]);
    await Promise.all(
      chunks.map(async ({ alias, numbers }) => {
        try {
          for (const [numero, record] of await this.#fetchChunk(alias, numbers, linked)) result.set(numero, record);
        } catch (err) {
          siblings.abort(new DOMException('another DataJud batch of this call failed', 'AbortError'));
          throw err;
        }
      }),
    );
    return result;
  }

  /**
   * One case, or null when DataJud does not have it. Concurrent calls for numbers of the same alias
   * are coalesced into one `terms` request (window `coalesceWindowMs`, at most `batchSize` numbers).
   */
  async fetchCase(numeroCnj: string, signal?: AbortSignal): Promise<CaseRecord | null> {
    this.#assertOpen();
    const route = routeCnj(numeroCnj);
    return this.#batcher.get(route.alias, route.digits, signal);
  }

  /**
   * Documents of `alias` updated since `sinceIso`, a page at a time, oldest (re)indexing first
   * (§5 incremental sync: range on dataHoraUltimaAtualizacao, sort @timestamp, search_after). A
   * document is yielded once per scan (dedupe by `_id`, §6). One case's instances may arrive in
   * different pages: a record holds the instances of its page; merge by number. `classes` narrows
   * the scan to documents of those TPU classes.
   */
  async *scanUpdatedSince(alias: string, sinceIso: string, pageSize = 1000, signal?: AbortSignal, classes?: readonly number[]): AsyncGenerator<CaseRecord[]> {
    this.#assertOpen();
    const since = normalizeDataJudDate(sinceIso);
    if (since === null) throw new RangeError(`scanUpdatedSince: ${JSON.stringify(sinceIso)} is not an ISO-8601 date`);
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE) throw new RangeError(`scanUpdatedSince: pageSize must be 1..${MAX_PAGE}`);
    const linked = this.#loop.linked(signal);
    const actual = await this.#aliases.resolve(alias, linked);
    const tribunal = courtOfAlias(alias)?.sigla;
    // `classes`: only documents of these TPU classes (e.g. 1265 Precatório, 1266 RPV, wave2.md §G).
    const query = {
      bool: { filter: [{ range: { dataHoraUltimaAtualizacao: { gte: since } } }, ...(classes?.length ? [{ terms: { 'classe.codigo': [...classes] } }] : [])] },
    };
    const seen = new Set<string>();
    const fetchPage = (after: readonly unknown[] | undefined) => this.#completePage(actual, searchBody(pageSize, query, after), linked);
    for await (const page of searchPages(fetchPage, pageSize, actual)) {
      const fresh = page.hits.filter((hit) => hit._id === '' || !seen.has(hit._id));
      for (const hit of fresh) seen.add(hit._id);
      const cases = parseHits(fresh, { tribunal });
      if (cases.length > 0) yield cases;
    }
  }

  /** Counters since construction (for benchmarks). */
  stats(): RequestStats {
    return { ...this.#loop.stats };
  }

  /** Rejects lookups still gathering, aborts requests in flight, closes the sockets. */
  async close(): Promise<void> {
    if (this.#loop.closing.aborted) return;
    const closed = closedConnector(dataJudError('unavailable', 'The DataJud connector was closed.', { retryable: false }));
    this.#batcher.rejectPending(closed);
    await this.#loop.close(closed);
    await this.#client.close();
  }

  #assertOpen(): void {
    if (this.#loop.closing.aborted) throw dataJudError('unavailable', 'The DataJud connector is closed.', { retryable: false });
  }

  /** Routes every number first (no_index throws here, before any request), then chunks per alias. */
  #chunksByAlias(numeros: readonly string[]): Array<{ alias: string; numbers: string[] }> {
    const byAlias = new Map<string, Set<string>>();
    for (const numero of numeros) {
      const route = routeCnj(numero);
      let set = byAlias.get(route.alias);
      if (!set) {
        set = new Set();
        byAlias.set(route.alias, set);
      }
      set.add(route.digits);
    }
    const chunks: Array<{ alias: string; numbers: string[] }> = [];
    for (const [alias, set] of byAlias) {
      const all = [...set];
      for (let i = 0; i < all.length; i += this.#batchSize) chunks.push({ alias, numbers: all.slice(i, i + this.#batchSize) });
    }
    return chunks;
  }

  /** One `terms` query (all its pages) for numbers of one alias. */
  async #fetchChunk(alias: string, numbers: string[], signal: AbortSignal): Promise<Map<string, CaseRecord>> {
    const actual = await this.#aliases.resolve(alias, signal);
    try {
      return await this.#termsLookup(actual, courtOfAlias(alias)?.sigla, numbers, signal);
    } catch (err) {
      // A cached spelling that stopped answering (CNJ renamed the index): probe again next time.
      if (isDataJudFailure(err) && err.failure === 'no_index' && this.#aliases.isDisputed(alias)) this.#aliases.forget(alias);
      throw err;
    }
  }

  /**
   * Partial shard failures (`_shards.failed > 0`, §7) with numbers missing are retried and then fail
   * as `unavailable`: a number on a failed shard must never be reported as absent. The query's pages
   * are one round on the loop's one schedule (RequestLoop.rounds): each page a single attempt, the
   * round retried as a whole, so a failing page costs at most the schedule's attempts, never its square.
   */
  #termsLookup(alias: string, tribunal: string | undefined, numbers: string[], signal: AbortSignal): Promise<Map<string, CaseRecord>> {
    const wanted = new Set(numbers);
    const size = Math.min(MAX_PAGE, numbers.length * HITS_PER_NUMBER);
    const query = { terms: { numeroProcesso: numbers } };
    return this.#loop.rounds(async (attempt, s) => {
      const { hits, partial } = await this.#allPages(alias, size, query, s);
      const cases = parseHits(
        hits.filter((hit) => wanted.has(numeroOf(hit._source) ?? '')),
        { tribunal },
      );
      const found = new Map(cases.map((c) => [c.numeroCnj, c]));
      if (!partial || found.size === wanted.size) return found;
      const missing = wanted.size - found.size;
      throw dataJudError(
        'unavailable',
        `DataJud ${alias} answered with failed shards and ${missing} of ${wanted.size} numbers missing, ${attempt} times; they may exist.`,
      );
    }, signal);
  }

  async #allPages(alias: string, size: number, query: unknown, signal: AbortSignal): Promise<{ hits: EsHit[]; partial: boolean }> {
    const hits: EsHit[] = [];
    let partial = false;
    const fetchPage = (after: readonly unknown[] | undefined) => this.#client.search(alias, searchBody(size, query, after), { signal, once: true });
    for await (const page of searchPages(fetchPage, size, alias)) {
      for (const hit of page.hits) hits.push(hit);
      partial ||= isPartial(page);
    }
    return { hits, partial };
  }

  /** A page with every shard answering: a partial page is a transient failure of its request, retried on the loop, then `unavailable`. */
  #completePage(alias: string, body: unknown, signal: AbortSignal): Promise<EsSearchResult> {
    return this.#loop.rounds(async (attempt, s) => {
      const page = await this.#client.search(alias, body, { signal: s, once: true });
      if (!isPartial(page)) return page;
      throw dataJudError('unavailable', `DataJud ${alias} answered with failed shards ${attempt} times; the page would be incomplete.`);
    }, signal);
  }

  /** One search on the loop: in-flight limit, budget, retries of transient failures. */
  #search(alias: string, body: unknown, signal?: AbortSignal): Promise<EsSearchResult> {
    return this.#client.search(alias, body, { signal });
  }

  /** `{"size":0}`: the cheapest request that tells whether an index exists (§11). */
  async #probe(alias: string): Promise<void> {
    await this.#search(alias, { size: 0 }, this.#loop.closing);
  }
}

function isPartial(page: EsSearchResult): boolean {
  return page.shardsFailed > 0 || page.timedOut;
}

function searchBody(size: number, query: unknown, after: readonly unknown[] | undefined): Record<string, unknown> {
  return { size, query, sort: SORT_BY_TIMESTAMP, ...(after ? { search_after: after } : {}) };
}
