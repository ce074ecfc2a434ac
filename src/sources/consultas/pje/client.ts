/**
 * PJe classic *consulta pública* for one case number (reference/upstream/real/README.md §1): GET the
 * listView form (session cookie, the form's dynamic ids, javax.faces.ViewState), POST the search as the
 * page's own A4J script does (form.ts), read the hits, GET the detail page the hit links to, parse it.
 * Every answer goes through detectChallenge first: a captcha, an anti-bot page or a login wall is a
 * SourceError with that failure, never data and never "not found". Null only on PJe's explicit no-hit
 * answer. HTTP (budgets, timeouts, User-Agent, retries) is the caller's: it injects `http`.
 */
import { formatCnj } from '../../../platform/identifiers/index.ts';
import { RetryableSourceError, TRANSIENT_FAILURES, type SourceFailure } from '../../../platform/ports/sources.ts';
import { detectChallenge } from '../challenge.ts';
import type { ConsultaCase } from '../record.ts';
import type { CourtSearchQuery } from '../../../platform/ports/sources.ts';
import type { ConsultaHits } from '../client.ts';
import { parsePjeSearchForm, pjeSearchBody, pjeSearchFields } from './form.ts';
import { parsePjeDetail, parsePjeSearch, PjePageError, pjeResultCount } from './parse.ts';

export type PjeHttp = (
  req: { method: 'GET' | 'POST'; url: string; headers?: Record<string, string>; body?: string },
  signal?: AbortSignal,
) => Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>;

export interface PjeClassicClientOptions {
  /** Scheme, host and context path, e.g. `https://pje.tjma.jus.br/pje` or `https://pje-consulta.tjce.jus.br/pje1grau`. */
  baseUrl: string;
  http: PjeHttp;
  /** Names the source in failures, e.g. `TJMA PJe`. */
  source: string;
}

type Answer = Awaited<ReturnType<PjeHttp>>;

/** Redirects followed per step (a session cookie set on a 302, a trailing-slash redirect). */
const MAX_REDIRECTS = 3;

export class PjeClassicClient {
  readonly #base: string;
  readonly #http: PjeHttp;
  readonly #source: string;

  constructor(o: PjeClassicClientOptions) {
    this.#base = o.baseUrl.replace(/\/+$/, '');
    this.#http = o.http;
    this.#source = o.source;
  }

  #fail(failure: SourceFailure, message: string, opts: { status?: number; retryAfterMs?: number } = {}): RetryableSourceError {
    return new RetryableSourceError(this.#source, TRANSIENT_FAILURES, failure, `${this.#source}: ${message}`, opts);
  }

