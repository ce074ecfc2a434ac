/**
 * DJEN over HTTP (reference/upstream/djen.md §4): GETs through HttpUpstream on the connector's loop
 * (its budget, 429 pause and retries), every failure classified by sources/http/classify.ts; DJEN adds
 * only its own cases, CloudFront's geoblock (§3) and a 429's wait of one minute (§4.4). A caderno
 * download streams to disk under its own timeout, classified the same way. Never "no results".
 */
import { createWriteStream } from 'node:fs';
import { interceptors, request, type Agent, type Dispatcher } from 'undici';
import type { Clock } from '../../platform/clock.ts';
import type { RetryableSourceError } from '../../platform/ports/source-error.ts';
import { bodyJson, bodyLimits, describeBody, drainBody, errorBodyNote, readBody, type BodyLimits, type BodyReading } from '../http/body.ts';
import { djenError, malformed } from './errors.ts';
import { attemptFailure, statusFailure, type Classifier } from '../http/classify.ts';
import { HttpUpstream } from '../http/upstream.ts';
import { RequestLoop, type Tally } from '../http/loop.ts';
import { realSleep } from '../http/waits.ts';
import { underTimeout, upstreamAgent, type ResponseHeaders, type UpstreamResponse } from '../http/attempt.ts';

export interface DjenClientOptions {
  /** e.g. `https://comunicaapi.pje.jus.br`, or the sandbox's `http://127.0.0.1:4010/djen` (a path prefix is kept). */
  baseUrl: string;
  /** One request, headers and body; a caderno download gets ten times this. */
  timeoutMs: number;
  connections?: number;
  /** Turns an HTTP-date Retry-After into a delay. */
  clock?: Clock;
  /** Sees the headers of every answer (the `x-ratelimit-remaining` gate, djen.md §4.4). */
  onHeaders?: (headers: ResponseHeaders) => void;
  /** Limits of an API answer's body (default: config.ts's `djen`). */
  body?: BodyLimits;
  /** Limits of a caderno ZIP, streamed to disk (default: config.ts's `djen-caderno`). */
  cadernoBody?: BodyLimits;
  /** The connector's loop (budget, 429 pause, retries); alone, a client tries each request once. */
  loop?: RequestLoop;
}

/** How a GET is sent: the caller's signal and tally; a 404 as null when `notFoundIsNull`. */
export interface DjenGet {
  signal?: AbortSignal;
  tally?: Tally;
  notFoundIsNull?: boolean;
}

/** djen.md §4.4: "Ao receber um erro 429 orienta-se aguardar 1 minuto". */
export const DEFAULT_RETRY_AFTER_MS = 60_000;
const DOWNLOAD_TIMEOUT_FACTOR = 10;

export class DjenClient {
  readonly timeoutMs: number;
  readonly #base: string;
  readonly #onHeaders: (headers: ResponseHeaders) => void;
  readonly #body: BodyLimits;
  readonly #cadernoBody: BodyLimits;
  readonly #http: HttpUpstream;
  readonly #downloadAgent: Agent;
  /** Downloads follow redirects: the caderno's temporary URL is another host's (S3-like, §4.6). */
  readonly #downloads: Dispatcher;

