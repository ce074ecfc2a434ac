/**
 * A party's cases, as the case capability answers a party search (parties/court-search.ts asks it
 * once per request, through the door, parts.ts `partyCases`): the numbers the case-details provider
 * and the store hold for the party (by CPF/CNPJ; by name the provider's), merged with the numbers the
 * courts listed, the store's first; the courts' numbers and the window's others looked up in one
 * pass (one DataJud batch), the others with their parties when `details`; then the window's cases
 * read from the store. What the courts are asked, and what their answer is kept as, is the parties
 * capability's.
 */
import { ApiError } from '../../platform/errors.ts';
import { parseCnjWithCourt } from '../../platform/identifiers/cnj.ts';
import { SourceError } from '../../platform/ports/source-error.ts';
import { hasDataJudIndex, type CaseService } from './service.ts';
import type { CaseStore, StoredCase } from './store.ts';

/** What a party search asks of the case capability. */
export interface PartyCasesAsk {
  /** Whose numbers the provider and the store hold: by document (provider and store), by name (provider), none (an OAB search). */
  party?: { documento: string } | { nome: string };
  /** The numbers the courts listed; `lookedUp` when a kept fan-out already looked them up (then read as they are). */
  courts: { numeros: readonly string[]; lookedUp: boolean };
  /** The window of the merged numbers whose cases are read (and, from elsewhere, looked up). */
  window: { offset: number; limit: number };
  /** Whether the window's cases from elsewhere are detailed (their parties fetched) too; the courts' always are. */
  details: boolean;
  signal?: AbortSignal;
}

export interface PartyCases {
  /** Every number found, deduplicated: the provider's and the store's first, then the courts' now stored. */
  numeros: string[];
  /** The courts' numbers now stored (a kept fan-out's as they were), in the courts' order. */
  fromCourts: string[];
  /** The window's cases, in `numeros`' order. */
  cases: StoredCase[];
}

/** Cases looked up at once: each may cost a court page and a DataJud request. */
const LOOKUPS_AT_ONCE = 4;

type Deps = { service: CaseService; store: CaseStore };

export async function partyCases(m: Deps, ask: PartyCasesAsk): Promise<PartyCases> {
  const { party, courts, window } = ask;
  const fromElsewhere = [...new Set(await numbersOf(m, party))];
  const found = courts.lookedUp ? [] : [...new Set(courts.numeros)];
  // A kept fan-out's cases are read as they are: that fan-out looked them up.
  const keptNumbers = new Set(courts.lookedUp ? courts.numeros : []);
  const onPage = fromElsewhere.slice(window.offset, window.offset + window.limit).filter((n) => !keptNumbers.has(n));
  const stored = await lookUp(m, found, onPage, ask);
  const fromCourts = courts.lookedUp ? [...courts.numeros] : found.filter((n) => stored.has(n));
  const numeros = [...new Set([...fromElsewhere, ...fromCourts])];
  const page = numeros.slice(window.offset, window.offset + window.limit);
  if (page.length === 0) return { numeros, fromCourts, cases: [] };
  const byNumber = new Map((await m.store.many(page)).map((c) => [c.row.numero_cnj, c]));
  return { numeros, fromCourts, cases: page.flatMap((n) => (byNumber.has(n) ? [byNumber.get(n)!] : [])) };
}

function numbersOf(m: Deps, party: PartyCasesAsk['party']): Promise<string[]> {
  if (party === undefined) return Promise.resolve([]);
  return 'documento' in party ? m.service.numbersByDocument(party.documento) : m.service.details().findByName(party.nome);
}

/**
 * One pass of lookups, one DataJud batch for all. The courts' numbers as a cover lookup would have
 * them (fresh from the store, else DataJud, else the court's own page), then their parties: one that
 * cannot be looked up now (its page challenged, DataJud down) is left out and counted as not
 * detailed; the search still answers. The page's numbers from elsewhere as any listing has them
 * (DataJud failing for one not stored fails the search), with their parties when `details`. Returns
 * the courts' numbers now stored.
 */
async function lookUp(m: Deps, found: readonly string[], onPage: readonly string[], opts: { details: boolean; signal?: AbortSignal }): Promise<Set<string>> {
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
