/**
 * e-SAJ's searches by party document, party name and OAB (issue 32): `cpopg/search.do` with
 * `cbPesquisa` = DOCPARTE, NMPARTE or NUMOAB and the value in `dadosConsulta.valorConsulta`, the names
 * the search form carries (reference/upstream/real/block-tjms-esaj-cpopg5-search-recaptcha-bounce.html:
 * the select `cbPesquisa`, the inputs `campo_DOCPARTE` etc., the checkbox `chNmCompleto`), every foro
 * (`cdLocal=-1`). First degree only (`cpopg`): the second degree's search takes other fields.
 *
 * Three answers: one hit is a 302 to the process page (`show.do`, as in esaj-1.html), read for its
 * number; several are the hit list; none is the search form with the not-found notice. No capture of
 * a multi-hit list exists: its markup here is e-SAJ's list as the README's flow describes it (several
 * hits → the list whose process links are opened one by one, `#listagemDeProcessos a.linkProcesso`,
 * the selector the case reader already uses), with the counter `#contadorDeProcessos` ("N Processos
 * encontrados") and the 25 hits of the first page; only the first page is read.
 */
import type { CourtSearchQuery } from '../../../platform/ports/case-details.ts';
import { oneLine, parsePage, textOf } from '../html.ts';
import { ESAJ_NOT_FOUND, esajHitCount, esajList, esajMessage, EsajPageError, esajWhole, type EsajRefusal } from './parse.ts';

/** The `search.do` query of a search by document, name or OAB. */
export function esajSearchQuery(q: CourtSearchQuery): string {
  const [cbPesquisa, valor] =
    q.kind === 'documento'
      ? ['DOCPARTE', q.documento]
      : q.kind === 'nome'
        ? ['NMPARTE', q.nome]
        : // "Digite o número completo da OAB do advogado, incluindo letras e a sigla do estado de origem, por exemplo 654321SP."
          ['NUMOAB', `${q.oab.numero}${q.oab.suffix ?? ''}${q.oab.uf}`];
  const params: Record<string, string> = { conversationId: '', cbPesquisa, 'dadosConsulta.valorConsulta': valor, 'dadosConsulta.localPesquisa.cdLocal': '-1' };
  // Whole-name search: without it e-SAJ searches phonetically ("caio Silva" finds "Kaio silva").
  if (q.kind === 'nome') params.chNmCompleto = 'true';
  return new URLSearchParams(params).toString();
}

const CNJ_MASKED = /\b(\d{7}-\d{2}\.\d{4}\.\d\.\d{2}\.\d{4})\b/;

export type EsajHits =
  | {
      numeros: string[];
      /** The counter the list prints; null on a single hit or none. */
      total: number | null;
      /** Fewer hit rows on this page than the counter says (the rest on pages not read): the list is partial (issue 52). */
      limitado: boolean;
      /** Per listed number, the link its row opens (`/cpopg/show.do?processo.codigo=…`); a single hit's page is the answer itself. */
      links: Map<string, string>;
    }
  /** The message box refused the search (too broad, too many queries at once): a failure of that court. */
  | { refused: EsajRefusal; message: string };

/** The numbers a search answer lists; throws EsajPageError on a page that is none of the answers. The message box decides, never the status. */
export function parseEsajSearch(html: string): EsajHits {
  esajWhole(html);
  const root = parsePage(html);
  const single = textOf(root.querySelector('#numeroProcesso'));
  if (single) {
    const m = CNJ_MASKED.exec(single);
    if (!m) throw new EsajPageError('the process page shows no CNJ number');
    return { numeros: [m[1]!.replace(/\D/g, '')], total: 1, limitado: false, links: new Map() };
  }
  const message = esajMessage(root);
  if (message?.kind === 'not_found') return { numeros: [], total: 0, limitado: false, links: new Map() };
  if (message) return { refused: message.reason, message: message.message };
  if (root.querySelector('a.linkProcesso')) {
    const links = new Map<string, string>();
    const hits = esajList(root);
    for (const hit of hits) {
      if (!hit.numeroCnj) throw new EsajPageError('a listed process has no CNJ number');
      if (!links.has(hit.numeroCnj)) links.set(hit.numeroCnj, hit.path);
    }
    if (links.size === 0) throw new EsajPageError('the list of processes is empty');
    const total = esajHitCount(root);
    return { numeros: [...links.keys()], total, limitado: total !== null && hits.length < total, links };
  }
  if (oneLine(root.text).includes(ESAJ_NOT_FOUND)) return { numeros: [], total: 0, limitado: false, links: new Map() };
  throw new EsajPageError('the page has neither a case, nor a list of cases, nor a message');
}
