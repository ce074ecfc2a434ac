/**
 * The STF gazette (platform/ports/stf.ts) through its public JSON API (reference/upstream/wave2.md
 * §B.1): `GET …/ultimo-dje` opens a session (cookies `XSRF-TOKEN`, `JSESSIONID`), `POST …/publicacoes`
 * sends the token back in `X-XSRF-TOKEN`. A day is read by divulgação in pages of 500 until a short
 * page (`total` is valid on page 1 only). Discipline of the other connectors: one request budget per
 * process (STF asks for about one request a second), a timeout per attempt, retries on 5xx, network
 * failures and 429 (its Retry-After honoured), a 403 answered by one new handshake, a WAF challenge
 * (202 + `x-amzn-waf-action`) reported as unavailable, never as data.
 *
 * TLS: `*.stf.jus.br` is served without its intermediate certificate (wave2.md §B.1); verification is
 * never disabled: the operator gives the missing chain in TRAMITA_STF_CA_FILE (PEM), added to Node's roots.
 */
import type { SourceInfo } from '../../platform/ports/sources.ts';
import type { StfGazetteSource, StfParty, StfPublicationRecord } from '../../platform/ports/stf.ts';
import { isoDayOfBr } from '../../platform/format.ts';
import { header } from '../attempt.ts';
import { detailOf, HttpUpstream, upstreamError, type UpstreamResponse, type UpstreamTuning } from '../http-upstream.ts';
import { describeBody } from '../upstream-body.ts';

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

/** "OAB 12345/SP", "OAB 12.345-A/SP" → {uf, numero}. */
export function parseOab(text: string): { uf: string; numero: string } | null {
  const m = /OAB\s*:?\s*([\dA-Za-z.\-]+)\s*\/\s*([A-Za-z]{2})/i.exec(text);
  if (!m) return null;
  const numero = m[1].replace(/[.\-]/g, '').toUpperCase().replace(/^0+(?=\d)/, '');
  return numero ? { uf: m[2].toUpperCase(), numero } : null;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null);

function toRecord(item: unknown, day: string): StfPublicationRecord {
  const r = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
  const id = str(r.id);
  // An item names parties: never quoted, only sized.
  if (!id || typeof r.texto !== 'string') throw fail('malformed', `STF answered an item without id or texto (${describeBody(Buffer.from(JSON.stringify(item) ?? ''))}).`);
  const envolvidos: StfParty[] = (Array.isArray(r.envolvidos) ? r.envolvidos : []).filter((e): e is Record<string, unknown> => typeof e === 'object' && e !== null).map((e) => ({
    nome: String(e.nome ?? ''), polo: str(e.polo), categoria: String(e.categoria ?? ''),
    oabs: (Array.isArray(e.identificacoes) ? e.identificacoes : []).map((i) => parseOab(String(i))).filter((o): o is { uf: string; numero: string } => o !== null),
  }));
  return {
    id, processo: String(r.processo ?? ''), processoId: str(r.processoId), tipo: String(r.tipo ?? ''), relator: str(r.relator),
    divulgacao: isoDayOfBr(r.divulgacao) ?? day, publicacao: isoDayOfBr(r.publicacao), html: r.texto,
    colegiado: str(r.colegiado), sessao: str(r.sessao), descricao: str(r.descricao), envolvidos, raw: item,
  };
}

export class StfConnector implements StfGazetteSource {
  readonly info: SourceInfo;
  readonly #http: HttpUpstream;
  readonly #pageSize: number;
  #session: Promise<Session> | null = null;

  constructor(options: StfConnectorOptions) {
    this.info = { name: 'STF', sandbox: options.sandbox ?? false };
    this.#pageSize = Math.min(PAGE, options.pageSize ?? PAGE);
    this.#http = new HttpUpstream({ ...options, baseUrl: `${options.baseUrl.replace(/\/+$/, '')}${API}`, source: 'stf', label: 'STF', error: fail });
  }

  async lastDay(signal?: AbortSignal): Promise<string> {
    const { day } = await this.#handshake(signal);
    return day;
  }

