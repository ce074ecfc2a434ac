/**
 * How every consultation client talks to a court (issue 31 item 3, DESIGN.md §8): politely, through
 * one HttpUpstream per host (its own request budget, at most two requests in flight, a timeout per
 * attempt, backoff on 429/5xx), with an identifying User-Agent carrying the operator's contact, and
 * every answer shown to the challenge detector before anyone reads it: a captcha, an anti-bot page or a
 * login wall is a SourceError (`captcha`, `anti_bot`, `login`), never data and never "not found".
 *
 * A session keeps the cookies the court sets (e-SAJ's and PJe's JSESSIONID) and follows redirects
 * within the court's own host only. No message quotes a page: pages carry names and CPFs.
 */
import type { RetryableSourceError, SourceFailure } from '../../platform/ports/source-error.ts';
import { isTransientStatus, upstreamError } from '../http/classify.ts';
import { bodyRefused } from '../../platform/observability/upstreams.ts';
import { HttpUpstream, type UpstreamResponse } from '../http/upstream.ts';
import { header, pathOnly } from '../http/attempt.ts';
import type { BodyLimits } from '../http/body.ts';
import type { Sleep } from '../http/waits.ts';
import { detectChallenge } from './challenge.ts';
import { atStep, type ConsultaStep } from './anomalies.ts';

export interface ConsultaHttpOptions {
  /** `Tramita/<version> (+contact)`: who is asking, and how to reach the operator. */
  userAgent: string;
  /** Requests per minute per host. */
  perMinute: number;
  timeoutMs: number;
  retryDelaysMs?: readonly number[];
  body?: BodyLimits;
  sleep?: Sleep;
}

/** One consultation's answer, read as text and already cleared by the challenge detector. */
export interface ConsultaPage {
  status: number;
  /** The absolute URL that answered (after redirects). */
  url: string;
  headers: UpstreamResponse['headers'];
  text: string;
  /** The bytes as they came (a file the court stores: issue 53). */
  body?: Buffer;
}

/** A page a court answered, as read off the wire (decoded), before the challenge detector: for `consultas esqueleto`. */
export interface RecordedConsultaPage {
  source: string;
  method: 'GET' | 'POST';
  /** Path without the query (a query may hold a number or a name). */
  path: string;
  status: number;
  text: string;
}

let recorder: ((page: RecordedConsultaPage) => void) | null = null;

/**
 * Every page the consultations receive from now on goes to `record` too, until the returned function is
 * called (`tramita consultas esqueleto`, a one-shot command: nothing records in a server).
 */
export function recordConsultaPages(record: (page: RecordedConsultaPage) => void): () => void {
  recorder = record;
  return () => {
    if (recorder === record) recorder = null;
  };
}

/** The per-host pool every court's client draws from: two courts on one host share its budget. */
export class ConsultaHttp {
  readonly #o: ConsultaHttpOptions;
  readonly #hosts = new Map<string, HttpUpstream>();
  constructor(o: ConsultaHttpOptions) {
    this.#o = o;
  }

  /** A fresh session (its own cookies) for one case's requests to one court, named by its source. */
  session(source: string, label: string): ConsultaSession {
    return new ConsultaSession(this, source, label);
  }

  host(origin: string, source: string, label: string): HttpUpstream {
    let h = this.#hosts.get(origin);
    if (!h) {
      h = new HttpUpstream({
        baseUrl: origin,
        source: 'consultas',
        budgetName: `consulta:${new URL(origin).host}`,
        label,
        error: upstreamError(source),
        perMinute: this.#o.perMinute,
        timeoutMs: this.#o.timeoutMs,
        retryDelaysMs: this.#o.retryDelaysMs,
        body: this.#o.body,
        sleep: this.#o.sleep,
      });
      this.#hosts.set(origin, h);
    }
    return h;
  }

  get userAgent(): string {
    return this.#o.userAgent;
  }

