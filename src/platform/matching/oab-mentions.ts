/**
 * OAB registrations printed in a publication's text, read from the words `FoldedText` produced (no
 * second pass over the text, no regular expression per publication).
 *
 * The grammar is the one of platform/identifiers/oab.ts — a UF (`isUf`) and a number of up to 7
 * digits after leading zeros are stripped (thousands dots allowed: `123.456`), optionally one suffix
 * letter, UF first or number first — with the canonical form of that module (`SP123456`,
 * `SP123456A`; see `oabKeyCanonical`, tested against `parseOab`). In running text a UF is often an
 * ordinary word (`SE`, `PA`, `AM`, `TO`) and numbers are everywhere (dates, CNJ numbers), so the
 * separators that oab.ts accepts in a field are narrowed to the ones courts print:
 *
 * - after the word `OAB` (any separators, and up to four filler words `nº`, `n.`, `sob`, `o`,
 *  `número`): `OAB RS062492`, `(OAB RS900000)`, `OAB/RS 62.492`, `OAB/SP nº 123.456`,
 *  `OAB-SP 123456-A`, `OAB: SP 123456`, `OAB/SP sob o nº 123.456`, `OAB 62.492/RS`, `OAB nº 62492 RS`;
 * - without it, the UF glued to the number (`RS062492`, `SP123456A`, `123456SP`; at least 4 digits),
 *  or — only with a lawyer word (`advogado(a)(s)`, `adv`, `dr(a)`, `OAB`) among the 12 words
 *  before, or a mention among them with no tag in between (a list of lawyers) — the UF then `-` then
 *  the number (`RS-62492`, at least 4 digits), or the number (at least 3 digits) then `/` or `-` then
 *  the UF (`62492/RS`, `62.492-RS`, `123456-A/SP`, `123.456A/SP`, `62492 / RS`). That context keeps out jurisprudence (`REsp 1.234.567/SP`, `HC 123.456/RS`)
 *  and highways (`SP-348`),
 *  and a number right after a case class (`REsp`, `HC`, `AgRg`…) is never one;
 * - a suffix letter is read only when glued (`123456A`) or after a `-` (`123456-A`): after a space it
 *  is prose (`OAB/RS 12345 e OAB/SC 678`);
 * - a number glued by `.`, `/` or `-` to more digits on either side is part of something else (a CNJ
 *  number `5004073-05.2025.4.04.7113/RS`, a date `15/09/2026`) and is never an OAB.
 *
 * Mentions are numeric keys (`oabKey`) so the matcher can look them up without building strings.
 */
import { UFS, isUf } from '../identifiers/uf.ts';
import { FoldedText, KIND_DIGITS, KIND_LETTERS, KIND_MIXED, SEP_DASH, SEP_DOT, SEP_SLASH, SEP_TAG, SEP_WS } from './fold.ts';

const MAX_DIGITS = 7;
/** Significant digits needed without the word OAB: glued to the UF (`RS0062`), or separated from it. */
const MIN_DIGITS_GLUED = 4;
const MIN_DIGITS_SEPARATED = 3;
/** How far back (in words) a lawyer word makes a separated keyword-less spelling an OAB. */
const CONTEXT_WORDS = 12;
/** Zero-padded spellings (`RS0062492`) are accepted up to this many printed digits. */
const MAX_PRINTED_DIGITS = 9;

/** UF index (0..26, the order of `UFS`) + 1 for each pair of lower-case ASCII letters; 0 when not a UF. */
const UF_OF_PAIR = new Uint8Array(26 * 26);
UFS.forEach((uf, i) => {
  if (!isUf(uf)) throw new Error(`uf.ts: ${uf} is not a UF`);
  UF_OF_PAIR[(uf.charCodeAt(0) - 65) * 26 + (uf.charCodeAt(1) - 65)] = i + 1;
});

/**
 * Numeric key of a registration: ((ufIndex × 10⁷) + number) × 27 + suffix (0 = none, 1..26 = A..Z).
 * Below 2⁵³, so a plain number (Map key) with no string built.
 */
export function oabKey(ufIndex: number, numero: number, suffix: number): number {
  return (ufIndex * 10_000_000 + numero) * 27 + suffix;
}

