/** A PublicationQuery → the query strings of `GET /api/v1/comunicacao` (djen.md §4.1). */
import type { PublicationQuery } from '../../platform/ports/publications.ts';

/** DJEN's documented page size (§4.3: larger sizes are accepted but undocumented). */
export const PAGE_SIZE = 100;
/** DJEN stops at 10,000 results for OAB/text/process searches (§4.1): reaching it means "maybe more". */
export const RESULT_CAP = 10_000;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The spellings of an OAB number to ask DJEN. DJEN normalizes a UF prefix and leading zeros itself
 * (`RS057689` = `057689` = `57689`, §4.1), but it matches the number as the court recorded it, and
 * courts print some registrations with the thousands dot (`57.689`) or with the suffix letter of a
 * supplementary registration (`57689A`). One spelling misses the items recorded in the others, so a
 * search asks plain digits, the dotted form (from 4 digits) and, when the OAB has one, the suffixed
 * form, then merges the answers by id.
 */
export function oabSpellings(numero: string): string[] {
  const m = /^0*(\d+)([A-Z]?)$/i.exec(numero.trim().replace(/\./g, ''));
  if (!m) throw new RangeError(`PublicationQuery.oab.numero ${JSON.stringify(numero)}: expected digits and an optional suffix letter`);
  const [, digits, suffix] = m;
  const spellings = new Set([digits]);
  if (digits.length >= 4) spellings.add(digits.replace(/\B(?=(\d{3})+$)/g, '.'));
  if (suffix) spellings.add(`${digits}${suffix.toUpperCase()}`);
  return [...spellings];
}

/** One set of filters per request to make: one per OAB spelling, or just one. Validated first. */
export function searchFilters(query: PublicationQuery): URLSearchParams[] {
  const base = new URLSearchParams();
  const set = (key: string, value: string | undefined) => {
    if (value !== undefined && value.trim() !== '') base.set(key, value.trim());
  };
  if (query.numeroCnj !== undefined) {
    const digits = query.numeroCnj.replace(/\D/g, '');
    if (digits.length !== 20) throw new RangeError(`PublicationQuery.numeroCnj ${JSON.stringify(query.numeroCnj)}: expected 20 digits`);
    set('numeroProcesso', digits);
  }
  set('nomeParte', query.nomeParte);
  set('nomeAdvogado', query.nomeAdvogado);
  set('texto', query.texto);
  set('siglaTribunal', query.tribunal?.toUpperCase());
  for (const [key, day] of [
    ['dataDisponibilizacaoInicio', query.desde],
    ['dataDisponibilizacaoFim', query.ate],
  ] as const) {
    if (day !== undefined && !DAY.test(day)) throw new RangeError(`PublicationQuery: ${JSON.stringify(day)} is not a yyyy-mm-dd day`);
    set(key, day);
  }
  set('meio', query.meio);
  if (!query.oab) {
    // DJEN's rule (§4.1): without one of these it refuses, unless itensPorPagina ≤ 5.
    if (!['numeroProcesso', 'nomeParte', 'nomeAdvogado', 'texto', 'siglaTribunal'].some((k) => base.has(k))) {
      throw new RangeError('PublicationQuery needs at least one of oab, numeroCnj, nomeParte, nomeAdvogado, texto or tribunal');
    }
    return [base];
  }
  const uf = query.oab.uf.trim().toUpperCase();
  return oabSpellings(query.oab.numero).map((numero) => {
    const params = new URLSearchParams(base);
    params.set('numeroOab', numero);
    params.set('ufOab', uf);
    return params;
  });
}

/** The params of page `pagina` (1-based). */
export function pageParams(filters: URLSearchParams, pagina: number): URLSearchParams {
  const params = new URLSearchParams(filters);
  params.set('pagina', String(pagina));
  params.set('itensPorPagina', String(PAGE_SIZE));
  return params;
}
