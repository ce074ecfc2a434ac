/**
 * A search that reaches the courts (issue 32): the enabled consultations that offer it are asked at
 * once (the case-details port's `searchCourts`), the numbers they list are looked up like any case
 * (DataJud's cover, or the court's page alone for a number DataJud does not know yet) and their
 * parties fetched, so they sit in the store beside what it already had. A party search merges these
 * numbers with the provider's and the store's (deduplicated by number) and pages them; `meta.fontes` says which courts were
 * asked, which answered (how many they found, listed and looked up: at most `limitePorTribunal` each)
 * and which failed and why. Every court failing while the store has nothing is an uncharged 503
 * (`assertAnswered`), never an empty 200.
 *
 * One fan-out per search (issue 43 item 7): the courts' budgets (30 requests a minute per host by
 * default) are the real limit, so what a fan-out found is kept (table `court_searches`, keyed by a hash
 * of the normalized query) for TRAMITA_COURT_SEARCH_KEEP_MINUTES; the search's later pages, and the
 * same search again within that while, read it instead of asking every court again. Within one request
 * each case is looked up once: a party search (searchPartyCases) looks up the courts' numbers and its
 * page's others in one pass (lookUp), then reads the page from the store.
 */
import { createHash } from 'node:crypto';
import { ApiError } from '../../platform/errors.ts';
import { parseCnjWithCourt } from '../../platform/identifiers/cnj.ts';
import { SourceError, type SourceFailure } from '../../platform/ports/source-error.ts';
import type { CourtSearchQuery, CourtSearchReport } from '../../platform/ports/case-details.ts';
import { foldText } from '../../platform/text.ts';
import { asAuxiliary } from '../../platform/request-path.ts';
import type { CaseParts } from './parts.ts';
import { hasDataJudIndex } from './service.ts';
import type { StoredCase } from './store.ts';

/** `meta.fontes` of a search that reached the courts. */
export interface CourtSources {
  consultadas: string[];
  responderam: string[];
  falharam: { tribunal: string; falha: SourceFailure; mensagem: string }[];
  /** Per court that answered: the count it printed, the numbers taken (the cap), those looked up and stored. */
  /** `limitado`: only part of the court's list was read: it shows only its first N hits (PJe: `encontrados` is that cap), or lists more than its first page. */
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

const NO_COURTS: CourtSearch = { numeros: [], fontes: { consultadas: [], responderam: [], falharam: [], resultados: [], limitePorTribunal: 0 } };

/** The search's fan-out (the one kept from its first page when still within the keep window, else a new one, kept), its cases looked up. */
export async function searchCourts(m: CaseParts, query: CourtSearchQuery, signal?: AbortSignal): Promise<CourtSearch> {
  return (await reach(m, query, async () => [], { offset: 0, limit: 0 }, { details: false, signal })).courts;
}

/** A party's cases: every number found (`numeros`), this page's cases, and what the courts said. */
export interface PartySearch {
  numeros: string[];
  cases: StoredCase[];
  fontes: CourtSources;
}

/**
 * A search of a party's cases in one pass: the courts' fan-out (searchCourts) and the numbers found
 * elsewhere (`elsewhere`: the provider's and the store's) merged, the store's first; the cases the
 * courts listed and this page's others looked up together, once (one DataJud batch), the others with
 * their parties when `details`; every court failing with nothing found is 503 (assertAnswered).
 */
export async function searchPartyCases(
  m: CaseParts,
  query: CourtSearchQuery,
  elsewhere: () => Promise<string[]>,
  window: { offset: number; limit: number },
  opts: { details: boolean; signal?: AbortSignal },
): Promise<PartySearch> {
  const { courts, fromElsewhere } = await reach(m, query, elsewhere, window, opts);
  const numeros = [...new Set([...fromElsewhere, ...courts.numeros])];
  assertAnswered(courts.fontes, numeros.length);
  const page = numeros.slice(window.offset, window.offset + window.limit);
  const byNumber = new Map((await m.store.many(page)).map((c) => [c.row.numero_cnj, c]));
  return { numeros, cases: page.flatMap((n) => (byNumber.has(n) ? [byNumber.get(n)!] : [])), fontes: courts.fontes };
}

/**
 * The courts' report (or the fan-out kept), then the numbers from elsewhere, then one pass of lookups:
 * the courts' numbers (a new fan-out's) and the page's numbers from elsewhere (their window: they come
 * first in the merged list, so the courts' numbers do not move them).
 */
async function reach(
  m: CaseParts,
  query: CourtSearchQuery,
  elsewhere: () => Promise<string[]>,
  window: { offset: number; limit: number },
  opts: { details: boolean; signal?: AbortSignal },
): Promise<{ courts: CourtSearch; fromElsewhere: string[] }> {
  const keeps = m.sources.details?.searchCourts !== undefined;
  const chave = keyOf(query);
  const now = m.clock.now();
  const since = new Date(now.getTime() - m.courtSearchKeepMinutes * 60_000).toISOString();
  const row = keeps
    ? await m.db.selectFrom('court_searches').select('resultado').where('chave', '=', chave).where('feita_em', '>', since).executeTakeFirst()
    : undefined;
  const kept = row && (JSON.parse(row.resultado) as CourtSearch);
  // The courts are auxiliary while a caller waits (issue 51): one attempt each, a failing host skipped, a late one its timeout.
  const report = kept ? undefined : await asAuxiliary(() => m.sources.details?.searchCourts?.(query, opts.signal));
  const fromElsewhere = [...new Set(await elsewhere())];
  const found = report ? [...new Set(report.responderam.flatMap((r) => r.numeros))] : [];
  // A kept fan-out's cases are read as they are: that fan-out looked them up.
  const keptNumbers = new Set(kept?.numeros);
  const onPage = fromElsewhere.slice(window.offset, window.offset + window.limit).filter((n) => !keptNumbers.has(n));
  const stored = await lookUp(m, found, onPage, opts);
  if (kept) return { courts: kept, fromElsewhere };
  const courts = report ? courtSearchOf(report, found, stored) : NO_COURTS;
  // A fan-out no court answered is not kept: the next page (or a retry) asks again.
  if (keeps && m.courtSearchKeepMinutes > 0 && (courts.fontes.responderam.length > 0 || courts.fontes.consultadas.length === 0)) {
    const keep = { chave, resultado: JSON.stringify(courts), feita_em: now.toISOString() };
    await m.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('court_searches').where('feita_em', '<=', since).execute();
      await trx
        .insertInto('court_searches')
        .values(keep)
        .onConflict((oc) => oc.column('chave').doUpdateSet({ resultado: keep.resultado, feita_em: keep.feita_em }))
        .execute();
    });
  }
  return { courts, fromElsewhere };
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