  /** The case as the court's public page shows it, or null on PJe's explicit "no hit" for that number. */
  async fetchCase(numeroCnj: string, signal?: AbortSignal): Promise<ConsultaCase | null> {
    const cookies = new Map<string, string>();
    const listUrl = `${this.#base}/ConsultaPublica/listView.seam`;
    const page = await this.#send(cookies, { method: 'GET', url: listUrl }, 'search form', signal);
    const form = this.#read(() => parsePjeSearchForm(page.body), 'search form');

    const answer = await this.#send(cookies, {
      method: 'POST',
      url: new URL(form.action, listUrl).href,
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8', referer: listUrl },
      body: pjeSearchBody(form, formatCnj(numeroCnj)),
    }, 'search', signal);
    const search = this.#read(() => parsePjeSearch(answer.body), 'search answer');
    if (!search.found) return null;
    const hit = search.hits.find((h) => h.numeroCnj === numeroCnj);
    if (!hit) throw this.#fail('malformed', 'the search answer lists other cases than the one asked');

    const detail = await this.#send(cookies, { method: 'GET', url: new URL(hit.detailPath, listUrl).href, headers: { referer: listUrl } }, 'detail page', signal);
    const found = this.#read(() => parsePjeDetail(detail.body, { grau: numeroCnj.slice(16) === '0000' ? 2 : 1 }), 'detail page');
    if (found.numeroCnj !== numeroCnj) throw this.#fail('malformed', 'the detail page shows another case than the one asked');
    return found;
  }

  /**
   * The numbers the court's search lists for a document or an OAB (issue 32), at most `max`, and the
   * count its footer prints. Null when this deployment's form has no field for that search.
   */
  async search(query: CourtSearchQuery, max: number, signal?: AbortSignal): Promise<ConsultaHits | null> {
    const cookies = new Map<string, string>();
    const listUrl = `${this.#base}/ConsultaPublica/listView.seam`;
    const page = await this.#send(cookies, { method: 'GET', url: listUrl }, 'search form', signal);
    const form = this.#read(() => parsePjeSearchForm(page.body), 'search form');
    const fields = pjeSearchFields(form, query);
    if (!fields) return null;
    const answer = await this.#send(cookies, {
      method: 'POST',
      url: new URL(form.action, listUrl).href,
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8', referer: listUrl },
      body: pjeSearchBody(form, fields),
    }, 'search', signal);
    const search = this.#read(() => parsePjeSearch(answer.body), 'search answer');
    if (!search.found) return { numeros: [], total: 0 };
    const numeros = [...new Set(search.hits.map((h) => h.numeroCnj))];
    return { numeros: numeros.slice(0, max), total: pjeResultCount(answer.body) ?? numeros.length };
  }

  #read<T>(parse: () => T, what: string): T {
    try {
      return parse();
    } catch (e) {
      if (e instanceof PjePageError) throw this.#fail('malformed', `unexpected ${what}: ${e.message}`);
      throw e;
    }
  }

  /** One step: the request with the session's cookies, redirects followed, the answer checked for challenges and HTTP failures. */
  async #send(cookies: Map<string, string>, request: Parameters<PjeHttp>[0], what: string, signal?: AbortSignal): Promise<Answer> {
    let req = request;
    for (let hop = 0; ; hop++) {
      const headers: Record<string, string> = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8', ...req.headers };
      if (cookies.size > 0) headers.cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
      const answer = await this.#http({ ...req, headers }, signal);
      keepCookies(cookies, answer.headers['set-cookie']);
      const location = first(answer.headers.location);
      if (answer.status >= 300 && answer.status < 400 && location) {
        if (/login|\/sso\.|openid-connect|\/auth\//i.test(location)) throw this.#fail('login', `the ${what} redirects to a login`, { status: answer.status });
        if (hop >= MAX_REDIRECTS) throw this.#fail('unavailable', `the ${what} redirects in a loop`, { status: answer.status });
        req = { method: 'GET', url: new URL(location, req.url).href, headers: req.headers };
        continue;
      }
      const challenge = detectChallenge(answer.body, answer.status);
      if (challenge) throw this.#fail(challenge.kind, `the ${what} answered a challenge (${challenge.reason}); never passed`, { status: answer.status });
      this.#checkStatus(answer, what);
      return answer;
    }
  }

  #checkStatus(answer: Answer, what: string): void {
    const { status } = answer;
    if (status === 200) return;
    if (status === 429) {
      const seconds = Number(first(answer.headers['retry-after']));
      throw this.#fail('rate_limited', `the ${what} answered 429`, { status, retryAfterMs: Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined });
    }
    // A WAF refusing this client outright (TJRO, TJAP: 403 to datacenter addresses) is an anti-bot block.
    if (status === 403) throw this.#fail('anti_bot', `the ${what} answered 403 (access refused)`, { status });
    throw this.#fail('unavailable', `the ${what} answered HTTP ${status}`, { status });
  }
}

function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

/** Session cookies by name (`JSESSIONID`, load-balancer stickiness); attributes dropped. */
function keepCookies(jar: Map<string, string>, setCookie: string | string[] | undefined): void {
  for (const line of Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []) {
    const m = /^\s*([^=;\s]+)=([^;]*)/.exec(line);
    if (m) jar.set(m[1], m[2]);
  }
}
