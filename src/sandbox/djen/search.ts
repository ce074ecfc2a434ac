/**
 * `GET /api/v1/comunicacao` of the simulated DJEN (djen.md §4.1–4.3): parameters, DJEN's
 * "at least one filter" rule, newest → oldest order (date desc, id desc, so pages never repeat an
 * item), the 10,000-result cap and the `count` that lies:
 * - itensPorPagina ≤ 100: the real total (capped at 10,000);
 * - itensPorPagina > 100: itensPorPagina itself, whatever the total;
 * - a one-day tribunal-wide query (siglaTribunal, início = fim, no narrower filter): 10,000.
 * Clients must page until a page comes back shorter than itensPorPagina.
 * Names (nomeParte, nomeAdvogado) and texto match accent/case-insensitively when every word of the
 * query is a word of the name/text; numeroOab follows oab.ts's rule (the dot is not stripped).
 */
import { nameTokens } from '../data/text.ts';
import { parseIsoDay } from './dates.ts';
import { lawyersOf, type Communication, type Meio } from './model.ts';
import { oabDigits, oabMatchKey } from './oab.ts';
import { hasWords, itemLawyers, paddedWords, textoMatcher } from './render.ts';
import type { DjenStore, Ref } from './store.ts';

export const RESULT_CAP = 10_000;
export const MAX_PAGE_SIZE = 1000;
/** [I]: the real default is undocumented; clients always send it. */
export const DEFAULT_PAGE_SIZE = 100;

export interface DjenQuery {
  numeroOab: string | null;
  ufOab: string | null;
  numeroProcesso: string | null;
  nomeParte: string[] | null;
  nomeAdvogado: string[] | null;
  texto: string[] | null;
  siglaTribunal: string | null;
  inicio: number | null;
  fim: number | null;
  meio: Meio | null;
  orgaoId: number | null;
  numeroComunicacao: number | null;
  pagina: number;
  itensPorPagina: number;
}

export class DjenQueryError extends Error {}

function text(params: URLSearchParams, name: string): string | null {
  const v = params.get(name)?.trim();
  return v ? v : null;
}

function words(params: URLSearchParams, name: string): string[] | null {
  const v = text(params, name);
  const tokens = v === null ? [] : nameTokens(v);
  return tokens.length > 0 ? tokens : null;
}

function integer(params: URLSearchParams, name: string, fallback: number | null, min: number, max: number): number | null {
  const v = text(params, name);
  if (v === null) return fallback;
  const n = Number(v);
  if (!/^\d+$/.test(v) || n < min || n > max) throw new DjenQueryError(`${name} deve ser um inteiro entre ${min} e ${max}`);
  return n;
}

function day(params: URLSearchParams, name: string): number | null {
  const v = text(params, name);
  if (v === null) return null;
  const d = parseIsoDay(v);
  if (d === null) throw new DjenQueryError(`${name} deve estar no formato yyyy-mm-dd`);
  return d;
}

export function parseQuery(params: URLSearchParams): DjenQuery {
  const numeroProcesso = text(params, 'numeroProcesso');
  if (numeroProcesso !== null && (!/^[\d.-]+$/.test(numeroProcesso) || numeroProcesso.replace(/\D/g, '').length !== 20))
    throw new DjenQueryError('numeroProcesso inválido');
  const meio = text(params, 'meio')?.toUpperCase() ?? null;
  if (meio !== null && meio !== 'D' && meio !== 'E') throw new DjenQueryError('meio deve ser D ou E');
  const q: DjenQuery = {
    numeroOab: text(params, 'numeroOab'),
    ufOab: text(params, 'ufOab')?.toUpperCase() ?? null,
    numeroProcesso: numeroProcesso?.replace(/\D/g, '') ?? null,
    nomeParte: words(params, 'nomeParte'),
    nomeAdvogado: words(params, 'nomeAdvogado'),
    texto: words(params, 'texto'),
    siglaTribunal: text(params, 'siglaTribunal')?.toUpperCase() ?? null,
    inicio: day(params, 'dataDisponibilizacaoInicio'),
    fim: day(params, 'dataDisponibilizacaoFim'),
    meio,
    orgaoId: integer(params, 'orgaoId', null, 0, Number.MAX_SAFE_INTEGER) ?? integer(params, 'orgaoID', null, 0, Number.MAX_SAFE_INTEGER),
    numeroComunicacao: integer(params, 'numeroComunicacao', null, 0, Number.MAX_SAFE_INTEGER),
    pagina: integer(params, 'pagina', 1, 1, Number.MAX_SAFE_INTEGER)!,
    itensPorPagina: integer(params, 'itensPorPagina', DEFAULT_PAGE_SIZE, 1, MAX_PAGE_SIZE)!,
  };
  const filtered = q.siglaTribunal || q.texto || q.nomeParte || q.nomeAdvogado || q.numeroOab || q.numeroProcesso;
  if (!filtered && q.itensPorPagina > 5) {
    throw new DjenQueryError(
      'Informe ao menos um dos filtros siglaTribunal, texto, nomeParte, nomeAdvogado, numeroOab ou numeroProcesso, ou itensPorPagina menor ou igual a 5',
    );
  }
  return q;
}

/** The cases a query can only find communications in, or null when it has to scan every one. */
function candidateCases(store: DjenStore, q: DjenQuery): Iterable<number> | null {
  if (q.numeroProcesso) return store.casesOfNumero(q.numeroProcesso);
  if (q.numeroOab) return store.casesOfOab(oabDigits(oabMatchKey(q.numeroOab)), q.ufOab);
  if (q.nomeAdvogado) return store.casesOfLawyerName(q.nomeAdvogado);
  if (q.nomeParte) return store.casesOfPartyName(q.nomeParte);
  return null;
}