  constructor(options: DjenClientOptions) {
    // DJEN_URL may be given as the API base (`…/api/v1`, as djen.md §1 writes it): paths add it back.
    this.#base = options.baseUrl.replace(/\/+$/, '').replace(/\/api\/v1$/, '');
    this.timeoutMs = options.timeoutMs;
    this.#onHeaders = options.onHeaders ?? (() => {});
    this.#body = options.body ?? bodyLimits('djen');
    this.#cadernoBody = options.cadernoBody ?? bodyLimits('djen-caderno');
    this.#http = new HttpUpstream({
      baseUrl: `${this.#base}/api/v1`,
      source: 'djen',
      label: 'DJEN',
      error: djenError,
      timeoutMs: options.timeoutMs,
      connections: options.connections ?? 4,
      clock: options.clock,
      body: this.#body,
      onHeaders: this.#onHeaders,
      loop: options.loop ?? new RequestLoop({ schedule: () => undefined, sleep: realSleep }),
      classify: {
        own: geoblock,
        defaultRetryAfterMs: DEFAULT_RETRY_AFTER_MS,
        hints: { rate_limited: (wait) => `Rate limited (about 20 requests per minute per IP); retry in ${Math.ceil((wait ?? 0) / 1000)} s.` },
      },
    });
    this.#downloadAgent = upstreamAgent(options.timeoutMs * DOWNLOAD_TIMEOUT_FACTOR, options.connections ?? 4);
    this.#downloads = this.#downloadAgent.compose(interceptors.redirect({ maxRedirections: 3 }));
  }

  /** `<base>/api/v1/<path>?<params>`; `path` segments must already be encoded. */
  url(path: string, params?: URLSearchParams): string {
    return `${this.#base}/api/v1/${path}${query(params)}`;
  }

  /** `path`'s JSON body read by `read` (inside the attempt); null on 404 when `notFoundIsNull`. */
  getJson<T>(path: string, params: URLSearchParams | undefined, what: string, read: (json: unknown) => T, o: DjenGet = {}): Promise<T | null> {
    return this.#get(`/${path}${query(params)}`, 'application/json', o, (raw) => read(bodyJson(raw.body, reading(what))));
  }

  /** Bytes of a PDF (the certidão, §4.7); null on 404. */
  getPdf(path: string, what: string, o: DjenGet = {}): Promise<Buffer | null> {
    return this.#get(`/${path}`, 'application/pdf', { ...o, notFoundIsNull: true }, (raw) => {
      if (raw.body.subarray(0, 5).toString('latin1') !== '%PDF-') {
        throw malformed(`DJEN answered ${what} with something that is not a PDF (${describeBody(raw.body)}).`);
      }
      return raw.body;
    });
  }

  /**
   * Streams `url` (absolute, any host) into `file`, overwriting it, under ten times the request
   * timeout. Never holds the body in memory. One attempt: the caller's loop retries it.
   */
  async download(url: string, file: string, what: string, signal?: AbortSignal): Promise<void> {
    const timeoutMs = this.timeoutMs * DOWNLOAD_TIMEOUT_FACTOR;
    const classifier: Classifier = { ...this.#http.classifier, timeoutMs };
    const about = `the caderno file of ${what}`;
    signal?.throwIfAborted();
    try {
      await underTimeout(timeoutMs, signal, async (combined) => {
        const res = await request(url, { method: 'GET', dispatcher: this.#downloads, signal: combined });
        this.#onHeaders(res.headers);
        if (res.statusCode >= 200 && res.statusCode < 300) {
          await drainBody(res, { ...reading(about), limits: this.#cadernoBody }, createWriteStream(file, { mode: 0o600 }), combined);
          return;
        }
        const body = await readBody(res, { ...reading(about), limits: this.#body }, combined);
        if (res.statusCode === 403 || res.statusCode === 404) {
          // The temporary URL lives ≈5 min (§4.6): the caller may ask the metadata again for a new one.
          throw djenError(
            'unavailable',
            `The caderno file URL of ${what} was refused (HTTP ${res.statusCode}); temporary URLs expire after about 5 minutes. ${errorBodyNote(body)}`,
            { status: res.statusCode, retryable: false },
          );
        }
        throw statusFailure({ status: res.statusCode, headers: res.headers, body }, classifier, about);
      });
    } catch (err) {
      throw attemptFailure(err, signal, classifier, about);
    }
  }

  async close(): Promise<void> {
    await this.#http.close();
    await this.#downloadAgent.close();
  }

  #get<T>(path: string, accept: string, o: DjenGet, read: (raw: UpstreamResponse) => T): Promise<T | null> {
    return this.#http.send('GET', path, {
      signal: o.signal,
      tally: o.tally,
      headers: { accept },
      read: (raw: UpstreamResponse) => {
        if (raw.status === 404 && o.notFoundIsNull) return null;
        if (raw.status < 200 || raw.status >= 300) throw this.#http.failure(raw, path);
        return read(raw);
      },
    });
  }
}

function query(params: URLSearchParams | undefined): string {
  return params && params.size > 0 ? `?${params}` : '';
}

/** How the body reader names DJEN's answers and raises this connector's errors. */
function reading(what: string): Omit<BodyReading, 'limits'> {
  return { source: 'djen', what: `DJEN's answer to ${what}`, fail: djenError };
}

/**
 * DJEN's own case of the ladder: a 403 is CloudFront's geoblock (§3), never "no results" nor a key
 * refused. The message reaches the integrator: it says what to do, and never quotes the body.
 */
function geoblock(raw: UpstreamResponse, where: string): RetryableSourceError | undefined {
  if (raw.status !== 403) return undefined;
  return djenError(
    'geoblocked',
    `${where}: DJEN (comunicaapi.pje.jus.br) refuses hosts outside Brazil. Run Tramita from a Brazilian network or send DJEN traffic ` +
      `through a Brazilian egress/relay (DJEN_URL).`,
    { status: 403 },
  );
}
