/**
 * DJEN over HTTP (reference/upstream/djen.md §4): one GET per call, each under its own timeout,
 * every failure mapped to a DjenError and never to "no results". No budget, retries or paging here:
 * see the connector (on sources/http/loop.ts).
 */
import { createWriteStream } from 'node:fs';
import { interceptors, request, type Agent, type Dispatcher } from 'undici';
import { systemClock, type Clock } from '../../platform/clock.ts';
import { bodyJson, bodyLimits, describeBody, drainBody, errorBodyNote, readBody, type BodyLimits, type BodyReading } from '../http/body.ts';
import { DjenError, malformed } from './errors.ts';
import { retryAfterMs } from '../http/retry-after.ts';
import { isUpstreamTimeout } from '../http/timeout.ts';
import { networkErrorText, sendOnce, underTimeout, upstreamAgent, type ResponseHeaders, type UpstreamResponse } from '../http/attempt.ts';

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
}

/** djen.md §4.4: "Ao receber um erro 429 orienta-se aguardar 1 minuto". */
export const DEFAULT_RETRY_AFTER_MS = 60_000;
const DOWNLOAD_TIMEOUT_FACTOR = 10;

export class DjenClient {
  readonly timeoutMs: number;
  readonly #base: string;
  readonly #clock: Clock;
  readonly #onHeaders: (headers: ResponseHeaders) => void;
  readonly #body: BodyLimits;
  readonly #cadernoBody: BodyLimits;
  readonly #agent: Agent;
  /** Downloads follow redirects: the caderno's temporary URL is another host's (S3-like, §4.6). */
  readonly #downloads: Dispatcher;

  constructor(options: DjenClientOptions) {
    // DJEN_URL may be given as the API base (`…/api/v1`, as djen.md §1 writes it): paths add it back.
    this.#base = options.baseUrl.replace(/\/+$/, '').replace(/\/api\/v1$/, '');
    this.timeoutMs = options.timeoutMs;
    this.#clock = options.clock ?? systemClock;
    this.#onHeaders = options.onHeaders ?? (() => {});
    this.#body = options.body ?? bodyLimits('djen');
    this.#cadernoBody = options.cadernoBody ?? bodyLimits('djen-caderno');
    this.#agent = upstreamAgent(options.timeoutMs * DOWNLOAD_TIMEOUT_FACTOR, options.connections ?? 4);
    this.#downloads = this.#agent.compose(interceptors.redirect({ maxRedirections: 3 }));
  }

  /** `<base>/api/v1/<path>?<params>`; `path` segments must already be encoded. */
  url(path: string, params?: URLSearchParams): string {
    const query = params && params.size > 0 ? `?${params}` : '';
    return `${this.#base}/api/v1/${path}${query}`;
  }

  /** A JSON body; null on 404 when `notFoundIsNull`. */
  async getJson(url: string, what: string, signal?: AbortSignal, opts: { notFoundIsNull?: boolean } = {}): Promise<unknown> {
    const res = await this.#get(url, 'application/json', what, signal);
    if (res.status === 404 && opts.notFoundIsNull) return null;
    if (res.status < 200 || res.status >= 300) throw this.#failure(res, what);
    return bodyJson(res.body, reading(what));
  }

  /** Bytes of a PDF (the certidão, §4.7); null on 404. */
  async getPdf(url: string, what: string, signal?: AbortSignal): Promise<Buffer | null> {
    const res = await this.#get(url, 'application/pdf', what, signal);
    if (res.status === 404) return null;
    if (res.status < 200 || res.status >= 300) throw this.#failure(res, what);
    if (res.body.subarray(0, 5).toString('latin1') !== '%PDF-') {
      throw malformed(`DJEN answered ${what} with something that is not a PDF (${describeBody(res.body)}).`);
    }
    return res.body;
  }

