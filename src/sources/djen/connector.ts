/**
 * The DJEN / Comunica PJe connector (reference/upstream/djen.md): publications by OAB, case number,
 * party, lawyer, text or court; one communication; its certidão; a day's bulk caderno. The sandbox
 * simulator speaks the same protocol, so this code runs unchanged against it (`sandbox` only labels
 * where the data came from). DJEN allows about 20 requests per minute per IP (§4.4): every HTTP
 * attempt spends one request of a process-wide budget, and DJEN's own rate-limit signals pause all.
 */
import { tmpdir } from 'node:os';
import type { Config } from '../../config.ts';
import { systemClock } from '../../platform/clock.ts';
import { realSleep } from '../http/waits.ts';
import type { SourceInfo } from '../../platform/ports/case-metadata.ts';
import type {
  CadernoInfo,
  CadernoIngestOptions,
  PublicationQuery,
  PublicationRecord,
  PublicationSearchOptions,
  PublicationSearchResult,
  PublicationSource,
} from '../../platform/ports/publications.ts';
import { ingestCaderno } from './caderno.ts';
import { bodyLimits, type BodyLimits } from '../http/body.ts';
import { DEFAULT_RETRY_AFTER_MS, DjenClient } from './client.ts';
import { djenError, malformed } from './errors.ts';
import { closedConnector } from '../../platform/ports/source-error.ts';
import { toCadernoMetadata, toPublications } from './parse.ts';
import { PAGE_SIZE, RESULT_CAP, pageParams, searchFilters } from './query.ts';
import { DEFAULT_DJEN_RETRY, type DjenRetryPolicy } from './retry.ts';
import { budgetedLoop, type BudgetedConnectorOptions } from '../http/connector-options.ts';
import type { RequestLoop, RequestStats, Tally } from '../http/loop.ts';
import { RequestPause } from '../http/pause.ts';

export const PUBLIC_DJEN_URL = 'https://comunicaapi.pje.jus.br';

/**
 * Every budgeted connector's shape: a caderno download gets ten times `timeoutMs`; 2 requests in
 * flight by default (DJEN's quota is per minute, not per connection).
 */
export interface DjenConnectorOptions extends BudgetedConnectorOptions<DjenRetryPolicy> {
  /** Default `https://comunicaapi.pje.jus.br`; or the sandbox simulator's URL (a path prefix is kept). */
  baseUrl?: string;
  /** Where caderno ZIPs are downloaded to (default os.tmpdir()). */
  tempDir?: string;
  /** Largest JSON page of a caderno read into memory (default: the body limit, `body.maxBytes`). */
  maxCadernoPageBytes?: number;
  /** Most bytes all the pages of a caderno ZIP may unzip to, by the ZIP's size (default: caderno.ts UNZIP_LIMIT). */
  maxCadernoUnzippedBytes?: (zipBytes: number) => number;
  /** Limits of a caderno ZIP, streamed to disk (TRAMITA_UPSTREAM_MAX_BYTES `djen-caderno`). */
  cadernoBody?: BodyLimits;
}

