/**
 * e-SAJ's consultation flow (reference/upstream/real/README.md §2): `open.do` (the session cookie,
 * tied to the client's IP), `search.do` by the unified number, whose single hit is a 302 to `show.do`
 * (followed by the session), or the page itself. Several hits: each listed page is opened until the
 * number's (only that one). The second degree is `cposg` (TJSP) or `cposg5` (TJAL, TJAC), searched with its own fields;
 * `fetchAppeals` reads it under a first-degree number, where an appeal keeps its origin number (issue 52 item 3).
 * Searches by document, name and OAB (search.ts) ask the first degree's `search.do` the same way; each
 * hit's page is then read by the link its row gave, on the search's session: one request (issue 43 item 7).
 */
import { formatCnj } from '../../../platform/identifiers/cnj.ts';
import { baseUrlFor, grauOfCnj, type ConsultaClient, type ConsultaClientContext, type ListedPage } from '../client.ts';
import type { ConsultaCase } from '../record.ts';
import type { ConsultaSession } from '../http.ts';
import { Anomalies, withAnomaly } from '../anomalies.ts';
import { MESSAGE_FAILURES, messageReason } from '../messages.ts';
import { EsajPageError, parseEsajPage, secretCase, type EsajPage, type EsajPageContext, type EsajRefusal } from './parse.ts';
import { esajSearchQuery, parseEsajSearch, type EsajHits } from './search.ts';

export function createEsajClient(ctx: ConsultaClientContext): ConsultaClient {
  return {
    async fetchCase(numeroCnj: string, signal?: AbortSignal, fromSearch?: ListedPage): Promise<ConsultaCase | null> {
      if (fromSearch) {
        const found = await readListed(fromSearch, { numeroCnj, tribunal: ctx.court.sigla, grau: 1 }, signal);
        if (found) return found;
      }
      const { grau, base } = baseUrlFor(ctx, numeroCnj);
      return (await casesOfNumber(ctx, numeroCnj, grau, base, signal, 'first'))[0] ?? null;
    },

    async fetchAppeals(numeroCnj: string, signal?: AbortSignal): Promise<ConsultaCase[]> {
      const base = ctx.urls[2];
      if (!base || grauOfCnj(numeroCnj) !== 1) return [];
      return casesOfNumber(ctx, numeroCnj, 2, base, signal, 'all');
    },

    async search(query, max, signal) {
      const session = ctx.http.session(ctx.source, ctx.label).at('formulario');
      await session.get(`${ctx.urls[1]}/cpopg/open.do`, { signal });
      session.at('busca');
      const answer = await session.get(`${ctx.urls[1]}/cpopg/search.do?${esajSearchQuery(query)}`, { signal });
      let hits: EsajHits;
      try {
        hits = parseEsajSearch(answer.text);
      } catch (err) {
        if (err instanceof EsajPageError) throw session.fail('malformed', `unexpected answer to a search (${err.message})`);
        throw err;
      }
      if ('refused' in hits) throw refusal(session, hits.refused, hits.message);
      const numeros = hits.numeros.slice(0, max);
      // A single hit's answer is its page (the 302 to show.do, followed): kept as it is, it costs no request more.
      const paginas = new Map(
        numeros.map((n) => [
          n,
          hits.links.has(n) ? { url: esajLink(ctx.urls[1], 'cpopg', hits.links.get(n)!), session } : { url: answer.url, session, text: answer.text },
        ]),
      );
      // A counter above the rows read (the list's further pages are not requested): partial, never complete (issue 52).
      return { numeros, total: hits.total, ...(hits.limitado ? { limitado: true } : {}), paginas };
    },
  };
}

/**
 * The cases one degree's number search answers under exactly that number: the page it answered, or
 * the list's hits of that number opened (the first, or `all`: a 2nd degree may list two appeals under
 * one origin number, as TJCE's does); none on the page's explicit "not found". A secret case is its
 * secrecy; a refusal or any other page is a failure. Each listed hit's dependants join its incidents.
 */