function courtSearchOf(report: CourtSearchReport, found: string[], stored: ReadonlySet<string>): CourtSearch {
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
 * One pass of lookups, one DataJud batch for all. The courts' numbers as a cover lookup would have
 * them (fresh from the store, else DataJud, else the court's own page), then their parties: one that
 * cannot be looked up now (its page challenged, DataJud down) is left out and counted as not
 * detailed; the search still answers. The page's numbers from elsewhere as any listing has them
 * (DataJud failing for one not stored fails the search), with their parties when `details`. Returns
 * the courts' numbers now stored.
 */
async function lookUp(
  m: CaseParts,
  found: readonly string[],
  onPage: readonly string[],
  opts: { details: boolean; signal?: AbortSignal },
): Promise<Set<string>> {
  const { signal } = opts;
  const all = [...new Set([...found, ...onPage])];
  if (all.length === 0) return new Set();
  let failure: SourceError | null = null;
  const batch = await m.service.lookupMany(all, signal).catch((err: unknown) => {
    if (!(err instanceof SourceError)) throw err;
    failure = err;
    return m.store.many(all);
  });
  const known = new Set(batch.map((c) => c.row.numero_cnj));
  const alone = found.filter((n) => !known.has(n));
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
  if (failure && onPage.some((n) => !known.has(n) && hasDataJudIndex(n))) throw failure;
  const fromCourts = found.filter((n) => known.has(n));
  const courtNumbers = new Set(fromCourts);
  const others = opts.details ? onPage.filter((n) => known.has(n) && !courtNumbers.has(n)) : [];
  // The courts' cases and the page's others at once; a failure of the first leaves them undetailed, of the others fails the search.
  await Promise.all([
    m.service.withDetails(await m.store.many(fromCourts), signal).catch((err: unknown) => {
      if (!(err instanceof SourceError)) throw err;
    }),
    others.length > 0 ? m.service.withDetails(await m.store.many(others), signal) : null,
  ]);
  return courtNumbers;
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
  "when only part of the court's list was read: the court shows only its first N hits, as PJe does at 30, or its count exceeds the rows of its first page) " +
  'and those that failed (`falharam`: ' +
  '`tribunal`, `falha` such as `captcha` or `anti_bot`). ' +
  'A search where every court asked failed and nothing was stored is 503 SOURCE_UNAVAILABLE, uncharged. A search across courts may outlast the synchronous ' +
  'window: then 202 and the status URL. One fan-out per search: what the courts answered is kept for `TRAMITA_COURT_SEARCH_KEEP_MINUTES` (10 by default), ' +
  'and the later pages of the search, or the same search again within that while, are read from it without asking the courts again.';
