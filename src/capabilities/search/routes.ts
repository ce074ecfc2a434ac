/**
 * Search by term (spec §4.2) and its compatibility path `GET /v1/busca` (§4.9). A term that is a CNJ
 * number finds that case; a CPF/CNPJ finds the party's cases; any other text is a ranked full-text
 * search of the stored cases (numbers, party names, classes, subjects, court units; accents and case
 * ignored; every word must match: as a whole word when some case has them all, else as a prefix; name
 * particles such as "da" or "dos" are not searched). On the first page of a text search, the case-details provider is also
 * asked for parties of that name, and their cases join the store before the search runs.
 */
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../platform/errors.ts';
import { decodeCursor, encodeCursor, pageWindow } from '../../platform/http/pagination.ts';
import { listData, listSchema } from '../../platform/http/list.ts';
import { defineRoute, type RouteRequest } from '../../platform/http/route.ts';
import { isValidCnj, parseCnjWithCourt } from '../../platform/identifiers/cnj.ts';
import { isValidCnpj, isValidCpf, parseCpfCnpj } from '../../platform/identifiers/cpf-cnpj.ts';
import type { Services } from '../../platform/services.ts';
import { isParty } from '../../platform/ports/case-details.ts';
import { foldText } from '../../platform/text.ts';
import { caseSummary, sourcesMeta, type CaseParts, type StoredCase } from '../processes/parts.ts';
import { assertAnswered, COURT_SEARCH_NOTE, searchCourts, searchPartyCases, type CourtSources } from '../parties/parts.ts';
import { SearchHit, SearchQuery } from './schemas.ts';

const TAG = 'Busca';
/** Cases a name search pulls in from the provider per query (each may cost a DataJud lookup). */
const PROVIDER_MATCHES_PER_QUERY = 50;

type Req = RouteRequest<{ querystring: typeof SearchQuery }>;

export function searchRoutes(app: FastifyInstance, s: Services, m: CaseParts): void {
  for (const url of ['/v1/busca/termo', '/v1/busca']) {
    defineRoute(app, {
      method: 'GET',
      url,
      meta: {
        class: 'search',
        auth: true,
        charge: 'busca.termo',
        async: true,
        tag: TAG,
        summary:
          url === '/v1/busca' ? 'Search by term (compatibility path of /v1/busca/termo)' : 'Search by term: case number, CPF/CNPJ, names, classes, subjects',
        description:
          `Parameter \`q\` (or \`termo\`). A CNJ number or a CPF/CNPJ finds its cases. Two or more words that begin a party's name (accents and ` +
          `case aside) list the cases of the parties so named: the exact name first (\`relevancia\` 1), then longer names (0.5). ` +
          `Anything else (one word, words in another order, classes, subjects, court units) is searched in the full text, each word as ` +
          `a prefix, best matches first. By page (\`limit\` 1–100, default 20; \`cursor\`). One flat charge per page; a page with no ` +
          `result is free. A CPF/CNPJ reaches the courts once per search (its later pages read what ` +
          `that fan-out found), a party's name (two or more words) on the first page. ${COURT_SEARCH_NOTE}`,
      },
      schema: { querystring: SearchQuery, data: listSchema('items', SearchHit) },
      handler: (req) => search(m, req, s.config),
    });
  }
}

async function search(m: CaseParts, req: Req, config: Services['config']) {
  const term = (req.query.q ?? req.query.termo)?.trim();
  if (!term) throw new ApiError('MISSING_PARAMETER', 'Give the term in `q`.', { field: 'q', in: 'query' });
  if (req.query.q !== undefined && req.query.termo !== undefined)
    throw new ApiError('INVALID_PARAMETER', 'Give `q` or `termo`, not both.', { field: 'termo', in: 'query' });
  const w = pageWindow(req.query);
  const limit = w.limit;
  const listing = `busca:${foldText(term)}`;
  const offset = decodeCursor<{ o: number }>(listing, req.query.cursor, ['o'])?.o ?? w.skip;
  const { hits, more, fontes } = await findCases(m, term, limit, offset);
  const pagination = { limit, nextCursor: more ? encodeCursor(listing, { o: offset + limit }) : null, page: w.pageNumber };
  const items = hits.map(({ c, score }) => ({ ...caseSummary(c), relevancia: score, partes: (c.partes ?? []).filter(isParty).map((p) => p.nome) }));
  return {
    data: listData(req, config, 'items', items, pagination),
    meta: { pagination, consulta: { termo: term }, ...sourcesMeta(m.sources), ...(fontes ? { fontes } : {}) },
    empty: hits.length === 0,
  };
}

type Found = { hits: { c: StoredCase; score: number }[]; more: boolean; fontes?: CourtSources };

async function findCases(m: CaseParts, term: string, limit: number, offset: number): Promise<Found> {
  if (isValidCnj(term)) {
    if (offset > 0) return { hits: [], more: false };
    const lookup = await m.service.lookup(parseCnjWithCourt(term, 'q')).catch((err) => {
      if (err instanceof ApiError && err.code === 'CASE_NOT_FOUND') return null;
      throw err;
    });
    return { hits: lookup ? [{ c: lookup.stored, score: 1 }] : [], more: false };
  }
  if (isValidCpf(term) || isValidCnpj(term)) {
    const documento = parseCpfCnpj(term, 'q').value;
    const found = await searchPartyCases(m, { kind: 'documento', documento }, { documento }, { offset, limit }, { details: false });
    return { hits: found.cases.map((c) => ({ c, score: 1 })), more: offset + limit < found.numeros.length, fontes: found.fontes };
  }
  // A party's name reaches the courts on the first page; the cases found join the store (with their parties), where the full-text search finds them.
  const courts = offset === 0 && isPartyName(term) ? await searchCourts(m, { kind: 'nome', nome: term }) : undefined;
  if (offset === 0 && m.sources.details) await pullFromProvider(m, term);
  const found = await m.search.search(term, limit, offset);
  if (courts) assertAnswered(courts.fontes, found.hits.length);
  const cases = new Map((await m.store.many(found.hits.map((h) => h.numeroCnj))).map((c) => [c.row.numero_cnj, c]));
  return {
    hits: found.hits.flatMap((h) => (cases.has(h.numeroCnj) ? [{ c: cases.get(h.numeroCnj)!, score: h.score }] : [])),
    more: found.more,
    fontes: courts?.fontes,
  };
}

/** Two or more words of letters: what a court's name search can take (one word lists half a court). */
function isPartyName(term: string): boolean {
  return /^[\p{L}][\p{L}' .-]*$/u.test(term) && term.split(/\s+/).filter((w) => w.length > 1).length >= 2;
}

/** Cases where the provider finds a party of that name join the store, with their parties indexed. */
async function pullFromProvider(m: CaseParts, term: string): Promise<void> {
  const numbers = (await m.sources.details!.findByName(term)).slice(0, PROVIDER_MATCHES_PER_QUERY);
  if (numbers.length > 0) await m.service.withDetails(await m.service.lookupMany(numbers));
}
