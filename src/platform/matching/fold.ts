/**
 * Text folding for publication matching: one scanner, written for speed, that turns a DJEN `texto`
 * (HTML, or plain text with `\n\r`) into lower-case, accent-free words in a single pass over its
 * characters. `foldText`, `foldTerm` and the matcher all use it, so what is indexed and what is
 * looked for are folded by the same code.
 *
 * Rules (per UTF-16 code unit, through one 64 K lookup table built on first use):
 * - letters and digits (`\p{L}`, `\p{N}`) are kept, lower-cased, with diacritics removed (NFD, then
 *   every combining mark dropped): `Ã` → `a`, `Ç` → `c`; `º`/`ª` fold to `o`/`a` (their compatibility
 *   forms, so `nº` reads `no`);
 * - combining marks and invisible format characters (soft hyphen, zero-width space) are skipped
 *   without breaking a word;
 * - HTML: tags (`<…>`), comments and the content of `<style>`/`<script>` are dropped (a tag separates
 *   words); entities are decoded (`&nbsp;` `&amp;` `&ccedil;` `&atilde;` … the HTML 4 Latin-1 set and
 *   a few typographic ones, `&#231;`, `&#xE7;`) and the decoded character is folded like any other;
 *   a `<` that does not open a tag (`a < b`) is an ordinary separator;
 * - every run of anything else becomes one space; no leading or trailing space.
 *
 * The scanner also records, for each word, where it sits in the folded text, a 32-bit FNV-1a hash of
 * its folded characters, whether it has digits, letters or both, and which separators came before it
 * (`.`, `/`, `-`, …, and how many characters): what the OAB and CNJ recognizers need to tell
 * `62.492-RS` from `…4.04.7113/RS` without a second pass over the text.
 */

import { MAX_TAG, NextMatch } from '../text-scan.ts';

// Table values below 48 are control codes: every folded letter or digit is >= '0' (48).
const MARK = 1;
const EXPAND = 2;
const LT = 3;
const AMP = 4;
const HIGH_SURROGATE = 5;
const S_WS = 16;
const S_DOT = 17;
const S_SLASH = 18;
const S_DASH = 19;
const S_COLON = 20;
const S_PAREN = 21;
const S_OTHER = 22;
/** A tag or comment: never a "single character" separator. */
const S_TAG = 23;

/**
 * Separator flags (`sepFlags[i]`: what separated word i from word i − 1), bit `S_x − S_WS` of each
 * class. 16 (a colon) and 32 (a parenthesis) are set too, but no matcher reads them yet.
 */
export const SEP_WS = 1;
export const SEP_DOT = 2;
export const SEP_SLASH = 4;
export const SEP_DASH = 8;
export const SEP_OTHER = 64;
export const SEP_TAG = 128;

/** Word kinds (`kind[i]`): ASCII digits only, no ASCII digit, or both. */
export const KIND_DIGITS = 1;
export const KIND_LETTERS = 2;
export const KIND_MIXED = 3;

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

let FOLD: Uint16Array | undefined;
/** Characters whose folding is more than one code unit (e.g. Hangul syllables), folded. */
const EXPANSIONS = new Map<number, string>();
/** Astral code points seen so far, folded ('' when not a letter or digit). */
const ASTRAL = new Map<number, string>();

const ALNUM = /^[\p{L}\p{N}]$/u;
const MARKS = /\p{M}+/gu;

function foldChar(ch: string): string {
  return ch.normalize('NFD').replace(MARKS, '').toLowerCase();
}