async function casesOfNumber(
  ctx: ConsultaClientContext,
  numeroCnj: string,
  grau: 1 | 2,
  base: string,
  signal: AbortSignal | undefined,
  hits: 'first' | 'all',
): Promise<ConsultaCase[]> {
  const app = grau === 1 ? 'cpopg' : (ctx.court.esajSegundoGrau ?? 'cposg');
  const session = ctx.http.session(ctx.source, ctx.label).at('formulario');
  const anomalies = new Anomalies();
  const pageCtx = { numeroCnj, tribunal: ctx.court.sigla, grau };
  const read = (text: string): EsajPage => {
    try {
      return parseEsajPage(text, pageCtx, anomalies);
    } catch (err) {
      if (err instanceof EsajPageError) throw session.fail('malformed', `unexpected page for a case (${err.message})`);
      throw err;
    }
  };
  await session.get(`${base}/${app}/open.do`, { signal });
  session.at('busca');
  const page = read((await session.get(`${base}/${app}/search.do?${searchQuery(numeroCnj, grau)}`, { signal })).text);
  if (page.kind !== 'list') {
    const found = answerOf(page, session, pageCtx);
    return found ? [found] : [];
  }
  // A number search answered with a list (1st degree: hits; 2nd degree: the case and its incidents): the exact number only.
  const exact = page.hits.filter((h) => h.numeroCnj === numeroCnj);
  if (exact.length === 0) throw session.fail('malformed', 'the list answered for the number names other cases only');
  session.at('detalhe');
  const cases: ConsultaCase[] = [];
  for (const hit of hits === 'all' ? exact : exact.slice(0, 1)) {
    const listed = read((await session.get(esajLink(base, app, hit.path), { signal })).text);
    if (listed.kind === 'list') throw session.fail('malformed', 'the listed case opened as another list');
    const found = answerOf(listed, session, pageCtx);
    if (!found) throw session.fail('malformed', 'the listed case opened as not found');
    const known = new Set(found.incidentes.map((i) => `${i.classe}|${i.data}`));
    found.incidentes.push(...hit.incidentes.filter((i) => !known.has(`${i.classe}|${i.data}`)));
    cases.push(found);
  }
  return cases;
}

/** e-SAJ's links are root paths (`/cpopg/show.do?…`), its radios' relative (`show.do?…`): both under this court's base. */
function esajLink(base: string, app: string, path: string): string {
  return path.startsWith(`/${app}/`) ? `${base}${path}` : new URL(path, `${base}/${app}/`).toString();
}

/**
 * A case's page as a search listed it, one request on the search's session; null when it did not open
 * as that case (an expired session answers the form or a list): the caller then runs the whole flow.
 */
async function readListed(listed: ListedPage, ctx: EsajPageContext, signal?: AbortSignal): Promise<ConsultaCase | null> {
  const session = listed.session.at('detalhe');
  let page: EsajPage;
  try {
    page = parseEsajPage(listed.text ?? (await session.get(listed.url, { signal })).text, ctx, new Anomalies());
  } catch (err) {
    if (err instanceof EsajPageError) return null;
    throw err;
  }
  if (page.kind === 'case' && page.case.numeroCnj === ctx.numeroCnj) return page.case;
  return page.kind === 'secret' || page.kind === 'refused' ? answerOf(page, session, ctx) : null;
}

/** A page that is a case, a not-found, a secret case, or the court's refusal (a failure, never "nothing found"). */
function answerOf(page: Exclude<EsajPage, { kind: 'list' }>, session: ConsultaSession, ctx: EsajPageContext): ConsultaCase | null {
  if (page.kind === 'case') return page.case;
  if (page.kind === 'secret') return secretCase(ctx);
  if (page.kind === 'not_found') return null;
  throw refusal(session, page.reason, page.message);
}

/**
 * "Too many simultaneous queries" is worth another try later (rate_limited); a search too broad, an
 * error, or an unknown message is not. An unknown message is quoted and counted as a layout anomaly.
 */
function refusal(session: ConsultaSession, reason: EsajRefusal, message: string): Error {
  const err = session.fail(MESSAGE_FAILURES[reason].failure, messageReason(reason, message));
  return reason === 'unknown' ? withAnomaly(err, 'mensagem.desconhecida') : err;
}

/** The search's query, as e-SAJ's own form sends it (the TJMS capture echoes the same names). */
export function searchQuery(numeroCnj: string, grau: 1 | 2): string {
  const masked = formatCnj(numeroCnj);
  const common = { conversationId: '', cbPesquisa: 'NUMPROC', numeroDigitoAnoUnificado: masked.slice(0, 15), foroNumeroUnificado: numeroCnj.slice(16, 20) };
  const params =
    grau === 1
      ? {
          ...common,
          'dadosConsulta.localPesquisa.cdLocal': '-1',
          'dadosConsulta.valorConsultaNuUnificado': masked,
          'dadosConsulta.tipoNuProcesso': 'UNIFICADO',
        }
      : { ...common, paginaConsulta: '1', tipoNuProcesso: 'UNIFICADO', dePesquisaNuUnificado: masked, dePesquisa: '' };
  return new URLSearchParams(params).toString();
}