/** `SP123456`, `SP123456A`: the canonical form of platform/identifiers/oab.ts. */
export function oabKeyCanonical(key: number): string {
  const suffix = key % 27;
  const rest = (key - suffix) / 27;
  const numero = rest % 10_000_000;
  const uf = (rest - numero) / 10_000_000;
  return `${UFS[uf]}${numero}${suffix ? String.fromCharCode(64 + suffix) : ''}`;
}

/**
 * The key of a structured OAB `{ uf, numero }` (numero = digits, leading zeros allowed, optional
 * suffix letter, as in `PublicationLawyer`), or -1 when it is not a valid registration.
 */
export function oabKeyOfParts(uf: string, numero: string): number {
  if (uf.length !== 2) return -1;
  const u = ufIndexOf(uf.charCodeAt(0) | 32, uf.charCodeAt(1) | 32);
  if (u < 0) return -1;
  let value = 0;
  let significant = 0;
  let i = 0;
  for (; i < numero.length; i++) {
    const c = numero.charCodeAt(i);
    if (c === 46 /* . */) continue;
    if (c < 48 || c > 57) break;
    if (significant > 0 || c !== 48) {
      value = value * 10 + (c - 48);
      significant++;
    }
  }
  if (significant === 0 || significant > MAX_DIGITS) return -1;
  let suffix = 0;
  if (i < numero.length) {
    if (numero.charCodeAt(i) === 45 /* - */) i++;
    const l = numero.charCodeAt(i) | 32;
    if (i !== numero.length - 1 || l < 97 || l > 122) return -1;
    suffix = l - 96;
  }
  return oabKey(u, value, suffix);
}

/**
 * Whether word i can take part in an OAB mention at all (a mixed word, a UF, `oab`): a cheap test
 * that spares `oabMentionAt` the ordinary short words (`de`, `do`, `a`).
 */
export function oabCandidate(t: FoldedText, i: number): boolean {
  const kind = t.kind[i];
  if (kind === KIND_MIXED) return true;
  if (kind !== KIND_LETTERS) return false;
  const s = t.start[i];
  const len = t.end[i] - s;
  const c = t.chars;
  if (len === 2) {
    const a = c[s] - 97;
    const b = c[s + 1] - 97;
    return a >= 0 && a < 26 && b >= 0 && b < 26 && UF_OF_PAIR[a * 26 + b] !== 0;
  }
  return len === 3 && c[s] === 111 && c[s + 1] === 97 && c[s + 2] === 98;
}

/** UF index for two lower-case letter codes, or -1. */
function ufIndexOf(a: number, b: number): number {
  if (a < 97 || a > 122 || b < 97 || b > 122) return -1;
  return UF_OF_PAIR[(a - 97) * 26 + (b - 97)] - 1;
}

// Results of the number readers, in module variables (no allocation per mention).
let numValue = 0;
let numLast = 0;
let numFirst = 0;
let numSignificant = 0;
let numSuffix = 0;

/** The separator before word i is exactly one character, of this kind. */
function glued(t: FoldedText, i: number, flag: number): boolean {
  return t.sepCount[i] === 1 && t.sepFlags[i] === flag;
}

/** The separator before word i is one `.`, `/` or `-` (a word glued to the previous one). */
function gluedPunct(t: FoldedText, i: number): boolean {
  if (t.sepCount[i] !== 1) return false;
  const f = t.sepFlags[i];
  return f === SEP_DOT || f === SEP_SLASH || f === SEP_DASH;
}

function startsWithDigit(t: FoldedText, i: number): boolean {
  const c = t.chars[t.start[i]];
  return c >= 48 && c <= 57;
}

function endsWithDigit(t: FoldedText, i: number): boolean {
  const c = t.chars[t.end[i] - 1];
  return c >= 48 && c <= 57;
}

/** Adds the digits chars[from..to) to numValue; false when there are too many. */
function addDigits(chars: Uint16Array, from: number, to: number): boolean {
  if (to - from > MAX_PRINTED_DIGITS) return false;
  for (let q = from; q < to; q++) {
    const d = chars[q] - 48;
    if (numSignificant > 0 || d !== 0) {
      numValue = numValue * 10 + d;
      if (++numSignificant > MAX_DIGITS) return false;
    }
  }
  return true;
}