function buildTable(): Uint16Array {
  const t = new Uint16Array(65536);
  const isMark = /^\p{M}$/u;
  const isFormat = /^\p{Cf}$/u;
  const isSpace = /^\s$/u;
  const isDash = /^\p{Pd}$/u;
  for (let c = 0; c < 65536; c++) {
    if (c >= 0xd800 && c <= 0xdbff) {
      t[c] = HIGH_SURROGATE;
      continue;
    }
    if (c >= 0xdc00 && c <= 0xdfff) {
      t[c] = S_OTHER;
      continue;
    }
    if (c < 128) {
      // ASCII, by hand: the folding of [A-Za-z0-9] is obvious, the rest are separators.
      if (c >= 48 && c <= 57) t[c] = c;
      else if (c >= 97 && c <= 122) t[c] = c;
      else if (c >= 65 && c <= 90) t[c] = c + 32;
      else if (c === 32 || (c >= 9 && c <= 13)) t[c] = S_WS;
      else t[c] = S_OTHER;
      continue;
    }
    const ch = String.fromCharCode(c);
    const folded = foldChar(ch);
    if (folded.length === 1 && ALNUM.test(folded)) t[c] = folded.charCodeAt(0);
    else if (folded === '') t[c] = isMark.test(ch) ? MARK : S_OTHER;
    else if (folded.length > 1 && [...folded].some((x) => ALNUM.test(x))) {
      t[c] = EXPAND;
      EXPANSIONS.set(c, folded);
    } else if (isFormat.test(ch)) t[c] = MARK;
    else if (isSpace.test(ch)) t[c] = S_WS;
    else if (isDash.test(ch) || c === 0x2212) t[c] = S_DASH;
    else t[c] = S_OTHER;
  }
  t[0x2e] = S_DOT;
  t[0x2f] = S_SLASH;
  t[0x2d] = S_DASH;
  t[0x3a] = S_COLON;
  for (const p of '()[]{}') t[p.charCodeAt(0)] = S_PAREN;
  t[0x3c] = LT;
  t[0x26] = AMP;
  t[0xa0] = S_WS;
  t[0xad] = MARK; // soft hyphen
  t[0xba] = 0x6f; // º → o
  t[0xaa] = 0x61; // ª → a
  return t;
}

function table(): Uint16Array {
  FOLD ??= buildTable();
  return FOLD;
}

/** The folding of a character outside the fast table (an EXPAND code unit or an astral code point). */
function slowFold(cp: number): string {
  if (cp <= 0xffff) return EXPANSIONS.get(cp) ?? '';
  let s = ASTRAL.get(cp);
  if (s === undefined) {
    const ch = String.fromCodePoint(cp);
    s = /^[\p{L}\p{N}]$/u.test(ch) ? foldChar(ch) : '';
    if (ASTRAL.size < 4096) ASTRAL.set(cp, s);
  }
  return s;
}

// ---------------------------------------------------------------- HTML entities

const LATIN1_ENTITIES = (
  'nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 acute micro para middot ' +
  'cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml ' +
  'Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig ' +
  'agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc iuml eth ntilde ograve oacute ' +
  'ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml'
).split(' ');

const ENTITIES = new Map<string, number>([
  ['amp', 38],
  ['lt', 60],
  ['gt', 62],
  ['quot', 34],
  ['apos', 39],
  ['ndash', 0x2013],
  ['mdash', 0x2014],
  ['lsquo', 0x2018],
  ['rsquo', 0x2019],
  ['sbquo', 0x201a],
  ['ldquo', 0x201c],
  ['rdquo', 0x201d],
  ['bdquo', 0x201e],
  ['hellip', 0x2026],
  ['bull', 0x2022],
  ['ensp', 0x2002],
  ['emsp', 0x2003],
  ['thinsp', 0x2009],
  ['zwsp', 0x200b],
  ['euro', 0x20ac],
  ['OElig', 0x152],
  ['oelig', 0x153],
  ['Scaron', 0x160],
  ['scaron', 0x161],
  ['Yuml', 0x178],
  ...LATIN1_ENTITIES.map((name, i) => [name, 160 + i] as [string, number]),
]);

/** Set by `decodeEntity`: the index of the entity's last character. */
let entityEnd = 0;

/** The code point of the entity starting at `i` (text[i] === '&'), or -1 when it is not one. */
function decodeEntity(text: string, i: number): number {
  const n = text.length;
  let j = i + 1;
  if (j < n && text.charCodeAt(j) === 35 /* # */) {
    j++;
    let hex = false;
    if (j < n && (text.charCodeAt(j) | 32) === 120 /* x */) {
      hex = true;
      j++;
    }
    const first = j;
    let cp = 0;
    for (; j < n && j - first < 8; j++) {
      const c = text.charCodeAt(j);
      if (c >= 48 && c <= 57) cp = cp * (hex ? 16 : 10) + (c - 48);
      else if (hex && (c | 32) >= 97 && (c | 32) <= 102) cp = cp * 16 + ((c | 32) - 87);
      else break;
    }
    if (j === first || cp === 0 || cp > 0x10ffff) return -1;
    entityEnd = j < n && text.charCodeAt(j) === 59 /* ; */ ? j : j - 1;
    return cp;
  }
  const first = j;
  for (; j < n && j - first <= 8; j++) {
    const c = text.charCodeAt(j);
    if (c === 59) break;
    if (!((c >= 48 && c <= 57) || ((c | 32) >= 97 && (c | 32) <= 122))) return -1;
  }
  if (j >= n || text.charCodeAt(j) !== 59 || j === first) return -1;
  const cp = ENTITIES.get(text.slice(first, j));
  if (cp === undefined) return -1;
  entityEnd = j;
  return cp;
}