  async day(day: string, signal?: AbortSignal): Promise<StfPublicationRecord[]> {
    const start = Date.parse(`${day}T00:00:00.000Z`) + BRASILIA_OFFSET_MS;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(start)) throw new RangeError(`StfConnector.day: "${day}" is not yyyy-mm-dd`);
    const out: StfPublicationRecord[] = [];
    for (let pagina = 1; pagina <= MAX_PAGES; pagina++) {
      const body = { termo: '', processo: '', pagina, quantidade: this.#pageSize, data: start, dataFim: start + 86_400_000 - 1, tipoPesquisa: ['DIVULGACAO'], filtros: { Tipo: [], Relator: [], Sessão: [], Colegiado: [] } };
      const page = this.#items(await this.#search(body, signal));
      out.push(...page.map((item) => toRecord(item, day)));
      if (page.length < this.#pageSize) return out;
    }
    throw fail('malformed', `STF kept answering full pages for ${day} past ${MAX_PAGES} pages.`);
  }

  async close(): Promise<void> {
    await this.#http.close();
  }

  #items(raw: UpstreamResponse): unknown[] {
    const list = (this.#http.json(raw, '/publicacoes') as { publicacoes?: unknown } | null)?.publicacoes;
    if (!Array.isArray(list)) throw fail('malformed', `STF answered without publicacoes ${detailOf(raw)}.`);
    return list;
  }

  /** One search page; a 403 (the session died with the server's) gets one new handshake. */
  async #search(body: unknown, signal?: AbortSignal): Promise<UpstreamResponse> {
    for (let handshakes = 0; ; handshakes++) {
      const session = await this.#sessionOf(signal);
      const raw = await this.#http.send('POST', '/publicacoes', { signal, body: JSON.stringify(body), headers: { 'content-type': 'application/json', cookie: session.cookie, 'x-xsrf-token': session.token } });
      if (raw.status !== 403 || handshakes >= 1) return this.#ok(raw, '/publicacoes');
      this.#session = null;
    }
  }

  #sessionOf(signal?: AbortSignal): Promise<Session> {
    this.#session ??= this.#handshake(signal).then(({ session }) => session, (err) => {
      this.#session = null;
      throw err;
    });
    return this.#session;
  }

  async #handshake(signal?: AbortSignal): Promise<{ day: string; session: Session }> {
    const raw = this.#ok(await this.#http.send('GET', '/ultimo-dje', { signal }), '/ultimo-dje');
    const cookies = [raw.headers['set-cookie'] ?? []].flat().map((c) => String(c).split(';')[0].trim());
    const token = cookies.find((c) => c.startsWith('XSRF-TOKEN='))?.slice('XSRF-TOKEN='.length);
    if (!token) throw fail('malformed', 'STF opened no session: ultimo-dje set no XSRF-TOKEN cookie.');
    const day = this.#http.json(raw, '/ultimo-dje');
    if (typeof day !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(day)) throw fail('malformed', `STF's ultimo-dje is not a day ${detailOf(raw)}.`);
    const session = { cookie: cookies.join('; '), token };
    this.#session = Promise.resolve(session);
    return { day, session };
  }

  /** A 200, or the failure its status means. */
  #ok(raw: UpstreamResponse, path: string): UpstreamResponse {
    if (raw.status === 200) return raw;
    const what = `STF answered HTTP ${raw.status} for ${path}`;
    if (raw.status === 202 && header(raw, 'x-amzn-waf-action')) throw fail('unavailable', `${what}: a WAF challenge, not data; try again later.`, { status: 202, retryable: false });
    if (raw.status === 403) throw fail('unauthorized', `${what} ${detailOf(raw)}.`, { status: 403, retryable: false });
    if (raw.status === 422) throw fail('malformed', `${what} (refused the query) ${detailOf(raw)}.`, { status: 422, retryable: false });
    throw fail('unavailable', `${what} ${detailOf(raw)}.`, { status: raw.status, retryable: false });
  }
}