/**
 * Reads a number forward from word i (digits, `123.456` groups), then an optional suffix letter
 * (glued `123456A` or after `-`). Sets numValue/numSignificant/numSuffix/numLast; false when there is
 * no valid number, or when it is glued to more digits (`15/09/2026`, `2025.4.04`).
 */
function readNumberForward(t: FoldedText, i: number): boolean {
  const count = t.count;
  const chars = t.chars;
  numValue = 0;
  numSignificant = 0;
  numSuffix = 0;
  const kind = t.kind[i];
  let last = i;
  if (kind === KIND_MIXED) {
    // `123456a`: digits then exactly one letter.
    const s = t.start[i];
    const e = t.end[i];
    let q = s;
    while (q < e && chars[q] >= 48 && chars[q] <= 57) q++;
    if (q === s || e - q !== 1) return false;
    if (!addDigits(chars, s, q)) return false;
    numSuffix = letterCode(chars[q]);
    if (numSuffix === 0) return false;
  } else {
    if (kind !== KIND_DIGITS) return false;
    const len = t.end[i] - t.start[i];
    if (!addDigits(chars, t.start[i], t.end[i])) return false;
    // Thousands groups: 1–3 digits, then ".ddd" groups.
    if (len <= 3) {
      while (last + 1 < count && glued(t, last + 1, SEP_DOT)) {
        const g = last + 1;
        const gs = t.start[g];
        const glen = t.end[g] - gs;
        if (t.kind[g] === KIND_DIGITS && glen === 3) {
          last = g;
          if (!addDigits(chars, gs, gs + 3)) return false;
        } else if (t.kind[g] === KIND_MIXED && glen === 4 && chars[gs] <= 57 && chars[gs + 1] <= 57 && chars[gs + 2] <= 57 && letterCode(chars[gs + 3]) > 0) {
          // The last group with the suffix glued: `123.456A`.
          last = g;
          if (!addDigits(chars, gs, gs + 3)) return false;
          numSuffix = letterCode(chars[gs + 3]);
          break;
        } else break;
      }
    }
    // Suffix after a dash: `123456-A` (one letter, then not more letters glued).
    const s = last + 1;
    if (numSuffix === 0 && s < count && glued(t, s, SEP_DASH) && t.kind[s] === KIND_LETTERS && t.end[s] - t.start[s] === 1) {
      const code = letterCode(chars[t.start[s]]);
      if (code > 0) {
        numSuffix = code;
        last = s;
      }
    }
  }
  if (numSignificant === 0) return false;
  // Glued to more digits after it: part of a date, a CNJ number, a decimal.
  const after = last + 1;
  if (after < count && gluedPunct(t, after) && startsWithDigit(t, after)) return false;
  numFirst = i;
  numLast = last;
  return true;
}

/**
 * Reads a number that ends at word e (the word before the UF, or before the suffix), backwards over
 * thousands groups. Same outputs as readNumberForward, numFirst set; false when glued to more digits
 * before it (`…4.04.7113/RS`).
 */
function readNumberBackward(t: FoldedText, e: number, suffix: number): boolean {
  const chars = t.chars;
  let first = e;
  let len = t.end[e] - t.start[e];
  let lastTo = t.end[e];
  if (t.kind[e] === KIND_MIXED) {
    // `456a`: digits then one letter, the suffix.
    if (suffix !== 0 || len < 2) return false;
    suffix = letterCode(chars[t.end[e] - 1]);
    if (suffix === 0) return false;
    lastTo--;
    len--;
    for (let q = t.start[e]; q < lastTo; q++) if (chars[q] < 48 || chars[q] > 57) return false;
  } else if (t.kind[e] !== KIND_DIGITS) return false;
  if (len === 3) {
    let q = e;
    while (q > 0 && glued(t, q, SEP_DOT) && t.kind[q - 1] === KIND_DIGITS) {
      const l = t.end[q - 1] - t.start[q - 1];
      if (l === 3) {
        q--;
        continue;
      }
      if (l < 3) q--;
      else return false; // "2025.123": not a thousands grouping
      break;
    }
    // A run of 3-digit groups must start with a 1–3 digit group: q is that group.
    first = q;
  }
  if (first > 0 && gluedPunct(t, first) && endsWithDigit(t, first - 1)) return false;
  numValue = 0;
  numSignificant = 0;
  for (let w = first; w <= e; w++) if (!addDigits(chars, t.start[w], w === e ? lastTo : t.end[w])) return false;
  if (numSignificant === 0) return false;
  numSuffix = suffix;
  numFirst = first;
  numLast = e;
  return true;
}