/** Connector options from the settings (config.ts); the base URL is passed apart (sandbox or real). */
export function djenOptionsFromConfig(
  config: Pick<Config, 'djenTimeoutMs' | 'djenRequestsPerMinute' | 'upstreamMaxBytes' | 'upstreamIdleTimeoutMs' | 'devTimeScale'>,
  baseUrl: string,
  sandbox: boolean,
): DjenConnectorOptions {
  return {
    baseUrl,
    timeoutMs: config.djenTimeoutMs,
    requestsPerMinute: config.djenRequestsPerMinute,
    sandbox,
    // TRAMITA_DEV_TIME_SCALE (tests, development) shortens the backoff between attempts; a 429's Retry-After is still obeyed.
    retry: { baseMs: DEFAULT_DJEN_RETRY.baseMs / config.devTimeScale, capMs: DEFAULT_DJEN_RETRY.capMs / config.devTimeScale },
    body: bodyLimits('djen', config),
    cadernoBody: bodyLimits('djen-caderno', config),
  };
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export class DjenConnector implements PublicationSource {
  readonly info: SourceInfo;
  readonly #client: DjenClient;
  readonly #loop: RequestLoop;
  readonly #tempDir: string;
  readonly #maxEntryBytes: number;
  readonly #maxUnzippedBytes: ((zipBytes: number) => number) | undefined;

  constructor(options: DjenConnectorOptions) {
    const clock = options.clock ?? systemClock;
    const sleep = options.sleep ?? realSleep;
    const maxInFlight = options.maxInFlight ?? 2;
    const pause = new RequestPause({ clock, sleep });
    const retry = { ...DEFAULT_DJEN_RETRY, ...options.retry };
    this.info = { name: 'DJEN', sandbox: options.sandbox ?? false };
    const body = options.body ?? bodyLimits('djen');
    this.#loop = budgetedLoop(options, 'djen', retry, maxInFlight, {
      rateLimit: { pause, waits: retry.rateLimitWaits, defaultWaitMs: DEFAULT_RETRY_AFTER_MS, maxWaitMs: retry.maxRetryAfterMs },
    });
    this.#client = new DjenClient({
      baseUrl: options.baseUrl ?? PUBLIC_DJEN_URL,
      timeoutMs: options.timeoutMs,
      connections: maxInFlight,
      clock,
      onHeaders: (h) => pause.note(h),
      body,
      cadernoBody: options.cadernoBody,
      loop: this.#loop,
    });
    this.#tempDir = options.tempDir ?? tmpdir();
    this.#maxEntryBytes = options.maxCadernoPageBytes ?? body.maxBytes;
    this.#maxUnzippedBytes = options.maxCadernoUnzippedBytes;
  }

  readyNow(): boolean {
    return this.#loop.readyNow();
  }

  /**
   * Every page of every spelling (query.ts `searchFilters`), each until a page shorter than asked:
   * DJEN's `count` is unreliable and never read (§4.3). `complete` is false when `maxPages` or DJEN's
   * 10,000-result cap stopped a spelling early. Throws RangeError for a query DJEN would refuse.
   */
  async search(query: PublicationQuery, options: PublicationSearchOptions = {}): Promise<PublicationSearchResult> {
    this.#assertOpen();
    const { maxPages } = options;
    if (maxPages !== undefined && (!Number.isInteger(maxPages) || maxPages < 1)) throw new RangeError('search: maxPages must be a positive integer');
    const filters = searchFilters(query);
    const signal = this.#loop.linked(options.signal);
    const tally: Tally = { requests: 0 };
    const byId = new Map<string, PublicationRecord>();
    let pages = 0;
    let complete = true;
    for (const filter of filters) {
      const finished = await this.#pageThrough(filter, maxPages, signal, tally, (records) => {
        for (const record of records) if (!byId.has(record.id)) byId.set(record.id, record);
        options.onPage?.(++pages, byId.size);
      });
      complete &&= finished;
    }
    return { items: newestFirst([...byId.values()]), complete, requests: tally.requests };
  }

  async fetchOne(id: string, signal?: AbortSignal): Promise<PublicationRecord | null> {
    this.#assertOpen();
    const key = id.trim().replace(/^0+(?=\d)/, '');
    if (!/^\d+$/.test(key)) return null; // DJEN ids are integers: nothing else can exist
    const what = `comunicacao ${key}`;
    const read = (body: unknown): PublicationRecord | null => {
      const records = toPublications(body, what);
      const match = records.find((r) => r.id === key);
      if (!match && records.length > 0) throw malformed(`DJEN answered ${what} with other communications (${records.map((r) => r.id).join(', ')}).`);
      return match ?? null;
    };
    return this.#client.getJson(`comunicacao/${key}`, undefined, what, read, { signal, notFoundIsNull: true });
  }

  async certidao(hash: string, signal?: AbortSignal): Promise<Uint8Array | null> {
    this.#assertOpen();
    const key = hash.trim();
    if (key === '') return null;
    const pdf = await this.#client.getPdf(`comunicacao/${encodeURIComponent(key)}/certidao`, `the certidão of ${key}`, { signal });
    return pdf && new Uint8Array(pdf.buffer, pdf.byteOffset, pdf.length);
  }

  /** `<base>/api/v1/comunicacao/<hash>/certidao`: public, no key, opens in a browser (§4.7). */
  certidaoUrl(hash: string): string {
    return this.#client.url(`comunicacao/${encodeURIComponent(hash.trim())}/certidao`);
  }

  async caderno(
    tribunal: string,
    data: string,
    meio: 'D' | 'E',
    sink: (items: PublicationRecord[]) => Promise<void>,
    options: CadernoIngestOptions = {},
  ): Promise<CadernoInfo> {
    this.#assertOpen();
    const sigla = tribunal.trim().toUpperCase();
    if (sigla === '') throw new RangeError('caderno: tribunal is empty');
    if (!DAY.test(data)) throw new RangeError(`caderno: ${JSON.stringify(data)} is not a yyyy-mm-dd day`);
    if (meio !== 'D' && meio !== 'E') throw new RangeError(`caderno: meio must be D or E, not ${JSON.stringify(meio)}`);
    const what = `caderno ${sigla} ${data} ${meio}`;
    const metadataPath = `caderno/${encodeURIComponent(sigla)}/${data}/${meio}`;
    const readMetadata = (json: unknown) => toCadernoMetadata(json, sigla, data, meio);
    const signal = this.#loop.linked(options.signal);
    try {
      return await ingestCaderno(
        {
          what,
          metadata: async (s) => (await this.#client.getJson(metadataPath, undefined, what, readMetadata, { signal: s }))!,
          download: (url, file, s) => this.#loop.run((s2) => this.#client.download(url, file, what, s2), s),
          tempDir: this.#tempDir,
          maxEntryBytes: this.#maxEntryBytes,
          maxUnzippedBytes: this.#maxUnzippedBytes,
        },
        sink,
        { ...options, signal },
      );
    } catch (err) {
      // Failures of the ZIP itself happen outside the loop: count them too (each error once).
      throw this.#loop.failed(err, signal);
    }
  }

  /** Counters since construction (for benchmarks). */
  stats(): RequestStats {
    return { ...this.#loop.stats };
  }

  /** Aborts requests in flight (and their waits), closes the sockets. */
  async close(): Promise<void> {
    if (this.#loop.closing.aborted) return;
    await this.#loop.close(closedConnector(djenError('unavailable', 'The DJEN connector was closed.', { retryable: false })));
    await this.#client.close();
  }

  #assertOpen(): void {
    if (this.#loop.closing.aborted) throw djenError('unavailable', 'The DJEN connector is closed.', { retryable: false });
  }

  /** Pages of one set of filters; true when the last page was short (everything was read). */
  async #pageThrough(
    filter: URLSearchParams,
    maxPages: number | undefined,
    signal: AbortSignal,
    tally: Tally,
    onRecords: (records: PublicationRecord[]) => void,
  ): Promise<boolean> {
    let received = 0;
    for (let pagina = 1; ; pagina++) {
      if (maxPages !== undefined && pagina > maxPages) return false;
      const what = `comunicacao page ${pagina}`;
      const read = (json: unknown) => toPublications(json, what);
      const records = (await this.#client.getJson('comunicacao', pageParams(filter, pagina), what, read, { signal, tally }))!;
      onRecords(records);
      received += records.length;
      if (records.length < PAGE_SIZE) return true;
      if (received >= RESULT_CAP) return false;
    }
  }
}

/** Newest day first; within a day, the higher (later) DJEN id first. */
function newestFirst(records: PublicationRecord[]): PublicationRecord[] {
  return records.sort((a, b) => {
    if (a.dataDisponibilizacao !== b.dataDisponibilizacao) return a.dataDisponibilizacao < b.dataDisponibilizacao ? 1 : -1;
    if (a.id.length !== b.id.length) return b.id.length - a.id.length;
    return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
  });
}
