/**
 * What each system's consultation client is (e-SAJ, PJe classic, TJDFT REST): given a CNJ number of
 * its court, the case as the court's public page shows it, or null only on the page's explicit
 * "not found". Every other outcome throws a SourceError (`captcha`, `anti_bot`, `login`, `unavailable`,
 * `timeout`, `rate_limited`, `malformed`), never an empty answer. Clients are built per court by a
 * factory registered per system in systems.ts.
 */
import type { CourtDocument, CourtSearchQuery } from '../../platform/ports/case-details.ts';
import type { ConsultaCourt } from './courts.ts';
import type { ConsultaHttp, ConsultaSession } from './http.ts';
import type { ConsultaCase } from './record.ts';
import type { AnomalyField } from './anomalies.ts';

export interface ConsultaClient {
  /**
   * `listed`: the case's page as a search just listed it (issue 43 item 7), read with one request on the
   * search's session; a link that no longer opens the case (the session expired) falls back to the whole flow.
   */
  fetchCase(numeroCnj: string, signal?: AbortSignal, listed?: ListedPage, opts?: { documents?: boolean }): Promise<ConsultaCase | null>;
  /**
   * One public document of the case's page (issue 53), read on a session that has just read the page;
   * null when the page does not list it. Absent on systems whose pages list no public document.
   */
  readDocument?(numeroCnj: string, documentId: string, signal?: AbortSignal): Promise<CourtDocument | null>;
  /**
   * The cases the court's search lists for a document, a name or an OAB (only the kinds its system
   * declares in systems.ts `CONSULTA_SEARCHES`): at most `max` numbers from its first answer, and the
   * count the court printed (null when it printed none). Nothing found is an empty list, only on the
   * page's explicit "no hit"; every other outcome throws a SourceError, like fetchCase.
   */
  search?(query: CourtSearchQuery, max: number, signal?: AbortSignal): Promise<ConsultaHits>;
  /**
   * The second degree's pages under a first-degree number (issue 52 item 3: an appeal keeps its origin
   * number): every case the 2nd degree's number search lists under exactly that number (there may be
   * several: TJCE lists two appeals of one case), each read in full; empty on the page's explicit "not
   * found". Same budget, same failures as fetchCase. Absent on systems whose 2nd degree is not read.
   */
  fetchAppeals?(numeroCnj: string, signal?: AbortSignal): Promise<ConsultaCase[]>;
}

export interface ConsultaHits {
  numeros: string[];
  /** The count the court printed; null when it printed none, or only its cap. */
  total: number | null;
  /** The court said it shows only the first N hits (PJe: "somente os 30 primeiros serão exibidos"). */
  limitado?: boolean;
  /** Rows of the answer read only in part (anomalies.ts). */
  anomalias?: AnomalyField[];
  /** Per number listed: its page as the row links it, on the session the search opened. */
  paginas?: Map<string, ListedPage>;
}

/** A hit's page as a search's row links it (e-SAJ's `show.do?processo.codigo=…`, PJe's detail `listView.seam?ca=…`). */
export interface ListedPage {
  /** Absolute URL of the case's page. */
  url: string;
  /** The session the search opened (its cookies): the link is valid in it. */
  session: ConsultaSession;
  /** The search form's URL, sent as the referer where the court's own page sends one (PJe). */
  referer?: string;
  /** The page itself when the search's answer was it (e-SAJ's single hit): read with no request at all. */
  text?: string;
}

/** What a factory gets to build one court's client. */
export interface ConsultaClientContext {
  court: ConsultaCourt;
  /** Base URL per degree (scheme, host, context path, no trailing slash); null when that degree has no known consultation. */
  urls: { 1: string; 2: string | null };
  /** The per-host pool: `http.session(source, label)` gives a cookie-keeping session whose pages the challenge detector cleared. */
  http: ConsultaHttp;
  /** `consulta-<sigla>`: the source name of this court's failures and state. */
  source: string;
  /** How messages name the court's consultation (`e-SAJ TJSP`). */
  label: string;
}

export type ConsultaClientFactory = (ctx: ConsultaClientContext) => ConsultaClient;

/** The degree a CNJ number's origin says: `0000` is the court itself, the second degree (README §1 step 5). */
export function grauOfCnj(numeroCnj: string): 1 | 2 {
  return numeroCnj.slice(16, 20) === '0000' ? 2 : 1;
}

/** The base URL of the degree a number belongs to; a degree without a known public consultation is `unavailable`, never a guessed host. */
export function baseUrlFor(ctx: ConsultaClientContext, numeroCnj: string): { grau: 1 | 2; base: string } {
  const grau = grauOfCnj(numeroCnj);
  const base = ctx.urls[grau];
  if (!base)
    throw ctx.http
      .session(ctx.source, ctx.label)
      .fail('unavailable', `no public second-degree consultation is known for ${ctx.court.sigla}; its cases come from DataJud alone`);
  return { grau, base };
}
