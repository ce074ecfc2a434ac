/**
 * What a radar looks for, and whether a case is a hit (spec §4.8). Pure functions: the term (a
 * CPF/CNPJ, or a name and its variations) decides which parties correspond; the filters (courts,
 * classes, required and forbidden words) decide whether the case is reported at all.
 */
import type { RadarsTable } from '../../platform/db/schema.ts';
import { ApiError } from '../../platform/errors.ts';
import { parseCnj } from '../../platform/identifiers/cnj.ts';
import { formatCnpj, formatCpf, parseCpfCnpj } from '../../platform/identifiers/cpf-cnpj.ts';
import { foldText } from '../../platform/text.ts';
import { isParty, type PartyRecord } from '../../platform/ports/case-details.ts';
import { courtByJTr, courtBySigla } from '../../platform/courts/table.ts';
import type { StoredCase } from '../processes/parts.ts';

export type RadarKind = RadarsTable['tipo'];

export interface RadarTerm {
  tipo: RadarKind;
  /** As shown: the name trimmed, or the document masked. */
  termo: string;
  /** The bare document, or the folded name. */
  normalizado: string;
}

/** The matching rules of one radar, decoded from its row. */
export interface RadarCriteria {
  tipo: RadarKind;
  normalizado: string;
  variacoes: string[];
  tribunais: string[];
  classes: string[];
  termosObrigatorios: string[];
  termosProibidos: string[];
}

export interface Correspondence {
  nome: string;
  /** Bare digits (masked only in views). */
  documento: string | null;
  polo: string;
  tipo: string;
}

const MIN_NAME_WORDS = 2;
const MIN_NAME_LETTERS = 5;

/** A CPF/CNPJ when the text is one; otherwise a name long enough not to match half the country. */
export function parseTerm(raw: string, field = 'termo'): RadarTerm {
  const text = raw.trim();
  try {
    const doc = parseCpfCnpj(text, field);
    return { tipo: doc.kind === 'cpf' ? 'CPF' : 'CNPJ', termo: doc.masked, normalizado: doc.value };
  } catch (err) {
    // Only digits and a mask's punctuation: it was meant as a document, so its precise error is the answer.
    if (/^[\d\s./-]+$/.test(text)) throw err;
  }
  return { tipo: 'NOME', termo: text.replace(/\s+/g, ' '), normalizado: checkName(text, field, 'a valid CPF/CNPJ or ') };
}

/** The folded name, or 400 INVALID_PARAMETER naming the field. */
export function checkName(text: string, field: string, alternative = ''): string {
  const folded = foldText(text);
  const words = folded.split(' ').filter(Boolean);
  const letters = folded.replace(/[^\p{L}]/gu, '').length;
  if (words.length < MIN_NAME_WORDS || letters < MIN_NAME_LETTERS) {
    throw new ApiError('INVALID_PARAMETER', `"${field}" must be ${alternative}a name of at least ${MIN_NAME_WORDS} words and ${MIN_NAME_LETTERS} letters.`, {
      field,
      in: 'body',
    });
  }
  return folded;
}

/** Court siglas in their canonical spelling; an unknown one is 400 naming it. */
export function normalizeCourts(siglas: readonly string[]): string[] {
  return unique(
    siglas.map((sigla, i) => {
      const court = courtBySigla(sigla);
      if (!court)
        throw new ApiError('INVALID_PARAMETER', `"${sigla}" is not a court sigla (see GET /v1/tribunais).`, {
          field: `tribunais.${i}`,
          in: 'body',
          value: sigla,
        });
      return court.sigla;
    }),
  );
}

/** Trimmed, deduplicated words; one that folds to nothing is 400 naming it. */
export function normalizeWords(words: readonly string[], field: string): string[] {
  return unique(
    words.map((w, i) => {
      if (foldText(w) === '') throw new ApiError('INVALID_PARAMETER', `"${field}.${i}" has no letter or digit.`, { field: `${field}.${i}`, in: 'body' });
      return w.trim().replace(/\s+/g, ' ');
    }),
  );
}

export function criteriaOf(r: RadarsTable): RadarCriteria {
  return {
    tipo: r.tipo,
    normalizado: r.termo_normalizado,
    variacoes: JSON.parse(r.variacoes),
    tribunais: JSON.parse(r.tribunais),
    classes: JSON.parse(r.classes),
    termosObrigatorios: JSON.parse(r.termos_obrigatorios),
    termosProibidos: JSON.parse(r.termos_proibidos),
  };
}