  async close(): Promise<void> {
    await Promise.all([...this.#hosts.values()].map((h) => h.close()));
    this.#hosts.clear();
  }
}

const MAX_REDIRECTS = 3;
/** A redirect to a sign-in page (PJe's login.seam, an SSO host, OpenID Connect): a login wall, never followed. */
const LOGIN_LOCATION = /login|^sso\.|openid-connect|\/auth\//i;

export class ConsultaSession {
  readonly #http: ConsultaHttp;
  readonly #source: string;
  readonly #label: string;
  readonly #cookies = new Map<string, string>();
  /** The step of the flow the session is in: every failure it throws or passes on is marked with it (anomalies.ts). */
  #step: ConsultaStep = 'consulta';
  constructor(http: ConsultaHttp, source: string, label: string) {
    this.#http = http;
    this.#source = source;
    this.#label = label;
  }

  /** The flow enters a step (search form, search, detail page…): failures from here on name it. */
  at(step: ConsultaStep): this {
    this.#step = step;
    return this;
  }

  /** GET a URL of the court, following its redirects within the same host. */
  get(url: string, o: { signal?: AbortSignal; headers?: Record<string, string> } = {}): Promise<ConsultaPage> {
    return this.#send('GET', url, o);
  }

  /** POST a form (`application/x-www-form-urlencoded`) to a URL of the court. */
  post(url: string, form: URLSearchParams | Record<string, string>, o: { signal?: AbortSignal; headers?: Record<string, string> } = {}): Promise<ConsultaPage> {
    const body = (form instanceof URLSearchParams ? form : new URLSearchParams(form)).toString();
    return this.#send('POST', url, { ...o, body, headers: { 'content-type': 'application/x-www-form-urlencoded', ...o.headers } });
  }

  /** A failure of this court's consultation (for the clients' own checks: a page that is not what it should be). */
  fail(failure: SourceFailure, message: string): RetryableSourceError {
    return atStep(upstreamError(this.#source)(failure, `${this.#label}: ${message}`, { retryable: false }), this.#step);
  }

  async #send(method: 'GET' | 'POST', url: string, o: { signal?: AbortSignal; headers?: Record<string, string>; body?: string }): Promise<ConsultaPage> {
    try {
      return await this.#exchange(method, url, o);
    } catch (err) {
      throw err instanceof Error ? atStep(err, this.#step) : err;
    }
  }

  async #exchange(method: 'GET' | 'POST', url: string, o: { signal?: AbortSignal; headers?: Record<string, string>; body?: string }): Promise<ConsultaPage> {
    let target = new URL(url);
    let request = { method, body: o.body, headers: o.headers };
    for (let hop = 0; ; hop++) {
      const upstream = this.#http.host(target.origin, this.#source, this.#label);
      const path = `${target.pathname}${target.search}`;
      const raw = await upstream.send(request.method, path, {
        signal: o.signal,
        body: request.body,
        refuse: (answer) => this.#challengedBeforeRetry(upstream, answer, path),
        headers: {
          accept: 'text/html,application/xhtml+xml,application/json;q=0.9,*/*;q=0.8',
          'accept-language': 'pt-BR,pt;q=0.9',
          'user-agent': this.#http.userAgent,
          ...this.#cookieHeader(),
          ...request.headers,
        },
      });
      this.#keepCookies(raw);
      const location = header(raw, 'location');
      if (raw.status >= 300 && raw.status < 400 && location) {
        const next = new URL(location, target);
        if (LOGIN_LOCATION.test(`${next.host}${next.pathname}`)) throw this.fail('login', `${pathOnly(path)} redirects to a login`);
        if (next.origin !== target.origin) throw this.fail('unavailable', `redirected to another host (${next.host}) from ${pathOnly(path)}`);
        if (hop >= MAX_REDIRECTS) throw this.fail('unavailable', `more than ${MAX_REDIRECTS} redirects from ${pathOnly(path)}`);
        target = next;
        request = { method: 'GET', body: undefined, headers: o.headers };
        continue;
      }
      const text = upstream.page(raw);
      recorder?.({ source: this.#source, method: request.method, path: target.pathname, status: raw.status, text });
      const challenge = this.#challenged(text, raw.status, path);
      if (challenge) throw challenge;
      return { status: raw.status, url: target.toString(), headers: raw.headers, text, body: raw.body };
    }
  }

  /**
   * A challenge page is a failure at once, never passed. A WAF may send one as a 503 or a 429, which
   * the host's retries would otherwise take for a transient failure: those are checked before retrying.
   */
  #challengedBeforeRetry(upstream: HttpUpstream, raw: UpstreamResponse, path: string): RetryableSourceError | undefined {
    return isTransientStatus(raw.status) ? this.#challenged(upstream.page(raw), raw.status, path) : undefined;
  }

  #challenged(text: string, status: number, path: string): RetryableSourceError | undefined {
    const challenge = detectChallenge(text, status);
    if (!challenge) return undefined;
    const message = `${this.#label} answered ${pathOnly(path)} with a ${challenge.kind} page (${challenge.reason}); Tramita never passes one.`;
    bodyRefused(this.#source, challenge.kind, message);
    return upstreamError(this.#source)(challenge.kind, message, { status, retryable: false });
  }

  #cookieHeader(): Record<string, string> {
    return this.#cookies.size === 0 ? {} : { cookie: [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; ') };
  }

  #keepCookies(raw: UpstreamResponse): void {
    const set = raw.headers['set-cookie'];
    for (const line of Array.isArray(set) ? set : set ? [set] : []) {
      const pair = line.split(';', 1)[0]!;
      const eq = pair.indexOf('=');
      if (eq > 0) this.#cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  }
}