  /**
   * Streams `url` (absolute, any host) into `file`, overwriting it, under ten times the request
   * timeout. Never holds the body in memory.
   */
  async download(url: string, file: string, what: string, signal?: AbortSignal): Promise<void> {
    const timeoutMs = this.timeoutMs * DOWNLOAD_TIMEOUT_FACTOR;
    await this.#withTimeout(what, timeoutMs, signal, async (combined) => {
      const res = await request(url, { method: 'GET', dispatcher: this.#downloads, signal: combined });
      this.#onHeaders(res.headers);
      if (res.statusCode >= 200 && res.statusCode < 300) {
        await drainBody(res, { ...reading(`the caderno file of ${what}`), limits: this.#cadernoBody }, createWriteStream(file, { mode: 0o600 }), combined);
        return;
      }
      const body = await readBody(res, { ...reading(`the caderno file of ${what}`), limits: this.#body }, combined);
      if (res.statusCode === 403 || res.statusCode === 404) {
        // The temporary URL lives ≈5 min (§4.6): the caller may ask the metadata again for a new one.
        throw new DjenError(
          'unavailable',
          `The caderno file URL of ${what} was refused (HTTP ${res.statusCode}); temporary URLs expire after about 5 minutes. ${errorBodyNote(body)}`,
          { status: res.statusCode, retryable: false },
        );
      }
      throw this.#failure({ status: res.statusCode, headers: res.headers, body }, `the caderno file of ${what}`);
    });
  }

  async close(): Promise<void> {
    await this.#agent.close();
  }

  async #get(url: string, accept: string, what: string, signal: AbortSignal | undefined): Promise<UpstreamResponse> {
    signal?.throwIfAborted();
    try {
      // The body is always read (even of errors) so the socket goes back to the pool; within its limits.
      return await sendOnce(this.#agent, url, {
        method: 'GET',
        timeoutMs: this.timeoutMs,
        reading: { ...reading(what), limits: this.#body },
        signal,
        headers: { accept },
        onHeaders: this.#onHeaders,
      });
    } catch (err) {
      throw unanswered(what, this.timeoutMs, signal, err);
    }
  }

  /** Runs `send` under the attempt's timeout (underTimeout); network failures and timeouts become DjenErrors. */
  async #withTimeout<T>(what: string, timeoutMs: number, signal: AbortSignal | undefined, send: (signal: AbortSignal) => Promise<T>): Promise<T> {
    signal?.throwIfAborted();
    try {
      return await underTimeout(timeoutMs, signal, send);
    } catch (err) {
      throw unanswered(what, timeoutMs, signal, err);
    }
  }

  #failure(res: UpstreamResponse, what: string): DjenError {
    return failureForStatus(res.status, res.headers, res.body, what, this.#clock.now().getTime());
  }
}

/** What a failed request throws: a DjenError as it is, the caller's abort as its reason, else a timeout or no answer. */
function unanswered(what: string, timeoutMs: number, signal: AbortSignal | undefined, err: unknown): unknown {
  if (err instanceof DjenError) return err;
  if (signal?.aborted) return signal.reason;
  return networkFailure(what, timeoutMs, err);
}

function networkFailure(what: string, timeoutMs: number, err: unknown): DjenError {
  // The attempt's timer, or undici's own (backstop) and connect timeouts: all timeouts, not outages.
  if (isUpstreamTimeout(err)) return new DjenError('timeout', `DJEN did not answer ${what} within ${timeoutMs} ms.`);
  return new DjenError('unavailable', `DJEN unreachable for ${what}: ${networkErrorText(err)}`);
}

/** How the body reader names DJEN's answers and raises this connector's errors. */
function reading(what: string): Omit<BodyReading, 'limits'> {
  return { source: 'djen', what: `DJEN's answer to ${what}`, fail: (failure, message, opts) => new DjenError(failure, message, opts) };
}

/**
 * Maps a non-2xx answer. 403 is CloudFront's geoblock (§3), never "no results". The error body is
 * named by size and hash, never quoted (the geoblock's message reaches the integrator).
 */
export function failureForStatus(status: number, headers: ResponseHeaders, body: Buffer, what: string, nowMs: number): DjenError {
  const where = `DJEN answered ${what} with HTTP ${status}`;
  const text = errorBodyNote(body);
  if (status === 403) {
    return new DjenError(
      'geoblocked',
      `${where}: DJEN (comunicaapi.pje.jus.br) refuses hosts outside Brazil. Run Tramita from a Brazilian network or send DJEN traffic ` +
        `through a Brazilian egress/relay (DJEN_URL).`,
      { status },
    );
  }
  if (status === 429) {
    const wait = retryAfterMs(headers['retry-after'], nowMs) ?? DEFAULT_RETRY_AFTER_MS;
    return new DjenError('rate_limited', `${where}: rate limited (about 20 requests per minute per IP); retry in ${Math.ceil(wait / 1000)} s.`, {
      status,
      retryAfterMs: wait,
    });
  }
  if (status >= 500) {
    return new DjenError('unavailable', `${where} ${text}`, { status, retryAfterMs: retryAfterMs(headers['retry-after'], nowMs) });
  }
  // Other 4xx: DJEN refused this query (e.g. a missing required filter); asking again gets the same answer.
  return new DjenError('unavailable', `${where} ${text}`, { status, retryable: false });
}