/** Every HTML entity of `text` decoded (the set the scanner knows); anything else is left as written. */
export function decodeHtmlEntities(text: string): string {
  let out = '';
  let from = 0;
  for (let i = text.indexOf('&'); i !== -1; i = text.indexOf('&', i + 1)) {
    const cp = decodeEntity(text, i);
    if (cp < 0) continue;
    out += text.slice(from, i) + String.fromCodePoint(cp);
    from = entityEnd + 1;
    i = entityEnd;
  }
  return from === 0 ? text : out + text.slice(from);
}

// ---------------------------------------------------------------- HTML tags

function isAsciiLetter(c: number): boolean {
  const l = c | 32;
  return l >= 97 && l <= 122;
}

/** True when text[at..] spells `name` (lower case) case-insensitively, followed by a non-letter. */
function namedAt(text: string, at: number, name: string): boolean {
  for (let k = 0; k < name.length; k++) if ((text.charCodeAt(at + k) | 32) !== name.charCodeAt(k)) return false;
  const after = text.charCodeAt(at + name.length);
  return !isAsciiLetter(after) && !(after >= 48 && after <= 57);
}

/** Where `</name` closes a raw-text element (index of its '>'), searching from `from`; the end when never. */
function rawTextEnd(text: string, from: number, name: string): number {
  for (let k = text.indexOf('</', from); k >= 0; k = text.indexOf('</', k + 2)) {
    if (namedAt(text, k + 2, name)) {
      const gt = text.indexOf('>', k);
      return gt < 0 ? text.length - 1 : gt;
    }
  }
  return text.length - 1;
}

/** Index of the last character of the tag / comment / raw-text element starting at `i`, or -1. `gt` finds the next `>`. */
function tagEnd(text: string, i: number, gt: NextMatch): number {
  const c1 = text.charCodeAt(i + 1);
  const letter = isAsciiLetter(c1);
  if (!letter && c1 !== 47 /* / */ && c1 !== 33 /* ! */ && c1 !== 63 /* ? */) return -1;
  if (c1 === 33 && text.charCodeAt(i + 2) === 45 && text.charCodeAt(i + 3) === 45) {
    const end = text.indexOf('-->', i + 4);
    return end < 0 ? text.length - 1 : end + 2;
  }
  // Remembered from `<` to `<`: `<a<a<a…` without a `>` searches the rest of the text once, not once per `<`.
  const end = gt.from(i + 2);
  if (end < 0 || end - i > MAX_TAG) return -1;
  if (letter && text.charCodeAt(end - 1) !== 47) {
    if (namedAt(text, i + 1, 'style')) return rawTextEnd(text, end + 1, 'style');
    if (namedAt(text, i + 1, 'script')) return rawTextEnd(text, end + 1, 'script');
  }
  return end;
}

// ---------------------------------------------------------------- the scanner

/**
 * The words of one text after folding, in typed arrays reused from call to call (`scan` overwrites
 * them). `chars[0..length)` is the folded text: the words joined by single spaces. For word i:
 * `start[i]`/`end[i]` (in `chars`), `hash[i]` (FNV-1a of its folded code units), `kind[i]`
 * (KIND_*), `sepFlags[i]` (SEP_* of the separator run before it) and `sepCount[i]` (its length in
 * characters, at most 255; a tag counts 2).
 */
let nextFoldedTextId = 1;

export class FoldedText {
  /** Distinct per instance: lets readers keep per-text state without holding the object. */
  readonly id = nextFoldedTextId++;
  chars: Uint16Array = new Uint16Array(4096);
  /** Incremented by every `scan`: tells readers keeping per-text state that the words changed. */
  generation = 0;
  length = 0;
  count = 0;
  start: Int32Array = new Int32Array(512);
  end: Int32Array = new Int32Array(512);
  hash: Int32Array = new Int32Array(512);
  kind: Uint8Array = new Uint8Array(512);
  sepFlags: Uint8Array = new Uint8Array(512);
  sepCount: Uint8Array = new Uint8Array(512);

