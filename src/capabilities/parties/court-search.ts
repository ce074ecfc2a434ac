/**
 * A search that reaches the courts (issue 32): the enabled consultations that offer it are asked at
 * once (the case-details port's `searchCourts`), and the numbers they list are handed to the case
 * capability (processes/parts.ts `partyCases`, one call per request), which looks them up like any
 * case (DataJud's cover, or the court's page alone for a number DataJud does not know yet), fetches
 * their parties and merges them with the provider's and the store's numbers for the party. `meta.fontes`
 * says which courts were asked, which answered (how many they found, listed and looked up: at most
 * `limitePorTribunal` each) and which failed and why. Every court failing while nothing else was
 * found is an uncharged 503 (`assertAnswered`), never an empty 200.
 *
 * Every kind of court search is a search of parties: a CPF/CNPJ, a party's name, a lawyer's OAB
 * (search/ and lawyers/ ask through this capability's door, parts.ts).
 *
 * One fan-out per search (issue 43 item 7): the courts' budgets (30 requests a minute per host by
 * default) are the real limit, so what a fan-out found is kept (store.ts, table `court_searches`, keyed
 * by a hash of the normalized query) for TRAMITA_COURT_SEARCH_KEEP_MINUTES; the search's later pages,
 * and the same search again within that while, read it instead of asking every court again.
 */
import { createHash } from 'node:crypto';
import { ApiError } from '../../platform/errors.ts';
import type { SourceFailure } from '../../platform/ports/source-error.ts';
import type { CourtSearchQuery, CourtSearchReport } from '../../platform/ports/case-details.ts';
import { foldText } from '../../platform/text.ts';
import { asAuxiliary } from '../../platform/request-path.ts';
import { partyCases, type CaseParts, type PartyCasesAsk, type StoredCase } from '../processes/parts.ts';
import { keepCourtSearch, keptCourtSearch } from './store.ts';

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

/** A party's cases: every number found (`numeros`), this page's cases, and what the courts said. */
export interface PartySearch {
  numeros: string[];
  cases: StoredCase[];
  fontes: CourtSources;
}

const NO_COURTS: CourtSearch = { numeros: [], fontes: { consultadas: [], responderam: [], falharam: [], resultados: [], limitePorTribunal: 0 } };

/** The search's fan-out (the one kept from its first page when still within the keep window, else a new one, kept), its cases looked up. */
export async function searchCourts(m: CaseParts, query: CourtSearchQuery, signal?: AbortSignal): Promise<CourtSearch> {
  return (await reach(m, query, { window: { offset: 0, limit: 0 }, details: false, signal })).courts;
}

/**
 * A search of a party's cases in one pass: the courts' fan-out and the numbers found elsewhere (the
 * provider's and the store's, `party`) merged by the case capability, the store's first; every court
 * failing with nothing found is 503 (assertAnswered).
 */
export async function searchPartyCases(
  m: CaseParts,
  query: CourtSearchQuery,
  party: NonNullable<PartyCasesAsk['party']>,
  window: { offset: number; limit: number },
  opts: { details: boolean; signal?: AbortSignal },
): Promise<PartySearch> {
  const { courts, found } = await reach(m, query, { party, window, ...opts });
  assertAnswered(courts.fontes, found.numeros.length);
  return { numeros: found.numeros, cases: found.cases, fontes: courts.fontes };
}

/**
 * The courts' report (or the fan-out kept), then the case capability's one pass (partyCases): the
 * numbers from elsewhere, the courts' numbers (a new fan-out's) and the window's others looked up,
 * the window's cases read. A new fan-out some court answered is kept.
 */
async function reach(
  m: CaseParts,
  query: CourtSearchQuery,
  ask: Omit<PartyCasesAsk, 'courts'>,
): Promise<{ courts: CourtSearch; found: Awaited<ReturnType<typeof partyCases>> }> {
  const keeps = m.sources.details?.searchCourts !== undefined;
  const chave = keyOf(query);
  const now = m.clock.now();
  const since = new Date(now.getTime() - m.courtSearchKeepMinutes * 60_000).toISOString();
  const stored = keeps ? await keptCourtSearch(m.db, chave, since) : undefined;
  const kept = stored === undefined ? undefined : (JSON.parse(stored) as CourtSearch);
  // The courts are auxiliary while a caller waits (issue 51): one attempt each, a failing host skipped, a late one its timeout.
  const report = kept ? undefined : await asAuxiliary(() => m.sources.details?.searchCourts?.(query, ask.signal));
  const listed = report ? [...new Set(report.responderam.flatMap((r) => r.numeros))] : [];
  const found = await partyCases(m, { ...ask, courts: kept ? { numeros: kept.numeros, lookedUp: true } : { numeros: listed, lookedUp: false } });
  if (kept) return { courts: kept, found };
  const courts = report ? courtSearchOf(report, listed, new Set(found.fromCourts)) : NO_COURTS;
  // A fan-out no court answered is not kept: the next page (or a retry) asks again.
  if (keeps && m.courtSearchKeepMinutes > 0 && (courts.fontes.responderam.length > 0 || courts.fontes.consultadas.length === 0)) {
    await keepCourtSearch(m.db, { chave, resultado: JSON.stringify(courts), feita_em: now.toISOString() }, since);
  }
  return { courts, found };
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
