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
import { closedConnector, type RetryableSourceError } from '../../platform/ports/source-error.ts';
import type { UpstreamBodySource } from './body-limits.ts';
import { RequestBudget } from './budget.ts';
import { header, pathOnly, sendOnce, upstreamAgent, type ResponseHeaders, type UpstreamResponse } from './attempt.ts';
import { attemptFailure, isTransientStatus, statusFailure, type Classifier, type UpstreamErrorFactory } from './classify.ts';
import { realSleep, type RetryHooks } from './waits.ts';
import { fixedSchedule, type FixedRetryTuning } from './backoff.ts';
import { RequestLoop, type Tally } from './loop.ts';
import { bodyJson, bodyLimits, errorBodyNote, pageText, type BodyLimits, type BodyReading } from './body.ts';

export type { UpstreamResponse } from './attempt.ts';

export { upstreamError, type UpstreamErrorFactory } from './classify.ts';

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
  /** The connector's own cases of the status ladder (classify.ts): what a 4xx means to it, hints, a redaction. */
  classify?: Pick<Classifier, 'own' | 'refused' | 'hints' | 'defaultRetryAfterMs' | 'redact'>;
  /**
   * The connector's own loop when it needs more than a fixed schedule and a budget per minute
   * (DataJud's in-flight limit and shared budget, DJEN's 429 pause); `perMinute`, `retries`,
   * `retryDelaysMs` and `maxRetryAfterMs` are then the loop's business.
   */
  loop?: RequestLoop;
  /** No per-minute budget: a server the operator runs (the portal, the model). */
  unbudgeted?: boolean;
  /** The schedule's defaults where the connector's differ from the gazettes' (2 retries, 2 s then 8 s, Retry-After ≤ 60 s). */
  retryDefaults?: Required<FixedRetryTuning>;
  /** Sockets of the connector's Agent (default 2). */
  connections?: number;
  /** Sees the headers of every answer before its body (DJEN's `x-ratelimit-remaining`, pause.ts). */
  onHeaders?: (headers: ResponseHeaders) => void;
}

/** What a server the operator runs or pays for (the portal, the model) leaves unset: no budget, and its connector's defaults. */
export function operatorServer<O extends UpstreamTuning & { connections?: number }>(
  o: O,
  defaults: { timeoutMs: number; connections: number; retries: Required<FixedRetryTuning> },
): O & Pick<HttpUpstreamOptions, 'timeoutMs' | 'connections' | 'unbudgeted' | 'retryDefaults'> {
  return {
    ...o,
    timeoutMs: o.timeoutMs ?? defaults.timeoutMs,
    connections: o.connections ?? defaults.connections,
    unbudgeted: true,
    retryDefaults: defaults.retries,
  };
}

/** One request as a connector describes it to HttpUpstream.send. */
export interface UpstreamRequest<T> {
  signal?: AbortSignal;
  body?: string;
  headers?: Record<string, string>;
  /** Sees every answer first, whatever its status: a failure it returns is thrown at once, never retried (a challenge page). */
  refuse?: (raw: UpstreamResponse) => RetryableSourceError | undefined;
  /** Reads an answer the ladder let through, inside the attempt: a failure it throws is retried when transient (DataJud's malformed). */
  read?: (raw: UpstreamResponse) => T;
  /** Counts this request's attempts (a search's `requests`). */
  tally?: Tally;
  /** One attempt, no retry: the caller's own loop retries the whole (DataJud's rounds of pages, RequestLoop.rounds). */
  once?: boolean;
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
  readonly #classifier: Classifier;
  readonly #agent: Agent;
  readonly #body: BodyReading;
  readonly #loop: RequestLoop;

  constructor(o: HttpUpstreamOptions) {
    this.#body = { source: o.source, what: o.label, limits: o.body ?? bodyLimits(o.source), fail: (failure, message, opts) => o.error(failure, message, opts) };
    this.#o = o;
    this.#base = o.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = o.timeoutMs ?? 30_000;
    this.#classifier = { ...o.classify, error: o.error, label: o.label, timeoutMs: this.timeoutMs, clock: o.clock };
    const sleep = o.sleep ?? realSleep;
    this.#loop =
      o.loop ??
      new RequestLoop({
        budget: o.unbudgeted ? undefined : new RequestBudget({ perMinute: o.perMinute ?? 60, sleep, name: o.budgetName ?? o.source }),
        schedule: fixedSchedule(o, o.retryDefaults ?? { retries: 2, retryDelaysMs: [2_000, 8_000], maxRetryAfterMs: 60_000 }),
        sleep,
      });
    const ca = o.caFile ? [...rootCertificates, readFileSync(o.caFile, 'utf8')] : undefined;
    this.#agent = upstreamAgent(this.timeoutMs, o.connections ?? 2, ca);
  }

  /** The Agent's sockets, for a connector's own requests to this upstream (DJEN's streamed downloads). */
  get agent(): Agent {
    return this.#agent;
  }

  /** How this upstream's failures are classified (classify.ts), for a connector's own requests. */
  get classifier(): Classifier {
    return this.#classifier;
  }

  /**
   * One request (`path` under the base URL), retried on the loop while the failure is transient: the
   * answer when it is neither 5xx nor 429 (what `read` makes of it, when given). Every connector
   * enters the upstream HTTP stack here (issue 55).
   */
  send(method: 'GET' | 'POST', path: string, o?: Omit<UpstreamRequest<UpstreamResponse>, 'read'>): Promise<UpstreamResponse>;
  send<T>(method: 'GET' | 'POST', path: string, o: UpstreamRequest<T> & { read: (raw: UpstreamResponse) => T }): Promise<T>;
  send<T>(method: 'GET' | 'POST', path: string, o: UpstreamRequest<T> = {}): Promise<T | UpstreamResponse> {
    return this.#loop.run(
      async (signal) => {
        const raw = await this.#attempt(method, path, { ...o, signal }).catch((err: unknown) => {
          throw attemptFailure(err, signal, this.#classifier, pathOnly(path));
        });
        const refused = o.refuse?.(raw);
        if (refused) throw refused;
        if (isTransientStatus(raw.status)) throw this.failure(raw, path);
        return o.read ? o.read(raw) : raw;
      },
      o.signal,
      o.tally,
      o.once ? { attempts: 1, uncounted: true } : {},
    );
  }

  /** The answer when it is a 200, else the failure its status means (below). */
  ok(raw: UpstreamResponse, path: string): UpstreamResponse {
    if (raw.status === 200) return raw;
    throw this.failure(raw, path);
  }

  /** The failure an answer the caller does not read means (classify.ts's ladder, with this connector's own cases). */
  failure(raw: UpstreamResponse, path: string): RetryableSourceError {
    return statusFailure(raw, this.#classifier, pathOnly(path));
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

  #attempt(method: 'GET' | 'POST', path: string, o: { signal: AbortSignal; body?: string; headers?: Record<string, string> }): Promise<UpstreamResponse> {
    return sendOnce(this.#agent, `${this.#base}${path}`, {
      method,
      timeoutMs: this.timeoutMs,
      reading: { ...this.#body, what: `${this.#o.label}'s answer to ${pathOnly(path)}` },
      signal: o.signal,
      body: o.body,
      headers: { accept: 'application/json', ...o.headers },
      onHeaders: this.#o.onHeaders,
    });
  }
}
