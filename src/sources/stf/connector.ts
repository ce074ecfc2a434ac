/**
 * The STF gazette (platform/ports/stf.ts) through its public JSON API (reference/upstream/wave2.md §B.1;
 * its real answers: reference/upstream/real/README.md §6, fixtures/stf-1..4.json): `GET …/ultimo-dje`
 * opens a session (cookies `XSRF-TOKEN`, `JSESSIONID`), `POST …/publicacoes` sends the token back in
 * `X-XSRF-TOKEN`. A day is read by divulgação in pages of 500 until an empty page, or a short one once
 * page 1's `total` is reached (`total` is right on page 1 only: later pages and past the end answer
 * 0, past the end with `publicacoes: []`); item.ts reads each item. `/ultimo-dje` is the last
 * *publication* day: it opens the session and says when an edition came out, never which days exist.
 * A 422's messages (`{"errors":[{userMessage, targetName, …}]}`) go into the failure. Discipline of the
 * other connectors: one request budget per process (STF asks for about one request a second), a
 * timeout per attempt, retries on 5xx, network failures and 429 (its Retry-After honoured), a 403
 * answered by one new handshake, a WAF challenge (202 + `x-amzn-waf-action`) reported as unavailable,
 * never as data.
 *
 * TLS: `*.stf.jus.br` is served without its intermediate certificate (wave2.md §B.1); verification is
 * never disabled: the operator gives the missing chain in TRAMITA_STF_CA_FILE (PEM), added to Node's roots.
 */
import type { SourceInfo } from '../../platform/ports/case-metadata.ts';
import type { StfGazetteSource, StfPublicationRecord } from '../../platform/ports/stf.ts';
import { header } from '../http/attempt.ts';
import type { RetryableSourceError } from '../../platform/ports/source-error.ts';
import { detailOf, HttpUpstream, upstreamError, type UpstreamResponse, type UpstreamTuning } from '../http/upstream.ts';
import { readStfItem, StfItemError } from './item.ts';

export const PUBLIC_STF_URL = 'https://digital.stf.jus.br';
const API = '/decisoes-publicacoes/api/public';
const PAGE = 500;
const BRASILIA_OFFSET_MS = 3 * 3_600_000;
/** More pages than any real day has (~742 items at most): a server that never ends a day is broken. */
const MAX_PAGES = 40;

export interface StfConnectorOptions extends UpstreamTuning {
  /** The host, e.g. https://digital.stf.jus.br or the sandbox's `stfUrl`. */
  baseUrl: string;
  sandbox?: boolean;
  /** Items per page (default and maximum 500, what STF allows). */
  pageSize?: number;
}

const fail = upstreamError('stf');

interface Session {
  cookie: string;
  token: string;
}

/**
 * The messages of a 422 body, `{"errors":[{internalCode, userMessage, moreDetails, targetName}],"httpCode":422}`
 * (capture stf-3.json): `quantidade: deve ser menor ou igual a 500 (Erro de validação genérico.; 999.001)`,
 * joined by ` | `; null when the body is not that shape.
 */
export function refusalMessages(body: Buffer): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return null;
  }
  const errors = (parsed as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors) || errors.length === 0) return null;
  return errors
    .map((e: Record<string, unknown> | null) => {
      const s = (k: string) => (typeof e?.[k] === 'string' && e[k] !== '' ? (e[k] as string) : null);
      const extra = [s('moreDetails'), s('internalCode')].filter(Boolean).join('; ');
      return `${s('targetName') ? `${s('targetName')}: ` : ''}${s('userMessage') ?? 'refused'}${extra ? ` (${extra})` : ''}`;
    })
    .join(' | ');
}

function toRecord(item: unknown): StfPublicationRecord {
  try {
    return readStfItem(item);
  } catch (err) {
    if (err instanceof StfItemError) throw fail('malformed', `STF answered an item Tramita cannot read: ${err.message}.`, { retryable: false });
    throw err;
  }
}

export class StfConnector implements StfGazetteSource {
  readonly info: SourceInfo;
  readonly #http: HttpUpstream;
  readonly #pageSize: number;
  #session: Promise<Session> | null = null;

