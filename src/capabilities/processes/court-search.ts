/**
 * A search that reaches the courts (issue 32): the enabled consultations that offer it are asked at
 * once (the case-details port's `searchCourts`), the numbers they list are looked up like any case
 * (DataJud's cover, or the court's page alone for a number DataJud does not know yet) and their
 * parties fetched, so they sit in the store beside what it already had. The routes merge these numbers
 * with the store's (deduplicated by number), page them, and say in `meta.fontes` which courts were
 * asked, which answered (how many they found, listed and looked up: at most `limitePorTribunal` each)
 * and which failed and why. Every court failing while the store has nothing is an uncharged 503
 * (`assertAnswered`), never an empty 200.
 *
 * One fan-out per search (issue 43 item 7): the courts' budgets (30 requests a minute per host by
 * default) are the real limit, so what a fan-out found is kept (table `court_searches`, keyed by a hash
 * of the normalized query) for TRAMITA_COURT_SEARCH_KEEP_MINUTES; the search's later pages, and the
 * same search again within that while, read it instead of asking every court again. Within one request
 * each case is looked up once: the numbers the fan-out looked up are read from the store after it
 * (`pageCases`), never looked up a second time.
 */
import { createHash } from 'node:crypto';
import { ApiError } from '../../platform/errors.ts';
import { parseCnjWithCourt } from '../../platform/identifiers/cnj.ts';
import { SourceError, type SourceFailure } from '../../platform/ports/source-error.ts';
import type { CourtSearchQuery } from '../../platform/ports/case-details.ts';
import { foldText } from '../../platform/text.ts';
import type { CaseParts } from './parts.ts';
import type { StoredCase } from './store.ts';

/** `meta.fontes` of a search that reached the courts. */
export interface CourtSources {
  consultadas: string[];
  responderam: string[];
  falharam: { tribunal: string; falha: SourceFailure; mensagem: string }[];
  /** Per court that answered: the count it printed, the numbers taken (the cap), those looked up and stored. */
  /** `limitado`: the court shows only its first N hits, so `encontrados` is that cap, not a total. */
  resultados: { tribunal: string; encontrados: number; limitado: boolean; listados: number; detalhados: number }[];
  limitePorTribunal: number;
}

export interface CourtSearch {
  /** The numbers found at the courts and now stored (20 digits), in the courts' order. */
  numeros: string[];
  fontes: CourtSources;
}

/** Cases looked up at once: each may cost a court page and a DataJud request. */
const LOOKUPS_AT_ONCE = 4;

/** The search's fan-out: the one kept from its first page when still within the keep window, else a new one, kept. */
export async function searchCourts(m: CaseParts, query: CourtSearchQuery, signal?: AbortSignal): Promise<CourtSearch> {
  if (!m.sources.details?.searchCourts) return fanOut(m, query, signal);
  const chave = keyOf(query);
  const now = m.clock.now();
  const since = new Date(now.getTime() - m.courtSearchKeepMinutes * 60_000).toISOString();
  const kept = await m.db.selectFrom('court_searches').select('resultado').where('chave', '=', chave).where('feita_em', '>', since).executeTakeFirst();
  if (kept) return JSON.parse(kept.resultado) as CourtSearch;
  const found = await fanOut(m, query, signal);
  // A fan-out no court answered is not kept: the next page (or a retry) asks again.
  if (m.courtSearchKeepMinutes > 0 && (found.fontes.responderam.length > 0 || found.fontes.consultadas.length === 0)) {
    const row = { chave, resultado: JSON.stringify(found), feita_em: now.toISOString() };
    await m.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('court_searches').where('feita_em', '<=', since).execute();
      await trx
        .insertInto('court_searches')
        .values(row)
        .onConflict((oc) => oc.column('chave').doUpdateSet({ resultado: row.resultado, feita_em: row.feita_em }))
        .execute();
    });
  }
  return found;
}

/** The normalized query, hashed: the same search however it was typed, and no CPF or name in clear in the table. */
function keyOf(query: CourtSearchQuery): string {
  const normalized =
    query.kind === 'documento'
      ? `documento:${query.documento}`
      : query.kind === 'nome'
        ? `nome:${foldText(query.nome).replace(/\s+/g, ' ').trim()}`
        : `oab:${query.oab.uf}:${query.oab.numero}:${query.oab.suffix ?? ''}`;
  return createHash('sha256').update(normalized).digest('hex');
}

