/**
 * OAB (Ordem dos Advogados do Brasil) registration: a section (one of the 27 UFs) and a number of up
 * to 7 digits, optionally followed by one letter (e.g. A, B, E, N, P: supplementary, transferred,
 * trainee... registrations; see Regulamento Geral do Estatuto da Advocacia). There is no check digit.
 * Spellings accepted (any case): `SP123456`, `SP 123456`, `SP-123456`, `OAB/SP 123.456`,
 * `OAB SP 123456`, `OAB/SP nº 123.456`, `123456/SP`, `123456-SP`, `123.456/SP`, `123456SP`,
 * `123456-A/SP`, `SP123456A`, and the letter forms the STF prints (reference/upstream/real/README.md
 * §6): `29202-A/MA`, `35109 A/PB`, `1520 - A/RN`, `23765A/AL` and, letter first, `A2372/AM`.
 * Canonical form: UF + number without leading zeros + letter, e.g. `SP123456`, `SP123456A`; a letter
 * printed before the number is the same letter (`A2372/AM` is `AM2372A`). A lettered registration is
 * another registration than the bare number: `MA29202A` is not `MA29202`.
 */
import { identifierError, quoted } from './error.ts';
import { isUf } from './uf.ts';

export interface Oab {
  uf: string;
  /** Digits, leading zeros stripped. */
  numero: string;
  /** One letter when present (e.g. 'A', 'E'). */
  suffix?: string;
  /** `SP123456` / `SP123456A` */
  canonical: string;
}

/** A number: plain digits or thousands-grouped with dots ("123.456"). */
const NUM = String.raw`(\d{1,3}(?:\.\d{3})+|\d+)`;
const SEP = String.raw`[\s/-]*`;
const SUFFIX = String.raw`(?:(?:\s*-\s*|\s)?([A-Z]))?`;
/**
 * The letter printed before the number (`A2372/AM`), number first only. `\s*(?:-\s*)?` reads what
 * `\s*-?\s*` would, without trying every way to share a run of blanks between two `\s*` (quadratic).
 */
const PREFIX = String.raw`(?:([A-Z])\s*(?:-\s*)?)?`;
/** "OAB/SP nº 123.456", as publications write it. */
const ORDINAL = String.raw`(?:N[º°.]\s*)?`;
const UF_FIRST = new RegExp(`^([A-Z]{2})${SEP}${ORDINAL}${NUM}${SUFFIX}$`);
const NUMBER_FIRST = new RegExp(`^${PREFIX}${NUM}${SUFFIX}${SEP}([A-Z]{2})$`);
const EXAMPLES = 'e.g. SP123456, 123456/SP or OAB/SP 123.456';

function build(uf: string, rawNumber: string, suffix: string | undefined, fail: (m: string) => Error): Oab {
  if (!isUf(uf)) throw fail(`unknown UF ${JSON.stringify(uf)}; expected one of the 27 Brazilian UFs`);
  const numero = rawNumber.replace(/\./g, '').replace(/^0+/, '');
  if (numero === '') throw fail('the number is zero');
  if (numero.length > 7) throw fail(`the number has ${numero.length} digits; expected at most 7`);
  return { uf, numero, ...(suffix ? { suffix } : {}), canonical: `${uf}${numero}${suffix ?? ''}` };
}

/** Parses one OAB string in any of the spellings above; throws INVALID_OAB. */
export function parseOab(input: unknown, field?: string): Oab {
  if (typeof input !== 'string') throw identifierError('INVALID_OAB', 'OAB must be a string.', input, field);
  const text = input.trim().toUpperCase();
  const fail = (why: string) => identifierError('INVALID_OAB', `OAB ${quoted(text)}: ${why}.`, input, field);
  if (text === '') throw identifierError('INVALID_OAB', 'OAB is empty.', input, field);
  const rest = text.replace(/^OAB[\s/:-]*/, '');
  const ufFirst = UF_FIRST.exec(rest);
  if (ufFirst) return build(ufFirst[1], ufFirst[2], ufFirst[3], fail);
  const numberFirst = NUMBER_FIRST.exec(rest);
  if (numberFirst) {
    const [, prefix, number, suffix, uf] = numberFirst;
    if (prefix && suffix) throw fail('a letter both before and after the number');
    return build(uf, number, prefix ?? suffix, fail);
  }
  throw fail(`expected a UF and a number, ${EXAMPLES}`);
}