function letterCode(c: number): number {
  return c >= 97 && c <= 122 ? c - 96 : 0;
}

function isUfWord(t: FoldedText, i: number): number {
  if (t.kind[i] !== KIND_LETTERS || t.end[i] - t.start[i] !== 2) return -1;
  const s = t.start[i];
  return ufIndexOf(t.chars[s], t.chars[s + 1]);
}

function isOabWord(t: FoldedText, i: number): boolean {
  const s = t.start[i];
  return t.end[i] - s === 3 && t.chars[s] === 111 && t.chars[s + 1] === 97 && t.chars[s + 2] === 98;
}

/** `n`, `no` (nº), `nr`, `num`, `numero`, `sob`, `o`: words between `OAB/SP` and the number. */
function isFiller(t: FoldedText, i: number): boolean {
  if (t.kind[i] !== KIND_LETTERS) return false;
  const s = t.start[i];
  const c = t.chars;
  switch (t.end[i] - s) {
    case 1:
      return c[s] === 110 || c[s] === 111; // n, o
    case 2:
      return c[s] === 110 && (c[s + 1] === 111 || c[s + 1] === 114); // no, nr
    case 3:
      return (c[s] === 110 && c[s + 1] === 117 && c[s + 2] === 109) || (c[s] === 115 && c[s + 1] === 111 && c[s + 2] === 98); // num, sob
    case 6:
      return c[s] === 110 && c[s + 1] === 117 && c[s + 2] === 109 && c[s + 3] === 101 && c[s + 4] === 114 && c[s + 5] === 111; // numero
    default:
      return false;
  }
}

/**
 * A mixed word read as a whole registration: `rs062492`, `sp123456a` (UF first) or `123456sp`
 * (number first). Returns the key or -1; `minDigits` is 1 after the word OAB, 3 without it.
 */
function mixedWord(t: FoldedText, i: number, minDigits: number): number {
  const c = t.chars;
  const s = t.start[i];
  const e = t.end[i];
  let q = s;
  while (q < e && !(c[q] >= 48 && c[q] <= 57)) q++;
  const lettersBefore = q - s;
  const digitsFrom = q;
  while (q < e && c[q] >= 48 && c[q] <= 57) q++;
  const digitsTo = q;
  const lettersAfter = e - q;
  let uf: number;
  let suffix = 0;
  if (lettersBefore === 2 && lettersAfter <= 1) {
    uf = ufIndexOf(c[s], c[s + 1]);
    if (lettersAfter === 1) {
      suffix = letterCode(c[e - 1]);
      if (suffix === 0) return -1;
    }
  } else if (lettersBefore === 0 && lettersAfter === 2) {
    uf = ufIndexOf(c[e - 2], c[e - 1]);
  } else return -1;
  if (uf < 0) return -1;
  for (let r = digitsFrom; r < digitsTo; r++) if (c[r] < 48 || c[r] > 57) return -1;
  numValue = 0;
  numSignificant = 0;
  if (!addDigits(c, digitsFrom, digitsTo) || numSignificant < minDigits) return -1;
  // Glued to digits around it: part of some code, not a registration.
  if (i > 0 && gluedPunct(t, i) && endsWithDigit(t, i - 1)) return -1;
  if (i + 1 < t.count && gluedPunct(t, i + 1) && startsWithDigit(t, i + 1)) return -1;
  // UF first then `-A`: `SP123456-A`.
  if (
    lettersBefore === 2 &&
    suffix === 0 &&
    i + 1 < t.count &&
    glued(t, i + 1, SEP_DASH) &&
    t.kind[i + 1] === KIND_LETTERS &&
    t.end[i + 1] - t.start[i + 1] === 1
  ) {
    suffix = letterCode(c[t.start[i + 1]]);
  }
  return oabKey(uf, numValue, suffix);
}

