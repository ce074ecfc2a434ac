/**
 * CNJ number → DataJud index alias, through the courts table (J.TR → court → `datajudAlias`;
 * reference/upstream/cnj-number.md §4, datajud.md §9). Numbers of courts without an index (STF, the
 * CNJ, the councils) fail with `no_index` before any request: the caller answers 422, not 500.
 */
import { COURTS, courtBySigla, type Court } from '../../platform/courts/table.ts';
import { cnjCourtSigla, parseCnj } from '../../platform/identifiers/cnj.ts';
import { raceAbort } from '../http/concurrency.ts';
import { dataJudError, isDataJudFailure } from './errors.ts';

export interface AliasRoute {
  /** The 20 bare digits. */
  digits: string;
  court: Court;
  /** The alias of the courts table; for a disputed alias, resolve it with AliasResolver. */
  alias: string;
}

/**
 * Aliases whose spelling is disputed, with the spellings to try in order (datajud.md §4: the wiki
 * lists `api_publica_tre-dft`, one project reports only `api_publica_tre-df` exists).
 */
export const DISPUTED_ALIASES: Readonly<Record<string, readonly string[]>> = Object.freeze({
  'api_publica_tre-dft': Object.freeze(['api_publica_tre-dft', 'api_publica_tre-df']),
});

/**
 * Route one number (masked or bare). Throws ApiError INVALID_CNJ for a malformed number (callers
 * validate first) and DataJud's `no_index` failure when its court has no DataJud index.
 */
export function routeCnj(numero: string): AliasRoute {
  const cnj = parseCnj(numero);
  const sigla = cnjCourtSigla(cnj.segment, cnj.tribunal);
  const court = sigla === undefined ? undefined : courtBySigla(sigla);
  if (!court) {
    throw dataJudError(
      'no_index',
      `CNJ number ${cnj.masked}: J.TR ${cnj.segment}.${cnj.tribunal} is not a court with a DataJud index (the CNJ and its councils have none).`,
      { retryable: false },
    );
  }
  if (!court.datajudAlias) {
    throw dataJudError(
      'no_index',
      `CNJ number ${cnj.masked} belongs to ${court.sigla}, which has no DataJud index (datajud.md §4: DataJud does not cover the ${court.sigla}).`,
      { retryable: false },
    );
  }
  return { digits: cnj.digits, court, alias: court.datajudAlias };
}

const COURT_BY_ALIAS = new Map<string, Court>();
for (const court of COURTS) {
  if (!court.datajudAlias) continue;
  for (const alias of DISPUTED_ALIASES[court.datajudAlias] ?? [court.datajudAlias]) COURT_BY_ALIAS.set(alias, court);
}

/** The court an alias (or one of its disputed spellings) indexes; undefined for an unknown alias. */
export function courtOfAlias(alias: string): Court | undefined {
  return COURT_BY_ALIAS.get(alias);
}

/** Checks that an alias answers (a `{"size":0}` search); rejects with DataJud's failure. */
export type AliasProbe = (alias: string, signal?: AbortSignal) => Promise<void>;

/**
 * Resolves disputed aliases once per process: probes the candidates in order, falls back on
 * `no_index`, and caches the first that answers. Any other failure is not cached (next call probes
 * again). Undisputed aliases resolve to themselves without a request.
 */
export class AliasResolver {
  readonly #probe: AliasProbe;
  readonly #resolved = new Map<string, Promise<string>>();

  constructor(probe: AliasProbe) {
    this.#probe = probe;
  }

  resolve(alias: string, signal?: AbortSignal): Promise<string> {
    const candidates = DISPUTED_ALIASES[alias];
    if (!candidates) return Promise.resolve(alias);
    let pending = this.#resolved.get(alias);
    if (!pending) {
      // Not tied to one caller's signal: the answer is shared by every later caller.
      pending = this.#firstAnswering(alias, candidates);
      this.#resolved.set(alias, pending);
      pending.catch(() => this.#resolved.delete(alias));
    }
    return signal ? raceAbort(pending, signal) : pending;
  }

  /** Drops a cached resolution (e.g. when the cached alias later answers `no_index`). */
  forget(alias: string): void {
    this.#resolved.delete(alias);
  }

  /** True for an alias whose spelling is probed (its resolution can be forgotten). */
  isDisputed(alias: string): boolean {
    return alias in DISPUTED_ALIASES;
  }

  async #firstAnswering(alias: string, candidates: readonly string[]): Promise<string> {
    for (const candidate of candidates) {
      try {
        await this.#probe(candidate);
        return candidate;
      } catch (err) {
        if (!(isDataJudFailure(err) && err.failure === 'no_index')) throw err;
      }
    }
    throw dataJudError('no_index', `DataJud has none of the indexes ${candidates.join(', ')} (the spelling of ${alias} is disputed, datajud.md §4).`, {
      retryable: false,
    });
  }
}