  constructor(options: StfConnectorOptions) {
    this.info = { name: 'STF', sandbox: options.sandbox ?? false };
    this.#pageSize = Math.min(PAGE, options.pageSize ?? PAGE);
    this.#http = new HttpUpstream({
      ...options,
      baseUrl: `${options.baseUrl.replace(/\/+$/, '')}${API}`,
      source: 'stf',
      label: 'STF',
      error: fail,
      classify: { own },
    });
  }

  async lastDay(signal?: AbortSignal): Promise<string> {
    const { day } = await this.#handshake(signal);
    return day;
  }

  async day(day: string, signal?: AbortSignal): Promise<StfPublicationRecord[]> {
    const start = Date.parse(`${day}T00:00:00.000Z`) + BRASILIA_OFFSET_MS;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(start)) throw new RangeError(`StfConnector.day: "${day}" is not yyyy-mm-dd`);
    const out: StfPublicationRecord[] = [];
    let announced = 0;
    for (let pagina = 1; pagina <= MAX_PAGES; pagina++) {
      const body = {
        termo: '',
        processo: '',
        pagina,
        quantidade: this.#pageSize,
        data: start,
        dataFim: start + 86_400_000 - 1,
        tipoPesquisa: ['DIVULGACAO'],
        filtros: { Tipo: [], Relator: [], Sessão: [], Colegiado: [] },
      };
      const page = this.#page(await this.#search(body, signal));
      // `total` is right on page 1 only (later pages and past the end say 0): kept from page 1.
      if (pagina === 1) announced = page.total;
      if (page.items.length === 0) return out;
      out.push(...page.items.map(toRecord));
      // A short page ends the day, unless page 1 announced more (a server that lowered its page size).
      if (page.items.length < this.#pageSize && out.length >= announced) return out;
    }
    throw fail('malformed', `STF kept answering full pages for ${day} past ${MAX_PAGES} pages.`);
  }

  readItem(item: unknown): StfPublicationRecord {
    return readStfItem(item);
  }

  async close(): Promise<void> {
    await this.#http.close();
  }

  #page(raw: UpstreamResponse): { items: unknown[]; total: number } {
    const body = this.#http.json(raw, '/publicacoes') as { publicacoes?: unknown; total?: unknown } | null;
    if (!Array.isArray(body?.publicacoes)) throw fail('malformed', `STF answered without publicacoes ${detailOf(raw)}.`);
    return { items: body.publicacoes, total: typeof body.total === 'number' ? body.total : 0 };
  }

  /** One search page; a 403 (the session died with the server's) gets one new handshake. */
  async #search(body: unknown, signal?: AbortSignal): Promise<UpstreamResponse> {
    for (let handshakes = 0; ; handshakes++) {
      const session = await this.#sessionOf(signal);
      const raw = await this.#http.send('POST', '/publicacoes', {
        signal,
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/json', cookie: session.cookie, 'x-xsrf-token': session.token },
      });
      if (raw.status !== 403 || handshakes >= 1) return this.#http.ok(raw, '/publicacoes');
      this.#session = null;
    }
  }

  #sessionOf(signal?: AbortSignal): Promise<Session> {
    this.#session ??= this.#handshake(signal).then(
      ({ session }) => session,
      (err) => {
        this.#session = null;
        throw err;
      },
    );
    return this.#session;
  }

  async #handshake(signal?: AbortSignal): Promise<{ day: string; session: Session }> {
    const raw = this.#http.ok(await this.#http.send('GET', '/ultimo-dje', { signal }), '/ultimo-dje');
    const cookies = [raw.headers['set-cookie'] ?? []].flat().map((c) => String(c).split(';')[0].trim());
    const token = cookies.find((c) => c.startsWith('XSRF-TOKEN='))?.slice('XSRF-TOKEN='.length);
    if (!token) throw fail('malformed', 'STF opened no session: ultimo-dje set no XSRF-TOKEN cookie.');
    const day = this.#http.json(raw, '/ultimo-dje');
    if (typeof day !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(day)) throw fail('malformed', `STF's ultimo-dje is not a day ${detailOf(raw)}.`);
    const session = { cookie: cookies.join('; '), token };
    this.#session = Promise.resolve(session);
    return { day, session };
  }
}

/** STF's own cases of the status ladder (classify.ts): a WAF's challenge, and a 422's validation messages. */
function own(raw: UpstreamResponse, where: string): RetryableSourceError | undefined {
  if (raw.status === 202 && header(raw, 'x-amzn-waf-action'))
    return fail('unavailable', `${where}: a WAF challenge, not data; try again later.`, { status: 202, retryable: false });
  // The 422's messages are the API's own validation texts (capture stf-3.json), never data: quoted.
  if (raw.status === 422)
    return fail('malformed', `${where} (refused the query): ${refusalMessages(raw.body) ?? detailOf(raw)}`, { status: 422, retryable: false });
  return undefined;
}