/** `nº123456` folded to one word (`no123456`, `n123456`): the ordinal glued to the number. */
function ordinalGlued(t: FoldedText, j: number, uf: number): number {
  const c = t.chars;
  const s = t.start[j];
  const e = t.end[j];
  if (c[s] !== 110 /* n */) return -1;
  const from = c[s + 1] === 111 /* o */ ? s + 2 : s + 1;
  for (let q = from; q < e; q++) if (c[q] < 48 || c[q] > 57) return -1;
  numValue = 0;
  numSignificant = 0;
  if (from === e || !addDigits(c, from, e) || numSignificant === 0) return -1;
  if (j + 1 < t.count && gluedPunct(t, j + 1) && startsWithDigit(t, j + 1)) return -1;
  numLast = j;
  return oabKey(uf, numValue, 0);
}

/** After the word OAB at k: `OAB/SP [nº] 123.456[-A]`, `OAB SP123456`, `OAB [nº] 123.456[-A]/SP`. */
function afterKeyword(t: FoldedText, k: number): number {
  const count = t.count;
  let j = k + 1;
  if (j >= count || (t.sepFlags[j] & SEP_TAG) !== 0) return -1;
  if (t.kind[j] === KIND_MIXED && !startsWithDigit(t, j)) return mixedWord(t, j, 1);
  const uf = isUfWord(t, j);
  if (uf >= 0) {
    j++;
    for (let f = 0; f < 4 && j < count && isFiller(t, j); f++) j++;
    if (j >= count || (t.sepFlags[j] & SEP_TAG) !== 0) return -1;
    if (t.kind[j] === KIND_MIXED && !startsWithDigit(t, j)) return ordinalGlued(t, j, uf);
    if (!readNumberForward(t, j)) return -1;
    return oabKey(uf, numValue, numSuffix);
  }
  for (let f = 0; f < 4 && j < count && isFiller(t, j); f++) j++;
  if (j >= count) return -1;
  if (t.kind[j] === KIND_MIXED && startsWithDigit(t, j)) {
    const key = mixedWord(t, j, 1);
    if (key >= 0) return key;
  }
  if (!readNumberForward(t, j)) return -1;
  const u = numLast + 1;
  if (u >= count || (t.sepFlags[u] & SEP_TAG) !== 0) return -1;
  const ufAfter = isUfWord(t, u);
  return ufAfter < 0 ? -1 : oabKey(ufAfter, numValue, numSuffix);
}

function hasPrefix(t: FoldedText, i: number, prefix: string): boolean {
  const s = t.start[i];
  if (t.end[i] - s < prefix.length) return false;
  for (let q = 0; q < prefix.length; q++) if (t.chars[s + q] !== prefix.charCodeAt(q)) return false;
  return true;
}

function isWord(t: FoldedText, i: number, word: string): boolean {
  return t.end[i] - t.start[i] === word.length && hasPrefix(t, i, word);
}

// The last mention found (its text, that text's scan generation, its last word): in a list of lawyers
// ("ADV: A (62492/RS), B (12345/RS), C (…)") each mention is the next one's context.
let lastText = 0;
let lastGeneration = -1;
let lastEnd = -1;

/** A lawyer word, or the end of a mention, among the CONTEXT_WORDS words before word i. */
function lawyerContext(t: FoldedText, i: number): boolean {
  if (lastText === t.id && lastGeneration === t.generation && lastEnd < i && lastEnd >= i - CONTEXT_WORDS) {
    let tag = false;
    for (let w = lastEnd + 1; w <= i; w++) if ((t.sepFlags[w] & SEP_TAG) !== 0) tag = true;
    if (!tag) return true;
  }
  for (let w = i - 1; w >= 0 && w >= i - CONTEXT_WORDS; w--) {
    if (t.kind[w] !== KIND_LETTERS) continue;
    if (hasPrefix(t, w, 'advogad') || isWord(t, w, 'oab') || isWord(t, w, 'adv') || isWord(t, w, 'advs') || isWord(t, w, 'dr') || isWord(t, w, 'dra'))
      return true;
  }
  return false;
}

/** Case classes cited with a number and a UF (`REsp 1.234.567/SP`, `HC 123.456/RS`, `AgRg no AREsp …`). */
const CASE_CLASSES = new Set([
  'resp',
  'aresp',
  're',
  'are',
  'hc',
  'rhc',
  'ms',
  'rms',
  'ai',
  'ag',
  'agrg',
  'agint',
  'edcl',
  'eresp',
  'adi',
  'adc',
  'ado',
  'adpf',
  'rcl',
  'cc',
  'ap',
  'ac',
  'pet',
  'inq',
  'mi',
  'ri',
  'rr',
  'airr',
  'ext',
  'sl',
  'ss',
  'stp',
  'tp',
  'sirdr',
]);