/**
 * For APIs that take the UF and the number as separate fields (e.g. `oab_estado`, `oab_numero`).
 * The number may be a string ("123456", "123.456", "123456-A") or a non-negative integer. `field`
 * names both fields in error details, or pass `{ uf, numero }` to name each.
 */
export function parseOabParts(uf: unknown, numero: unknown, field?: string | { uf?: string; numero?: string }): Oab {
  const fieldOf = (part: 'uf' | 'numero') => (typeof field === 'string' ? field : field?.[part]);
  const value = { uf, numero };
  if (typeof uf !== 'string') throw identifierError('INVALID_OAB', 'OAB UF must be a string.', value, fieldOf('uf'));
  const ufText = uf.trim().toUpperCase();
  if (!isUf(ufText)) {
    throw identifierError('INVALID_OAB', `OAB UF ${quoted(ufText)} is not one of the 27 Brazilian UFs.`, value, fieldOf('uf'));
  }
  const numText = typeof numero === 'number' && Number.isSafeInteger(numero) && numero >= 0 ? String(numero) : numero;
  if (typeof numText !== 'string') throw identifierError('INVALID_OAB', 'OAB number must be a string or a non-negative integer.', value, fieldOf('numero'));
  const m = new RegExp(`^${NUM}${SUFFIX}$`).exec(numText.trim().toUpperCase());
  const fail = (why: string) => identifierError('INVALID_OAB', `OAB number ${quoted(numText.trim())}: ${why}.`, value, fieldOf('numero'));
  if (!m) throw fail('expected up to 7 digits, optionally followed by one letter');
  return build(ufText, m[1], m[2], fail);
}

/** `OABs`, `OAB's` before a list (and a `:`); a singular `OAB` stays with its item, parseOab reads it. */
const LIST_LEAD = /^OAB['’]?S(?=[\s(:])\s*:?\s*/i;

/**
 * Every registration in one text that lists one or several, as the STF's `identificacoes` print them
 * (reference/upstream/real/README.md §6): `OAB 27882/PA`, `OAB 076166/RJ`, or
 * `OAB's (31442/DF, 83471/MG, 29202-A/MA)`; items separated by `,` or `;`, each in any spelling
 * parseOab reads. Each registration once (canonical), in the order printed; what is not one is
 * returned apart in `unread`, never thrown.
 */
export function parseOabList(input: string): { oabs: Oab[]; unread: string[] } {
  let text = input.trim().replace(LIST_LEAD, '');
  const wrapped = /^\((.*)\)$/s.exec(text);
  if (wrapped) text = wrapped[1];
  const oabs = new Map<string, Oab>();
  const unread: string[] = [];
  for (const piece of text
    .split(/[,;]/)
    .map((p) => p.trim())
    .filter(Boolean)) {
    try {
      const oab = parseOab(piece);
      if (!oabs.has(oab.canonical)) oabs.set(oab.canonical, oab);
    } catch {
      unread.push(piece);
    }
  }
  return { oabs: [...oabs.values()], unread };
}

/** "SP123456" → { uf: 'SP', numero: '123456' }; an unreadable registration becomes null, not a failure. */
export function oabOf(text: string | null): { uf: string; numero: string } | null {
  if (text === null || text.trim() === '') return null;
  try {
    const oab = parseOab(text);
    return { uf: oab.uf, numero: `${oab.numero}${oab.suffix ?? ''}` };
  } catch {
    return null;
  }
}
