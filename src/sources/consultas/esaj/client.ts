/**
 * e-SAJ's consultation flow (reference/upstream/real/README.md §2): `open.do` (the session cookie,
 * tied to the client's IP), `search.do` by the unified number, whose single hit is a 302 to `show.do`
 * (followed by the session), or the page itself. Several hits: each listed page is opened until the
 * number's. The second degree is `cposg` (TJSP) or `cposg5` (TJAL, TJAC), searched with its own fields.
 * Searches by document, name and OAB (search.ts) ask the first degree's `search.do` the same way.
 */
import { formatCnj } from '../../../platform/identifiers/cnj.ts';
import { baseUrlFor, type ConsultaClient, type ConsultaClientContext } from '../client.ts';
import type { ConsultaCase } from '../record.ts';
import { EsajPageError, parseEsajPage, type EsajPage } from './parse.ts';
import { esajSearchQuery, parseEsajSearch } from './search.ts';

/** Hits opened one by one at most, when a number lists several (a case and its incidents share none: rare). */
const MAX_LISTED = 5;

export function createEsajClient(ctx: ConsultaClientContext): ConsultaClient {
  return {
    async fetchCase(numeroCnj: string, signal?: AbortSignal): Promise<ConsultaCase | null> {
      const { grau, base } = baseUrlFor(ctx, numeroCnj);
      const app = grau === 1 ? 'cpopg' : (ctx.court.esajSegundoGrau ?? 'cposg');
      const session = ctx.http.session(ctx.source, ctx.label);
      const read = (text: string): EsajPage => {
        try {
          return parseEsajPage(text, { numeroCnj, tribunal: ctx.court.sigla, grau });
        } catch (err) {
          if (err instanceof EsajPageError) throw session.fail('malformed', `unexpected page for a case (${err.message})`);
          throw err;
        }
      };
      await session.get(`${base}/${app}/open.do`, { signal });
      const page = read((await session.get(`${base}/${app}/search.do?${searchQuery(numeroCnj, grau)}`, { signal })).text);
      if (page.kind === 'list') {
        for (const link of page.links.slice(0, MAX_LISTED)) {
          const listed = read((await session.get(new URL(link, `${base}/${app}/`).toString(), { signal })).text);
          if (listed.kind === 'case') return listed.case;
        }
        throw session.fail('malformed', 'none of the listed cases opened as a case page');
      }
      return page.kind === 'case' ? page.case : null;
    },

    async search(query, max, signal) {
      const session = ctx.http.session(ctx.source, ctx.label);
      await session.get(`${ctx.urls[1]}/cpopg/open.do`, { signal });
      const answer = await session.get(`${ctx.urls[1]}/cpopg/search.do?${esajSearchQuery(query)}`, { signal });
      try {
        const hits = parseEsajSearch(answer.text);
        return { numeros: hits.numeros.slice(0, max), total: hits.total };
      } catch (err) {
        if (err instanceof EsajPageError) throw session.fail('malformed', `unexpected answer to a search (${err.message})`);
        throw err;
      }
    },
  };
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
