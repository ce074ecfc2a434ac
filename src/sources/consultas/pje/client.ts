/**
 * PJe classic *consulta pública* for one case number (reference/upstream/real/README.md §1): GET the
 * listView form (session cookie, the form's dynamic ids, javax.faces.ViewState), POST the search as the
 * page's own A4J script does (form.ts), read the hits, GET the detail page the hit links to, parse it.
 * HTTP is the consultations' per-host pool (consultas/http.ts): budgets, timeouts, User-Agent,
 * retries, cookies, redirects within the host, and the challenge detector on every answer (a captcha,
 * an anti-bot page or a login wall is a SourceError with that failure, never data, never "not
 * found"). Null only on PJe's explicit no-hit answer.
 */
import { formatCnj } from '../../../platform/identifiers/index.ts';
import type { SourceFailure } from '../../../platform/ports/source-error.ts';
import type { CourtSearchQuery } from '../../../platform/ports/case-details.ts';
import type { ConsultaHits, ListedPage } from '../client.ts';
import type { ConsultaHttp, ConsultaPage, ConsultaSession } from '../http.ts';
import type { ConsultaCase } from '../record.ts';
import { parsePjeSearchForm, pjeSearchBody, pjeSearchFields } from './form.ts';
import { Anomalies, withAnomaly } from '../anomalies.ts';
import { MESSAGE_FAILURES, messageReason } from '../messages.ts';
import { parsePjeDetail, parsePjeSearch, PjeMessageError, PjePageError } from './parse.ts';
import type { CourtDocument } from '../../../platform/ports/case-details.ts';
import { documentOfRow, openDocument, readDocumentsGrid } from './document-reader.ts';

export interface PjeClassicClientOptions {
  /** Scheme, host and context path, e.g. `https://pje.tjma.jus.br/pje` or `https://pje-consulta.tjce.jus.br/pje1grau`. */
  baseUrl: string;
  http: ConsultaHttp;
  /** Names the source in failures and state, e.g. `consulta-tjma`. */
  source: string;
  /** How messages name the court's consultation, e.g. `PJe consulta pública TJMA`. */
  label: string;
  /** The degree this deployment serves (TJMA's `pje2g`: 2, whatever the number's origin); by default the number's (`0000`: 2). */
  grau?: 1 | 2;
}

/** The case's page as the flow reached it: the session that rendered it (its documents' tokens are tied to it). */
interface Opened {
  session: ConsultaSession;
  detail: ConsultaPage;
  found: ConsultaCase;
}

