/**
 * One upstream host spoken to over HTTP with the connectors' discipline (DESIGN.md §5): every request
 * through the process's request budget for that host, a timeout per attempt, retries on 5xx, 429
 * (its Retry-After honoured up to a ceiling), network failures and timeouts; what is left is the
 * caller's to read (a 2xx, or a 4xx whose meaning only the connector knows). Bodies are read within
 * the source's limits (body.ts), and no failure message quotes one. Used by the gazette
 * connectors (STF, DJE eleitoral), the provider-protocol ones (mural, warrants), Protocolo Integrado and TJRJ.
 */
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { Agent, request } from 'undici';
import { closedConnector, RetryableSourceError, TRANSIENT_FAILURES, type SourceFailure } from '../../platform/ports/source-error.ts';
import type { UpstreamBodySource } from '../../config.ts';
import { RequestBudget } from './budget.ts';
import { header, pathOnly, underTimeout } from './attempt.ts';
import { systemClock, type Clock } from '../../platform/clock.ts';
import { retryAfterMs } from './retry-after.ts';
import { isUpstreamTimeout } from './timeout.ts';
import { realSleep, type RetryHooks, type Sleep } from './waits.ts';
import { bodyJson, bodyLimits, errorBodyNote, pageText, readBody, type BodyLimits, type BodyReading } from './body.ts';

export type UpstreamErrorFactory = (
  failure: SourceFailure,
  message: string,
  opts?: { status?: number; retryAfterMs?: number; retryable?: boolean },
) => RetryableSourceError;

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
export interface UpstreamTuning extends RetryHooks {
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
  /** Size and idle limits of an answer's body (default: config.ts's defaults for this source). */
  body?: BodyLimits;
}

export interface HttpUpstreamOptions extends UpstreamTuning {
  /** Everything up to the paths the connector asks, e.g. `https://digital.stf.jus.br/decisoes-publicacoes/api/public`. */
  baseUrl: string;
  /** The source's short name: metrics' `source` label, its budget's name and its body limit's (`stf`, `dje-eleitoral`). */
  source: UpstreamBodySource;
  /** The budget's name when one source speaks to several hosts, each with its own budget (`consulta-tjsp`); default `source`. */
  budgetName?: string;
  /** How messages name the upstream (`STF`, `DJE eleitoral`). */
  label: string;
  /** The connector's own error, so failures carry its source name. */
  error: UpstreamErrorFactory;
}

/**
 * What a failure message says of an answer: its size, hash and error type, never its text. Any
 * answer may hold personal data (a party's name, a CPF) and messages reach logs.
 */
