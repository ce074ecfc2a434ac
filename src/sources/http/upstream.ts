/**
 * One upstream host spoken to over HTTP with the connectors' discipline (DESIGN.md §5): every request
 * through the process's request budget for that host, a timeout per attempt, retries on 5xx, 429
 * (its Retry-After honoured up to a ceiling), network failures and timeouts; what is left is the
 * caller's to read (a 2xx, or a 4xx whose meaning only the connector knows). Bodies are read within
 * the source's limits (body.ts), and no failure message quotes one. The budget, retries and close()
 * are the RequestLoop's (loop.ts), on a fixed list of waits. Used by the gazette
 * connectors (STF, DJE eleitoral), the provider-protocol ones (mural, warrants), Protocolo Integrado and TJRJ.
 */
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import type { Agent } from 'undici';
import { closedConnector, RetryableSourceError, TRANSIENT_FAILURES, type SourceFailure } from '../../platform/ports/source-error.ts';
import type { UpstreamBodySource } from './body-limits.ts';
import { RequestBudget } from './budget.ts';
import { header, pathOnly, sendOnce, upstreamAgent, type UpstreamResponse } from './attempt.ts';
import { systemClock, type Clock } from '../../platform/clock.ts';
import { retryAfterMs } from './retry-after.ts';
import { isUpstreamTimeout } from './timeout.ts';
import { realSleep, type RetryHooks } from './waits.ts';
import { fixedSchedule, type FixedRetryTuning } from './backoff.ts';
import { RequestLoop } from './loop.ts';
import { bodyJson, bodyLimits, errorBodyNote, pageText, type BodyLimits, type BodyReading } from './body.ts';

export type { UpstreamResponse } from './attempt.ts';

export type UpstreamErrorFactory = (
  failure: SourceFailure,
  message: string,
  opts?: { status?: number; retryAfterMs?: number; retryable?: boolean },
) => RetryableSourceError;

/** A connector's failures, named by its source (`stf`, `dje`, `mural`, `mandados`): transient ones retryable. */
export function upstreamError(source: string): UpstreamErrorFactory {
  return (failure, message, opts = {}) => new RetryableSourceError(source, TRANSIENT_FAILURES, failure, message, opts);
}

/**
 * How a connector over HttpUpstream may be tuned (each connector's options extend this). Retries:
 * 2 after the first attempt, waiting 2 s then 8 s; a Retry-After over 60 s fails at once.
 */
export interface UpstreamTuning extends RetryHooks, FixedRetryTuning {
  /** Per attempt (default 30 000). */
  timeoutMs?: number;
  /** Requests per minute for the whole process (default 60). */
  perMinute?: number;
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
  readonly #clock: Clock;
  readonly #agent: Agent;
  readonly #body: BodyReading;
  readonly #loop: RequestLoop;

  constructor(o: HttpUpstreamOptions) {
    this.#body = { source: o.source, what: o.label, limits: o.body ?? bodyLimits(o.source), fail: (failure, message, opts) => o.error(failure, message, opts) };
    this.#o = o;
    this.#base = o.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = o.timeoutMs ?? 30_000;
    this.#clock = o.clock ?? systemClock;
    const sleep = o.sleep ?? realSleep;
    this.#loop = new RequestLoop({
      budget: new RequestBudget({ perMinute: o.perMinute ?? 60, sleep, name: o.budgetName ?? o.source }),
      schedule: fixedSchedule(o, { retries: 2, retryDelaysMs: [2_000, 8_000], maxRetryAfterMs: 60_000 }),
      sleep,
    });
    const ca = o.caFile ? [...rootCertificates, readFileSync(o.caFile, 'utf8')] : undefined;
    this.#agent = upstreamAgent(this.timeoutMs, 2, ca);
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
    return this.#loop.run(async (signal) => {
      const raw = await this.#attempt(method, path, { ...o, signal }).catch((err: unknown) => {
        throw signal.aborted || err instanceof RetryableSourceError ? err : this.#unanswered(err, path);
      });
      const refused = o.refuse?.(raw);
      if (refused) throw refused;
      if (raw.status < 500 && raw.status !== 429) return raw;
      throw raw.status === 429
        ? this.#o.error('rate_limited', `${this.#o.label} answered 429 for ${pathOnly(path)}.`, {
            status: 429,
            retryAfterMs: retryAfterMs(header(raw, 'retry-after'), this.#clock.now().getTime()),
          })
        : this.#o.error('unavailable', `${this.#o.label} answered HTTP ${raw.status} for ${pathOnly(path)} ${detailOf(raw)}.`, { status: raw.status });
    }, o.signal);
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
    await this.#loop.close(closedConnector(this.#o.error('unavailable', `The ${this.#o.label} connector was closed.`, { retryable: false })));
    await this.#agent.close();
  }

  /** A request that got no answer: the attempt's timeout, or the host unreachable. */
  #unanswered(err: unknown, path: string): RetryableSourceError {
    return isUpstreamTimeout(err)
      ? this.#o.error('timeout', `${this.#o.label} did not answer ${pathOnly(path)} within ${this.timeoutMs} ms.`)
      : this.#o.error('unavailable', `${this.#o.label} unreachable for ${pathOnly(path)}: ${(err as Error).message}`);
  }

  #attempt(method: 'GET' | 'POST', path: string, o: { signal: AbortSignal; body?: string; headers?: Record<string, string> }): Promise<UpstreamResponse> {
    return sendOnce(this.#agent, `${this.#base}${path}`, {
      method,
      timeoutMs: this.timeoutMs,
      reading: { ...this.#body, what: `${this.#o.label}'s answer to ${pathOnly(path)}` },
      signal: o.signal,
      body: o.body,
      headers: { accept: 'application/json', ...o.headers },
    });
  }
}