/** Calls `visit` with the table positions that may match, newest first (rank descending), none after `lastDay`, until it returns false. */
function eachCandidate(store: DjenStore, q: DjenQuery, lastDay: number, visit: (ref: Ref) => boolean): void {
  const t = store.table;
  const cases = candidateCases(store, q);
  if (cases !== null) {
    for (const ref of store.refsOfCases(cases).sort((a, b) => t.rankOf[b] - t.rankOf[a])) if (!visit(ref)) return;
    return;
  }
  const firstDay = q.inicio ?? -Infinity;
  for (let r = t.ranksUpTo(lastDay) - 1; r >= 0 && t.day[t.posOf[r]] >= firstDay; r--) if (!visit(t.posOf[r])) return;
}

function cheapMatch(store: DjenStore, q: DjenQuery, ref: Ref, lastDay: number): boolean {
  const s = store.summary(ref);
  return (
    s.day <= lastDay &&
    (q.inicio === null || s.day >= q.inicio) &&
    (q.meio === null || s.meio === q.meio) &&
    (q.siglaTribunal === null || s.tribunal === q.siglaTribunal) &&
    (q.numeroProcesso === null || s.numero === q.numeroProcesso) &&
    (q.orgaoId === null || s.orgaoId === q.orgaoId)
  );
}

function fullMatch(q: DjenQuery, c: Communication, texto: ((c: Communication) => boolean) | null): boolean {
  if (q.numeroComunicacao !== null && c.numeroComunicacao !== q.numeroComunicacao) return false;
  if (q.numeroOab !== null) {
    const key = oabMatchKey(q.numeroOab);
    if (!itemLawyers(c).some(({ lawyer, numeroOab }) => oabMatchKey(numeroOab) === key && (q.ufOab === null || lawyer.uf === q.ufOab))) return false;
  } else if (q.ufOab !== null && !lawyersOf(c).some((l) => l.uf === q.ufOab)) return false;
  if (q.nomeAdvogado && !lawyersOf(c).some((l) => hasWords(paddedWords(l.nome), q.nomeAdvogado!))) return false;
  if (q.nomeParte && !c.destinatarios.some((d) => hasWords(paddedWords(d.nome), q.nomeParte!))) return false;
  return texto === null || texto(c);
}

const needsResolve = (q: DjenQuery) =>
  q.numeroComunicacao !== null || q.numeroOab !== null || q.ufOab !== null || !!q.nomeAdvogado || !!q.nomeParte || !!q.texto;

/** Every match (at most RESULT_CAP), newest first. */
export function matchingRefs(store: DjenStore, q: DjenQuery, today: number): Ref[] {
  const lastDay = Math.min(today, q.fim ?? today);
  const resolve = needsResolve(q);
  const texto = q.texto ? textoMatcher(q.texto) : null;
  const matches = (ref: Ref) => cheapMatch(store, q, ref, lastDay) && (!resolve || fullMatch(q, store.resolve(ref), texto));
  const found: Ref[] = [];
  eachCandidate(store, q, lastDay, (ref) => {
    if (matches(ref)) found.push(ref);
    return found.length < RESULT_CAP;
  });
  const published = store.publishedRefs().filter(matches);
  if (published.length === 0) return found;
  // Published items are few: merge them in and cut again.
  const keyed = [...found, ...published].map((ref) => ({ ref, s: store.summary(ref) }));
  keyed.sort((a, b) => b.s.day - a.s.day || b.s.id - a.s.id);
  return keyed.slice(0, RESULT_CAP).map((k) => k.ref);
}

/** The `count` DJEN reports for a query with `total` results (see the header). */
export function reportedCount(q: DjenQuery, total: number): number {
  const narrowed = q.numeroOab || q.numeroProcesso || q.nomeParte || q.nomeAdvogado || q.texto;
  if (q.siglaTribunal && q.inicio !== null && q.inicio === q.fim && !narrowed) return RESULT_CAP;
  return q.itensPorPagina <= 100 ? total : q.itensPorPagina;
}

export interface QueryPage {
  count: number;
  total: number;
  items: Communication[];
}

/**
 * The matches of the last few queries, so paging through 10,000 results costs one scan, not one per
 * page. Keyed by the query without its page, the day and the store's version (publications).
 */
export class QueryCache {
  readonly #entries = new Map<string, Ref[]>();
  readonly #max: number;

  constructor(max = 16) {
    this.#max = max;
  }

  refs(store: DjenStore, q: DjenQuery, today: number): Ref[] {
    const key = JSON.stringify([{ ...q, pagina: 0, itensPorPagina: 0 }, today, store.version]);
    let refs = this.#entries.get(key);
    if (refs) this.#entries.delete(key);
    else refs = matchingRefs(store, q, today);
    this.#entries.set(key, refs);
    while (this.#entries.size > this.#max) this.#entries.delete(this.#entries.keys().next().value!);
    return refs;
  }
}

export function runQuery(store: DjenStore, q: DjenQuery, today: number, cache?: QueryCache): QueryPage {
  const refs = cache ? cache.refs(store, q, today) : matchingRefs(store, q, today);
  const start = (q.pagina - 1) * q.itensPorPagina;
  const page = start >= refs.length ? [] : refs.slice(start, start + q.itensPorPagina);
  return { count: reportedCount(q, refs.length), total: refs.length, items: page.map((ref) => store.resolve(ref)) };
}
