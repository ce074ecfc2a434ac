/**
 * One upstream host spoken to over HTTP with the connectors' discipline (DESIGN.md §5): every request
 * through the process's request budget for that host, a timeout per attempt, retries on 5xx, 429
 * (its Retry-After honoured up to a ceiling), network failures and timeouts; what is left is the
 * caller's to read (a 2xx, or a 4xx whose meaning only the connector knows). Used by the gazette
 * connectors (STF, DJE eleitoral) and the provider-protocol ones (mural).
 */
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { Agent, request } from 'undici';
import { RetryableSourceError, TRANSIENT_FAILURES, type SourceFailure } from '../platform/ports/sources.ts';
import { realSleep, RequestBudget, type Sleep } from './datajud/budget.ts';
import { header, underTimeout } from './attempt.ts';
import { retryAfterMs } from './portal/connector.ts';

export type UpstreamErrorFactory = (failure: SourceFailure, message: string, opts?: { status?: number; retryAfterMs?: number; retryable?: boolean }) => RetryableSourceError;

/** A connector's failures, named by its source (`stf`, `dje`, `mural`, `mandados`): transient ones retryable. */
export function upstreamError(source: string): UpstreamErrorFactory {
  return (failure, message, opts = {}) => new RetryableSourceError(source, TRANSIENT_FAILURES, failure, message, opts);
}

export interface UpstreamResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** How a connector over HttpUpstream may be tuned (each connector's options extend this). */
export interface UpstreamTuning {
  /** Per attempt (default 30 000). */
  timeoutMs?: number;
  /** Requests per minute for the whole process (default 60). */
  perMinute?: number;
  /** Retries after the first attempt (default 2), waiting retryDelaysMs (default [2 000, 8 000]). */
  retries?: number;
  retryDelaysMs?: readonly number[];
  /** A 429 asking to wait longer than this fails at once as rate_limited (default 60 000). */
  maxRetryAfterMs?: number;
  /** PEM file with extra CA certificates, added to Node's roots (never a disabled verification). */
  caFile?: string;
  sleep?: Sleep;
}

export interface HttpUpstreamOptions extends UpstreamTuning {
  /** Everything up to the paths the connector asks, e.g. `https://digital.stf.jus.br/decisoes-publicacoes/api/public`. */
  baseUrl: string;
  /** The source's short name: metrics' `source` label and its budget's name (`stf`, `dje-eleitoral`). */
  source: string;
  /** How messages name the upstream (`STF`, `DJE eleitoral`). */
  label: string;
  /** Answers may carry personal data (warrants): failure messages then never quote the body. */
  personalData?: boolean;
  /** The connector's own error, so failures carry its source name. */
  error: UpstreamErrorFactory;
}

const MAX_DETAIL = 200;

/** A path without its query: queries may carry names (a party searched), and messages reach logs. */
export function pathOnly(path: string): string {
  return path.split('?')[0];
}

export function detailOf(r: UpstreamResponse): string {
  return r.body.subarray(0, MAX_DETAIL * 2).toString('utf8').slice(0, MAX_DETAIL);
}

export class HttpUpstream {
  readonly timeoutMs: number;
  readonly #o: HttpUpstreamOptions;
  readonly #base: string;
  readonly #retries: number;
  readonly #delays: readonly number[];
  readonly #maxRetryAfterMs: number;
  readonly #budget: RequestBudget;
  readonly #sleep: Sleep;
  readonly #agent: Agent;

  constructor(o: HttpUpstreamOptions) {
    this.#o = o;
    this.#base = o.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = o.timeoutMs ?? 30_000;
    this.#retries = o.retries ?? 2;
    this.#delays = o.retryDelaysMs ?? [2_000, 8_000];
    this.#maxRetryAfterMs = o.maxRetryAfterMs ?? 60_000;
    this.#sleep = o.sleep ?? realSleep;
    this.#budget = new RequestBudget({ perMinute: o.perMinute ?? 60, sleep: this.#sleep, name: o.source });
    const ca = o.caFile ? [...rootCertificates, readFileSync(o.caFile, 'utf8')] : undefined;
    const backstop = this.timeoutMs + 1_000;
    this.#agent = new Agent({ connections: 2, headersTimeout: backstop, bodyTimeout: backstop, ...(ca ? { connect: { ca } } : {}) });
  }

  /** One request, retried while the failure is transient; the answer when it is neither 5xx nor 429. */
  async send(method: 'GET' | 'POST', path: string, o: { signal?: AbortSignal; body?: string; headers?: Record<string, string> } = {}): Promise<UpstreamResponse> {
    const { signal } = o;
    for (let attempt = 0; ; attempt++) {
      await this.#budget.acquire(signal);
      let failure: RetryableSourceError;
      try {
        const raw = await this.#attempt(method, path, o);
        if (raw.status < 500 && raw.status !== 429) return raw;
        failure = raw.status === 429
          ? this.#o.error('rate_limited', `${this.#o.label} answered 429 for ${pathOnly(path)}.`, { status: 429, retryAfterMs: retryAfterMs(header(raw, 'retry-after')) })
          : this.#o.error('unavailable', `${this.#o.label} answered HTTP ${raw.status} for ${pathOnly(path)}: ${this.#detail(raw)}`, { status: raw.status });
      } catch (err) {
        if (signal?.aborted) throw signal.reason;
        failure = (err as Error).name === 'TimeoutError' || /TIMEOUT/.test(String((err as { code?: string }).code))
          ? this.#o.error('timeout', `${this.#o.label} did not answer ${pathOnly(path)} within ${this.timeoutMs} ms.`)
          : this.#o.error('unavailable', `${this.#o.label} unreachable for ${pathOnly(path)}: ${(err as Error).message}`);
      }
      const wait = failure.retryAfterMs ?? this.#delays[Math.min(attempt, this.#delays.length - 1)] ?? 0;
      if (attempt >= this.#retries || (failure.failure === 'rate_limited' && wait > this.#maxRetryAfterMs)) throw failure;
      await this.#sleep(wait, signal);
    }
  }

  /** The body as JSON, or a `malformed` failure naming what came instead. */
  json(raw: UpstreamResponse, path: string): unknown {
    try {
      return JSON.parse(raw.body.toString('utf8'));
    } catch {
      throw this.#o.error('malformed', `${this.#o.label} answered a body that is not JSON for ${pathOnly(path)}: ${this.#detail(raw)}`, { retryable: false });
    }
  }

  async close(): Promise<void> {
    await this.#agent.close();
  }

  /** What a failure message quotes of an answer: its start, or only its size when it may hold personal data. */
  #detail(raw: UpstreamResponse): string {
    return this.#o.personalData ? `(${raw.body.length} bytes, not quoted: personal data)` : detailOf(raw);
  }

  #attempt(method: string, path: string, o: { signal?: AbortSignal; body?: string; headers?: Record<string, string> }): Promise<UpstreamResponse> {
    return underTimeout(this.timeoutMs, o.signal, async (combined) => {
      const res = await request(`${this.#base}${path}`, { method, dispatcher: this.#agent, signal: combined, body: o.body, headers: { accept: 'application/json', ...o.headers } });
      return { status: res.statusCode, headers: res.headers, body: Buffer.from(await res.body.arrayBuffer()) };
    });
  }
}