  // Scanner state, in fields only while a rare path (`#units`) runs; the hot loop keeps it in locals.
  #p = 0;
  #count = 0;
  #inWord = false;
  #wordStart = 0;
  #h = 0;
  #k = 0;
  #sf = 0;
  #sc = 0;

  /** Folds `text` into this object's arrays; returns the number of words. */
  scan(text: string): number {
    const T = table();
    const n = text.length;
    let gt: NextMatch | undefined;
    this.generation++;
    if (this.chars.length < n + 16) this.chars = new Uint16Array(Math.max(n + 16, this.chars.length * 2));
    let buf = this.chars;
    let start = this.start;
    let end = this.end;
    let hash = this.hash;
    let kind = this.kind;
    let sepFlags = this.sepFlags;
    let sepCount = this.sepCount;
    let p = 0;
    let count = 0;
    let inWord = false;
    let wordStart = 0;
    let h = FNV_OFFSET;
    let k = 0;
    let sf = 0;
    let sc = 0;

    let i = 0;
    while (i < n) {
      let v = T[text.charCodeAt(i)];
      if (v >= 48) {
        if (!inWord) {
          if (count > 0) buf[p++] = 32;
          inWord = true;
          wordStart = p;
          h = FNV_OFFSET;
          k = 0;
        }
        // The hot loop: the characters of a word.
        for (;;) {
          buf[p++] = v;
          h = Math.imul(h ^ v, FNV_PRIME);
          k |= v <= 57 ? KIND_DIGITS : KIND_LETTERS;
          if (++i === n) break;
          v = T[text.charCodeAt(i)];
          if (v < 48) break;
        }
        if (i === n) break;
      }
      // Not a letter or digit as it stands. Most often a plain separator (space, punctuation), which
      // goes straight to the separator code below; else a mark, an entity, a tag, a rare character.
      if (v < S_WS) {
        if (v === MARK) {
          i++;
          continue;
        }
        let unit = -1;
        if (v === AMP) {
          const cp = decodeEntity(text, i);
          if (cp < 0) v = S_OTHER;
          else {
            i = entityEnd;
            v = cp > 0xffff ? EXPAND : T[cp];
            if (v >= 48) {
              if (!inWord) {
                if (count > 0) buf[p++] = 32;
                inWord = true;
                wordStart = p;
                h = FNV_OFFSET;
                k = 0;
              }
              buf[p++] = v;
              h = Math.imul(h ^ v, FNV_PRIME);
              k |= v <= 57 ? KIND_DIGITS : KIND_LETTERS;
              i++;
              continue;
            }
            if (v === MARK) {
              i++;
              continue;
            }
            if (v === EXPAND) unit = cp;
            else if (v === LT || v === AMP || v === HIGH_SURROGATE) v = S_OTHER;
          }
        } else if (v === LT) {
          gt ??= new NextMatch(text, '>');
          const e = tagEnd(text, i, gt);
          if (e < 0) v = S_OTHER;
          else {
            i = e;
            v = S_TAG;
          }
        } else if (v === EXPAND) unit = text.charCodeAt(i);
        else if (v === HIGH_SURROGATE) {
          unit = text.charCodeAt(i);
          const lo = text.charCodeAt(i + 1);
          if (lo >= 0xdc00 && lo <= 0xdfff) {
            unit = 0x10000 + ((unit - 0xd800) << 10) + (lo - 0xdc00);
            i++;
          }
        }
        if (unit >= 0) {
          // Rare: a character folding to several code units, or an astral one.
          const folded = slowFold(unit);
          if (buf.length < p + folded.length + (n - i) + 16) {
            const bigger = new Uint16Array((p + folded.length + (n - i) + 16) * 2);
            bigger.set(buf.subarray(0, p));
            this.chars = buf = bigger;
          }
          this.#p = p;
          this.#count = count;
          this.#inWord = inWord;
          this.#wordStart = wordStart;
          this.#h = h;
          this.#k = k;
          this.#sf = sf;
          this.#sc = sc;
          this.#units(folded, unit > 0xffff);
          p = this.#p;
          count = this.#count;
          inWord = this.#inWord;
          wordStart = this.#wordStart;
          h = this.#h;
          k = this.#k;
          sf = this.#sf;
          sc = this.#sc;
          start = this.start;
          end = this.end;
          hash = this.hash;
          kind = this.kind;
          sepFlags = this.sepFlags;
          sepCount = this.sepCount;
          i++;
          continue;
        }
      }
      // A separator: close the current word, accumulate the separator run.
      if (inWord) {
        if (count === start.length) {
          this.#growWords();
          start = this.start;
          end = this.end;
          hash = this.hash;
          kind = this.kind;
          sepFlags = this.sepFlags;
          sepCount = this.sepCount;
        }
        start[count] = wordStart;
        end[count] = p;
        hash[count] = h;
        kind[count] = k;
        sepFlags[count] = sf;
        sepCount[count] = Math.min(sc, 255);
        count++;
        inWord = false;
        sf = 0;
        sc = 0;
      }
      sf |= 1 << (v - S_WS);
      sc += v === S_TAG ? 2 : 1;
      if (sc > 255) sc = 255;
      i++;
    }
    if (inWord) {
      if (count === start.length) {
        this.#growWords();
        start = this.start;
        end = this.end;
        hash = this.hash;
        kind = this.kind;
        sepFlags = this.sepFlags;
        sepCount = this.sepCount;
      }
      start[count] = wordStart;
      end[count] = p;
      hash[count] = h;
      kind[count] = k;
      sepFlags[count] = sf;
      sepCount[count] = Math.min(sc, 255);
      count++;
    }
    this.length = p;
    this.count = count;
    return count;
  }