/** The names a name radar searches: its term and each variation, folded, without repeats. */
export function searchedNames(c: RadarCriteria): string[] {
  return unique([c.normalizado, ...c.variacoes.map(foldText)]);
}

/** False only when the number's own court is known and outside the radar's courts (saves a fetch). */
export function mayBeInCourts(numeroCnj: string, c: RadarCriteria): boolean {
  if (c.tribunais.length === 0) return true;
  try {
    const cnj = parseCnj(numeroCnj);
    const court = courtByJTr(cnj.segment, cnj.tribunal);
    return !court || c.tribunais.includes(court.sigla);
  } catch {
    return true;
  }
}

/** The parties of the case the radar is about (by document, or by every word of the name or of a variation). */
export function correspondences(caso: StoredCase, c: RadarCriteria): Correspondence[] {
  const names = c.tipo === 'NOME' ? searchedNames(c).map(words) : [];
  const matches = (p: PartyRecord) =>
    c.tipo === 'NOME' ? names.some((n) => isSubset(n, new Set(words(foldText(p.nome))))) : p.documento?.toUpperCase() === c.normalizado;
  return (caso.partes ?? []).filter((p) => isParty(p) && matches(p)).map((p) => ({ nome: p.nome, documento: p.documento, polo: p.polo, tipo: p.tipo }));
}

/** Whether the case passes the radar's courts, classes and required / forbidden words. */
export function passesFilters(caso: StoredCase, c: RadarCriteria): boolean {
  if (c.tribunais.length > 0 && !c.tribunais.includes(courtBySigla(caso.row.tribunal)?.sigla ?? caso.row.tribunal.toUpperCase())) return false;
  if (c.classes.length > 0 && !caso.instancias.some((i) => i.classe && c.classes.some((k) => classMatches(k, i.classe!)))) return false;
  if (c.termosObrigatorios.length === 0 && c.termosProibidos.length === 0) return true;
  const text = ` ${caseText(caso)} `;
  const has = (term: string) => text.includes(` ${foldText(term)} `);
  return c.termosObrigatorios.every(has) && !c.termosProibidos.some(has);
}

/** Folded text of the parties, classes and subjects: what required and forbidden words are looked for in. */
export function caseText(caso: StoredCase): string {
  const parts = [...(caso.partes ?? []).map((p) => p.nome), ...caso.instancias.flatMap((i) => [i.classe?.nome ?? '', ...i.assuntos.map((a) => a.nome)])];
  return foldText(parts.join(' | '));
}

function classMatches(filter: string, classe: { codigo: string; nome: string }): boolean {
  return /^\d+$/.test(filter.trim()) ? filter.trim() === String(classe.codigo) : foldText(filter) === foldText(classe.nome);
}

/** A document as shown: CPF or CNPJ masked. */
export function maskDocument(doc: string | null): string | null {
  if (doc === null) return null;
  return doc.length === 11 ? formatCpf(doc) : doc.length === 14 ? formatCnpj(doc) : doc;
}

function words(folded: string): string[] {
  return folded.split(' ').filter(Boolean);
}

function isSubset(needles: string[], hay: Set<string>): boolean {
  return needles.every((w) => hay.has(w));
}

function unique<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}

/**
 * Whether new criteria may report cases the old ones excluded (more names, more courts or classes,
 * fewer required or forbidden words). Such cases are not news, so the next check is a baseline.
 */
export function widens(before: RadarCriteria, after: RadarCriteria): boolean {
  const folded = (xs: string[]) => new Set(xs.map(foldText));
  const adds = (a: string[], b: string[]) => {
    const old = folded(a);
    return [...folded(b)].some((x) => !old.has(x));
  };
  const loosens = (a: string[], b: string[]) => a.length > 0 && (b.length === 0 || adds(a, b));
  return (
    adds(before.variacoes, after.variacoes) ||
    loosens(before.tribunais, after.tribunais) ||
    loosens(before.classes, after.classes) ||
    adds(after.termosObrigatorios, before.termosObrigatorios) ||
    adds(after.termosProibidos, before.termosProibidos)
  );
}