async function fanOut(m: CaseParts, query: CourtSearchQuery, signal?: AbortSignal): Promise<CourtSearch> {
  const report = await m.sources.details?.searchCourts?.(query, signal);
  if (!report) return { numeros: [], fontes: { consultadas: [], responderam: [], falharam: [], resultados: [], limitePorTribunal: 0 } };
  const found = [...new Set(report.responderam.flatMap((r) => r.numeros))];
  const stored = new Set(await lookUp(m, found, signal));
  return {
    numeros: found.filter((n) => stored.has(n)),
    fontes: {
      consultadas: report.consultadas,
      responderam: report.responderam.map((r) => r.tribunal),
      falharam: report.falharam,
      resultados: report.responderam.map((r) => ({
        tribunal: r.tribunal,
        encontrados: r.encontrados,
        limitado: r.limitado === true,
        listados: r.numeros.length,
        detalhados: r.numeros.filter((n) => stored.has(n)).length,
      })),
      limitePorTribunal: report.limitePorTribunal,
    },
  };
}

/**
 * Every number as a cover lookup would have it (fresh from the store, else DataJud in batches, else the
 * court's own page), then parties for those that lack them. A number that cannot be looked up now (its
 * page challenged, DataJud down) is left out and counted as not detailed; the search still answers.
 */
async function lookUp(m: CaseParts, numeros: string[], signal?: AbortSignal): Promise<string[]> {
  if (numeros.length === 0) return [];
  const batch = await m.service.lookupMany(numeros, signal).catch((err: unknown) => {
    if (err instanceof SourceError) return m.store.many(numeros);
    throw err;
  });
  const known = new Set(batch.map((c) => c.row.numero_cnj));
  const alone = numeros.filter((n) => !known.has(n));
  for (let i = 0; i < alone.length; i += LOOKUPS_AT_ONCE) {
    await Promise.all(
      alone.slice(i, i + LOOKUPS_AT_ONCE).map(async (n) => {
        try {
          await m.service.lookup(parseCnjWithCourt(n), { signal });
          known.add(n);
        } catch (err) {
          if (!(err instanceof SourceError) && !(err instanceof ApiError)) throw err;
        }
      }),
    );
  }
  const cases = await m.store.many([...known]);
  await m.service.withDetails(cases, signal).catch((err: unknown) => {
    if (!(err instanceof SourceError)) throw err;
  });
  return [...known];
}

/**
 * A page's cases: those the fan-out looked up read from the store as they are (looking them up again
 * in the same request would ask the courts twice); the others (the provider's, the store's own)
 * looked up as any listing does, with their parties when `details`.
 */
export async function pageCases(
  m: CaseParts,
  numeros: readonly string[],
  courts: CourtSearch,
  opts: { details: boolean; signal?: AbortSignal },
): Promise<StoredCase[]> {
  const fromCourts = new Set(courts.numeros);
  const others = numeros.filter((n) => !fromCourts.has(n));
  const covers = others.length > 0 ? await m.service.lookupMany(others, opts.signal) : [];
  const looked = opts.details ? await m.service.withDetails(covers, opts.signal) : covers;
  const byNumber = new Map([...(await m.store.many(numeros.filter((n) => fromCourts.has(n)))), ...looked].map((c) => [c.row.numero_cnj, c]));
  return numeros.flatMap((n) => (byNumber.has(n) ? [byNumber.get(n)!] : []));
}

/** Numbers merged for a listing: the store's first, then the courts' it did not have. */
export function mergeNumbers(fromStore: readonly string[], fromCourts: readonly string[]): string[] {
  return [...new Set([...fromStore, ...fromCourts])];
}

/** Every court asked failed and nothing else was found: SOURCE_UNAVAILABLE (503, uncharged), never an empty 200. */
export function assertAnswered(fontes: CourtSources, total: number): void {
  if (total > 0 || fontes.consultadas.length === 0 || fontes.responderam.length > 0) return;
  const failure = fontes.falharam[0]?.falha ?? 'unavailable';
  throw new ApiError(
    'SOURCE_UNAVAILABLE',
    `Every court asked failed (${fontes.falharam.map((f) => `${f.tribunal}: ${f.falha}`).join(', ')}) and nothing was stored for this ` +
      `search; nothing was charged. Retry later.`,
    { source: 'consultas', failure, falharam: fontes.falharam.map(({ tribunal, falha }) => ({ tribunal, falha })) },
  );
}

/** What the routes' descriptions say of it. */
export const COURT_SEARCH_NOTE =
  "The enabled courts' public consultations that offer this search are asked too, in parallel (their cases looked up like any cover, at most " +
  '`meta.fontes.limitePorTribunal` per court); ' +
  '`meta.fontes` names the courts asked (`consultadas`), those that answered (`responderam`, with `resultados` per court: `encontrados`, and `limitado` ' +
  'when the court shows only its first N hits, as PJe does at 30) and those that failed (`falharam`: ' +
  '`tribunal`, `falha` such as `captcha` or `anti_bot`). ' +
  'A search where every court asked failed and nothing was stored is 503 SOURCE_UNAVAILABLE, uncharged. A search across courts may outlast the synchronous ' +
  'window: then 202 and the status URL. One fan-out per search: what the courts answered is kept for `TRAMITA_COURT_SEARCH_KEEP_MINUTES` (10 by default), ' +
  'and the later pages of the search, or the same search again within that while, are read from it without asking the courts again.';