const FORM_POST = { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' };

export class PjeClassicClient {
  readonly #o: PjeClassicClientOptions;
  readonly #base: string;

  constructor(o: PjeClassicClientOptions) {
    this.#o = o;
    this.#base = o.baseUrl.replace(/\/+$/, '');
  }

  /**
   * The case as the court's public page shows it, or null on PJe's explicit "no hit" for that number.
   * Its documents grid comes with it (issue 53): the first page always, every page with `documents`.
   */
  async fetchCase(numeroCnj: string, signal?: AbortSignal, listed?: ListedPage, opts: { documents?: boolean } = {}): Promise<ConsultaCase | null> {
    const opened = (listed ? await this.#readListed(numeroCnj, listed, signal) : null) ?? (await this.#open(numeroCnj, signal));
    if (!opened) return null;
    const anomalies = new Anomalies();
    const grid = await readDocumentsGrid(opened.session.at('documentos'), opened.detail, { allPages: opts.documents === true, signal, anomalies });
    if (!grid) return opened.found;
    const found = opened.found;
    return {
      ...found,
      documentos: grid.rows.map(documentOfRow),
      ...(found.listas ? { listas: { ...found.listas, documentos: grid.lista } } : {}),
      anomalias: [...(found.anomalias ?? []), ...anomalies.campos],
    };
  }

  /**
   * One public document of the case (issue 53): the case page read on a fresh session, the row found in
   * its grid (page after page), then the document on that session; a token the court refuses (expired,
   * tied to another session) has the page read again, once. Null when the page does not list the id.
   */
  async readDocument(numeroCnj: string, documentId: string, signal?: AbortSignal): Promise<CourtDocument | null> {
    for (let attempt = 1; ; attempt++) {
      const opened = await this.#open(numeroCnj, signal);
      if (!opened) return null;
      const grid = await readDocumentsGrid(opened.session.at('documentos'), opened.detail, { allPages: true, signal, anomalies: new Anomalies() });
      const row = grid?.rows.find((r) => r.id === documentId);
      if (!row) return null;
      const doc = await openDocument(opened.session.at('documento'), row, { base: this.#base, detailUrl: opened.detail.url, signal });
      if (doc !== 'refused') return doc;
      if (attempt >= 2) throw opened.session.fail('unavailable', 'the court answered something else than the document, twice, with the page just read');
    }
  }

  /** The flow to the case's page: listView, the search, the detail page; null on PJe's explicit "no hit". */
  async #open(numeroCnj: string, signal?: AbortSignal): Promise<Opened | null> {
    const session = this.#o.http.session(this.#o.source, this.#o.label).at('formulario');
    const anomalies = new Anomalies();
    const listUrl = `${this.#base}/ConsultaPublica/listView.seam`;
    const page = this.#ok(session, await session.get(listUrl, { signal }), 'search form');
    const form = this.#read(session, () => parsePjeSearchForm(page.text), 'search form');

    session.at('busca');
    const answer = this.#ok(
      session,
      await session.post(new URL(form.action, listUrl).href, new URLSearchParams(pjeSearchBody(form, formatCnj(numeroCnj))), {
        signal,
        headers: { ...FORM_POST, referer: listUrl },
      }),
      'search',
    );
    const search = this.#read(session, () => parsePjeSearch(answer.text, anomalies), 'search answer');
    if (!search.found) return null;
    const hit = search.hits.find((h) => h.numeroCnj === numeroCnj);
    if (!hit) throw session.fail('malformed', 'the search answer lists other cases than the one asked');

    session.at('detalhe');
    const detail = this.#ok(session, await session.get(new URL(hit.detailPath, listUrl).href, { signal, headers: { referer: listUrl } }), 'detail page');
    const found = this.#read(session, () => parsePjeDetail(detail.text, { grau: this.#grauOf(numeroCnj) }, anomalies), 'detail page');
    if (found.numeroCnj !== numeroCnj) throw session.fail('malformed', 'the detail page shows another case than the one asked');
    return { session, detail, found };
  }

  /**
   * The detail page a search's row linked, one request on the search's session; null when it did not
   * open as that case (an expired `ca` or session): the caller then runs the whole flow.
   */
  async #readListed(numeroCnj: string, listed: ListedPage, signal?: AbortSignal): Promise<Opened | null> {
    const session = listed.session.at('detalhe');
    const headers = listed.referer ? { referer: listed.referer } : undefined;
    const detail = this.#ok(session, await session.get(listed.url, { signal, headers }), 'detail page');
    try {
      const found = parsePjeDetail(detail.text, { grau: this.#grauOf(numeroCnj) }, new Anomalies());
      return found.numeroCnj === numeroCnj ? { session, detail, found } : null;
    } catch (e) {
      if (e instanceof PjePageError) return null;
      throw e;
    }
  }

  /**
   * The numbers the court's search lists for a document or an OAB (issue 32), at most `max`, and the
   * count its footer prints. Null when this deployment's form has no field for that search.
   */
  async search(query: CourtSearchQuery, max: number, signal?: AbortSignal): Promise<ConsultaHits | null> {
    const session = this.#o.http.session(this.#o.source, this.#o.label).at('formulario');
    const listUrl = `${this.#base}/ConsultaPublica/listView.seam`;
    const page = this.#ok(session, await session.get(listUrl, { signal }), 'search form');
    const form = this.#read(session, () => parsePjeSearchForm(page.text), 'search form');
    session.at('busca');
    const fields = pjeSearchFields(form, query);
    if (!fields) return null;
    const answer = this.#ok(
      session,
      await session.post(new URL(form.action, listUrl).href, new URLSearchParams(pjeSearchBody(form, fields)), {
        signal,
        headers: { ...FORM_POST, referer: listUrl },
      }),
      'search',
    );
    const anomalies = new Anomalies();
    const search = this.#read(session, () => parsePjeSearch(answer.text, anomalies), 'search answer');
    if (!search.found) return { numeros: [], total: 0 };
    const links = new Map<string, string>();
    for (const h of search.hits) if (!links.has(h.numeroCnj)) links.set(h.numeroCnj, h.detailPath);
    const numeros = [...links.keys()].slice(0, max);
    const paginas = new Map(numeros.map((n) => [n, { url: new URL(links.get(n)!, listUrl).href, session, referer: listUrl }]));
    // A capped answer ("somente os 30 primeiros serão exibidos") counts the rows the court listed, and says it is capped.
    return { numeros, total: search.total ?? links.size, limitado: search.limitado, anomalias: anomalies.campos, paginas };
  }

  #grauOf(numeroCnj: string): 1 | 2 {
    return this.#o.grau ?? (numeroCnj.slice(16) === '0000' ? 2 : 1);
  }

  #read<T>(session: ConsultaSession, parse: () => T, what: string): T {
    try {
      return parse();
    } catch (e) {
      if (e instanceof PjeMessageError) {
        const err = session.fail(MESSAGE_FAILURES[e.kind].failure, messageReason(e.kind, e.text));
        throw e.kind === 'unknown' ? withAnomaly(err, 'mensagem.desconhecida') : err;
      }
      if (e instanceof PjePageError) throw session.fail('malformed', `unexpected ${what}: ${e.message}`);
      throw e;
    }
  }

  /**
   * A page the session returned (challenges, retries, 429 and 5xx are its own) that is not a 200: a
   * WAF refusing this client outright (TJRO, TJAP: 403 to datacenter addresses) is an anti-bot block.
   */
  #ok(session: ConsultaSession, page: ConsultaPage, what: string): ConsultaPage {
    if (page.status === 200) return page;
    const failure: SourceFailure = page.status === 403 ? 'anti_bot' : 'unavailable';
    throw session.fail(failure, `the ${what} answered HTTP ${page.status}${page.status === 403 ? ' (access refused)' : ''}`);
  }
}