  /** Appends already-folded code units (the rare path), with the state in fields. */
  #units(folded: string, astral: boolean): void {
    const T = table();
    if (folded === '') {
      this.#separator();
      return;
    }
    for (let q = 0; q < folded.length; q++) {
      const u = folded.charCodeAt(q);
      const w = astral ? u : T[u];
      if (w < 48) {
        this.#separator();
        continue;
      }
      if (!this.#inWord) {
        if (this.#count > 0) this.chars[this.#p++] = 32;
        this.#inWord = true;
        this.#wordStart = this.#p;
        this.#h = FNV_OFFSET;
        this.#k = 0;
      }
      this.chars[this.#p++] = w;
      this.#h = Math.imul(this.#h ^ w, FNV_PRIME);
      this.#k |= w >= 48 && w <= 57 ? KIND_DIGITS : KIND_LETTERS;
    }
  }

  #separator(): void {
    if (this.#inWord) {
      if (this.#count === this.start.length) this.#growWords();
      const c = this.#count++;
      this.start[c] = this.#wordStart;
      this.end[c] = this.#p;
      this.hash[c] = this.#h;
      this.kind[c] = this.#k;
      this.sepFlags[c] = this.#sf;
      this.sepCount[c] = this.#sc;
      this.#inWord = false;
      this.#sf = 0;
      this.#sc = 0;
    }
    this.#sf |= SEP_OTHER;
    if (this.#sc < 255) this.#sc++;
  }

  #growWords(): void {
    const size = this.start.length * 2;
    this.start = grow32(this.start, size);
    this.end = grow32(this.end, size);
    this.hash = grow32(this.hash, size);
    this.kind = grow8(this.kind, size);
    this.sepFlags = grow8(this.sepFlags, size);
    this.sepCount = grow8(this.sepCount, size);
  }

  /** The folded text (words joined by single spaces). */
  text(): string {
    return decodeUnits(this.chars, 0, this.length);
  }

  /** Word i, folded. */
  word(i: number): string {
    return decodeUnits(this.chars, this.start[i], this.end[i]);
  }
}

function grow32(a: Int32Array, size: number): Int32Array {
  const b = new Int32Array(size);
  b.set(a);
  return b;
}

function grow8(a: Uint8Array, size: number): Uint8Array {
  const b = new Uint8Array(size);
  b.set(a);
  return b;
}

function decodeUnits(units: Uint16Array, from: number, to: number): string {
  let s = '';
  for (let i = from; i < to; i += 8192) s += String.fromCharCode.apply(null, units.subarray(i, Math.min(to, i + 8192)) as unknown as number[]);
  return s;
}

const shared = new FoldedText();

/** Lower case, no diacritics, HTML tags dropped and entities decoded, runs of anything else → one space. */
export function foldText(text: string): string {
  shared.scan(text);
  return shared.text();
}

/** A search term folded exactly as `foldText` folds texts; '' when nothing is left (empty, only punctuation). */
export function foldTerm(term: string): string {
  if (typeof term !== 'string') throw new TypeError('foldTerm: the term must be a string');
  return foldText(term);
}