/** The word before the number (an `nº` skipped) is a case class: a case cited, not a lawyer. */
function caseClassBefore(t: FoldedText, first: number): boolean {
  let w = first - 1;
  if (w >= 0 && (isWord(t, w, 'n') || isWord(t, w, 'no'))) w--;
  if (w < 0 || t.kind[w] !== KIND_LETTERS || t.end[w] - t.start[w] > 5) return false;
  return CASE_CLASSES.has(t.word(w));
}

/** Only a `/` or a `-` (with spaces around it or not) before word i. */
function slashOrDash(t: FoldedText, i: number): boolean {
  const f = t.sepFlags[i] & ~SEP_WS;
  return (f === SEP_SLASH || f === SEP_DASH) && t.sepCount[i] <= 3;
}

/**
 * The registration that word i starts or ends, or -1. Call it for every word, in order (a mention is
 * context for the next one); a mention may be found from more than one of its words (the caller
 * deduplicates keys).
 */
export function oabMentionAt(t: FoldedText, i: number): number {
  numLast = -1;
  const key = mentionAt(t, i);
  if (key >= 0) {
    lastText = t.id;
    lastGeneration = t.generation;
    lastEnd = Math.max(i, numLast);
  }
  return key;
}

function mentionAt(t: FoldedText, i: number): number {
  const kind = t.kind[i];
  const len = t.end[i] - t.start[i];
  if (kind === KIND_MIXED) {
    if (i > 0 && isOabWord(t, i - 1)) return -1; // read from the keyword
    return mixedWord(t, i, MIN_DIGITS_GLUED);
  }
  if (kind !== KIND_LETTERS) return -1;
  if (len === 3) return isOabWord(t, i) ? afterKeyword(t, i) : -1;
  if (len !== 2) return -1;
  const uf = isUfWord(t, i);
  if (uf < 0) return -1;
  // Number first: `62492/RS`, `62.492-RS`, `123456-A/SP`, `123456A/SP`.
  if (i > 0 && slashOrDash(t, i)) {
    const prev = i - 1;
    let key = -1;
    if (t.kind[prev] === KIND_DIGITS || (t.kind[prev] === KIND_MIXED && startsWithDigit(t, prev))) {
      if (readNumberBackward(t, prev, 0)) key = oabKey(uf, numValue, numSuffix);
    } else if (t.kind[prev] === KIND_LETTERS && prev > 0 && t.end[prev] - t.start[prev] === 1 && glued(t, prev, SEP_DASH) && t.kind[prev - 1] === KIND_DIGITS) {
      const suffix = letterCode(t.chars[t.start[prev]]);
      if (suffix > 0 && readNumberBackward(t, prev - 1, suffix)) key = oabKey(uf, numValue, suffix);
    }
    if (key >= 0 && numSignificant >= MIN_DIGITS_SEPARATED && !caseClassBefore(t, numFirst) && lawyerContext(t, numFirst)) return key;
  }
  // UF, dash, number: `RS-62492`.
  const next = i + 1;
  if (next < t.count && glued(t, next, SEP_DASH) && (t.kind[next] === KIND_DIGITS || t.kind[next] === KIND_MIXED) && !(i > 0 && isOabWord(t, i - 1))) {
    if (i > 0 && gluedPunct(t, i) && endsWithDigit(t, i - 1)) return -1;
    if (readNumberForward(t, next) && numSignificant >= MIN_DIGITS_GLUED && lawyerContext(t, i)) return oabKey(uf, numValue, numSuffix);
  }
  return -1;
}

const scratch = new FoldedText();

/**
 * The canonical keys (`RS62492`, `SP123456A`) of the OAB registrations printed in `text`, each once,
 * in order of first appearance.
 */
export function extractOabMentions(text: string): string[] {
  const n = scratch.scan(text);
  const seen = new Set<number>();
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const key = oabMentionAt(scratch, i);
    if (key >= 0 && !seen.has(key)) {
      seen.add(key);
      out.push(oabKeyCanonical(key));
    }
  }
  return out;
}