export function detailOf(r: UpstreamResponse): string {
  return errorBodyNote(r.body);
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
  readonly #clock: Clock;
  readonly #agent: Agent;
  readonly #body: BodyReading;
  /** Aborted by close(): every request in flight, and every wait for the budget or a retry, ends with it. */
  readonly #closing = new AbortController();

  constructor(o: HttpUpstreamOptions) {
    this.#body = { source: o.source, what: o.label, limits: o.body ?? bodyLimits(o.source), fail: (failure, message, opts) => o.error(failure, message, opts) };
    this.#o = o;
    this.#base = o.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = o.timeoutMs ?? 30_000;
    this.#retries = o.retries ?? 2;
    this.#delays = o.retryDelaysMs ?? [2_000, 8_000];
    this.#maxRetryAfterMs = o.maxRetryAfterMs ?? 60_000;
    this.#sleep = o.sleep ?? realSleep;
    this.#clock = o.clock ?? systemClock;
    this.#budget = new RequestBudget({ perMinute: o.perMinute ?? 60, sleep: this.#sleep, name: o.budgetName ?? o.source });
    const ca = o.caFile ? [...rootCertificates, readFileSync(o.caFile, 'utf8')] : undefined;
    const backstop = this.timeoutMs + 1_000;
    this.#agent = new Agent({ connections: 2, headersTimeout: backstop, bodyTimeout: backstop, ...(ca ? { connect: { ca } } : {}) });
  }

  /**
   * One request, retried while the failure is transient; the answer when it is neither 5xx nor 429.
   * `refuse` sees every answer first, whatever its status: a failure it returns is thrown at once,
   * never retried (a challenge page, which a WAF may send as a 503 or a 429).
   */
  async send(
    method: 'GET' | 'POST',
    path: string,
    o: { signal?: AbortSignal; body?: string; headers?: Record<string, string>; refuse?: (raw: UpstreamResponse) => RetryableSourceError | undefined } = {},
  ): Promise<UpstreamResponse> {
    const signal = o.signal ? AbortSignal.any([o.signal, this.#closing.signal]) : this.#closing.signal;
    for (let attempt = 0; ; attempt++) {
      await this.#budget.acquire(signal);
      let failure: RetryableSourceError;
      try {
        const raw = await this.#attempt(method, path, { ...o, signal });
        const refused = o.refuse?.(raw);
        if (refused) throw refused;
        if (raw.status < 500 && raw.status !== 429) return raw;
        failure =
          raw.status === 429
            ? this.#o.error('rate_limited', `${this.#o.label} answered 429 for ${pathOnly(path)}.`, {
                status: 429,
                retryAfterMs: retryAfterMs(header(raw, 'retry-after'), this.#clock.now().getTime()),
              })
            : this.#o.error('unavailable', `${this.#o.label} answered HTTP ${raw.status} for ${pathOnly(path)} ${detailOf(raw)}.`, { status: raw.status });
      } catch (err) {
        if (signal.aborted) throw signal.reason;
        if (err instanceof RetryableSourceError && !err.retryable) throw err; // a body refused for good (body.ts)
        failure =
          err instanceof RetryableSourceError
            ? err
            : isUpstreamTimeout(err)
              ? this.#o.error('timeout', `${this.#o.label} did not answer ${pathOnly(path)} within ${this.timeoutMs} ms.`)
              : this.#o.error('unavailable', `${this.#o.label} unreachable for ${pathOnly(path)}: ${(err as Error).message}`);
      }
      const wait = failure.retryAfterMs ?? this.#delays[Math.min(attempt, this.#delays.length - 1)] ?? 0;
      if (attempt >= this.#retries || (failure.failure === 'rate_limited' && wait > this.#maxRetryAfterMs)) throw failure;
      await this.#sleep(wait, signal);
    }
  }

  /** The body as JSON (UTF-8, not absurdly nested), or a `malformed` failure naming its size and hash. */
  json(raw: UpstreamResponse, path: string): unknown {
    return bodyJson(raw.body, { ...this.#body, what: `${this.#o.label}'s answer to ${pathOnly(path)}` }, { retryable: false });
  }

  /** The body as a web page's text (pageText: its declared charset, Windows-1252 for bytes that are not the UTF-8 declared). */
  page(raw: UpstreamResponse): string {
    return pageText(raw.body, header(raw, 'content-type'));
  }

  /**
   * Ends what is in flight (a request, a wait for the budget or a retry: each fails at once, not
   * retryable) and closes the sockets. Without the abort, closing would wait for hung requests until
   * their timeout (a shutdown held by an upstream that does not answer).
   */
  async close(): Promise<void> {
    if (!this.#closing.signal.aborted)
      this.#closing.abort(closedConnector(this.#o.error('unavailable', `The ${this.#o.label} connector was closed.`, { retryable: false })));
    await this.#agent.close();
  }

  #attempt(method: string, path: string, o: { signal?: AbortSignal; body?: string; headers?: Record<string, string> }): Promise<UpstreamResponse> {
    return underTimeout(this.timeoutMs, o.signal, async (combined) => {
      const res = await request(`${this.#base}${path}`, {
        method,
        dispatcher: this.#agent,
        signal: combined,
        body: o.body,
        headers: { accept: 'application/json', ...o.headers },
      });
      return {
        status: res.statusCode,
        headers: res.headers,
        body: await readBody(res, { ...this.#body, what: `${this.#o.label}'s answer to ${pathOnly(path)}` }, combined),
      };
    });
  }
}
