/**
 * Bounded scans for parsers of upstream text (docs/architecture.md, "Linear time"). A regular
 * expression such as `<[^>]*>` or `<form[^>]*>[\s\S]*?type="password"` tries every `<` against the
 * rest of the input, so 100,000 `<` without a `>` cost 100,000 scans of the whole text. These helpers
 * remember what a search found, so a parser that asks "where is the next `>`?" from a moving position
 * pays for each character once: the style of matching/fold.ts, shared.
 */

/**
 * The next occurrence of a fixed string (or of a global regular expression without backtracking of
 * its own, e.g. `/<\/style>/gi`) at or after a position, remembered: asked from positions that only
 * move forward, the whole text is scanned once. Asked from an earlier position, it searches again.
 */
export class NextMatch {
  readonly #text: string;
  readonly #needle: string | RegExp;
  /** The position last searched from (-1: never), and what that search found (-1: nothing). */
  #from = -1;
  #at = -1;

  constructor(text: string, needle: string | RegExp) {
    if (typeof needle !== 'string' && !needle.global) throw new TypeError('NextMatch needs a global RegExp');
    this.#text = text;
    this.#needle = needle;
  }

  /** Index of the first occurrence at or after `from`, or -1. */
  from(from: number): number {
    // Nothing in [#from, #at) matched, so from any `from` in that range the answer is the same.
    if (this.#from !== -1 && from >= this.#from && (this.#at === -1 || from <= this.#at)) return this.#at;
    this.#from = from;
    if (typeof this.#needle === 'string') this.#at = this.#text.indexOf(this.#needle, from);
    else {
      this.#needle.lastIndex = from;
      this.#at = this.#needle.exec(this.#text)?.index ?? -1;
    }
    return this.#at;
  }
}

/** One pass over a text's tags: its `>` and closing tags found once each, however many `<` ask. */
export class TagScan {
  readonly text: string;
  readonly #gt: NextMatch;
  readonly #patterns = new Map<string, NextMatch>();
  constructor(text: string) {
    this.text = text;
    this.#gt = new NextMatch(text, '>');
  }

  /** Index of the first `>` at or after `from`, or -1. */
  gt(from: number): number {
    return this.#gt.from(from);
  }

  /**
   * Index of the first match of `pattern` (a regular expression's source, read in any case, that
   * cannot backtrack over more than its own match, e.g. `</style>` or `</script\s*>`) at or after `from`, or -1.
   */
  find(pattern: string, from: number): number {
    let finder = this.#patterns.get(pattern);
    if (!finder) {
      finder = new NextMatch(this.text, new RegExp(pattern, 'gi'));
      this.#patterns.set(pattern, finder);
    }
    return finder.from(from);
  }
}

/** The index of the last character of what the `<` at `i` opens, or -1 when it opens nothing this pass replaces. */
export type TagMatcher = (scan: TagScan, i: number) => number;

/** Every match of `matchAt` (tried at each `<`, leftmost first, never overlapping) replaced by `by`. */
export function replaceTags(text: string, matchAt: TagMatcher, by: string): string {
  const scan = new TagScan(text);
  // Pieces joined once: one flat string for the next pass to search, not a tree of `+`.
  const out: string[] = [];
  let from = 0;
  for (let i = text.indexOf('<'); i !== -1; ) {
    const end = matchAt(scan, i);
    if (end === -1) {
      i = text.indexOf('<', i + 1);
      continue;
    }
    out.push(text.slice(from, i), by);
    from = end + 1;
    i = text.indexOf('<', from);
  }
  if (out.length === 0) return text;
  out.push(text.slice(from));
  return out.join('');
}

/** Any tag, `<` to the first `>` after it (`/<[^>]*>/g`). */
export const wholeTag: TagMatcher = (scan, i) => scan.gt(i + 1);

/** True when `text[at..]` spells `lower` (ASCII, lower case) in any case, as a regular expression's `i` flag reads ASCII. */
export function asciiAt(text: string, at: number, lower: string): boolean {
  if (at < 0 || at + lower.length > text.length) return false;
  for (let k = 0; k < lower.length; k++) {
    const c = text.charCodeAt(at + k);
    const l = lower.charCodeAt(k);
    if (c !== l && !(l >= 97 && l <= 122 && c === l - 32)) return false;
  }
  return true;
}

/** A regular expression's `\w` without the `u` flag: ASCII letters, digits and `_`. */
export function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/** True when a `\b` holds between `text[at - 1]` and `text[at]` (either side may be outside the text). */
export function wordBoundaryAt(text: string, at: number): boolean {
  const before = at > 0 && isWordChar(text.charCodeAt(at - 1));
  const after = at < text.length && isWordChar(text.charCodeAt(at));
  return before !== after;
}

/** Longest tag the scanners skip (as matching/fold.ts): a `<` with no `>` within this distance opens no tag. */
export const MAX_TAG = 8192;

/**
 * Each tag of an HTML text in order (from a `<` to the first `>` after it, at most MAX_TAG characters),
 * as `[start, end]` with `end` the index of its `>`; a `<` that opens no such tag is skipped. One pass.
 */
export function* tagsOf(text: string): Generator<[number, number]> {
  const gt = new NextMatch(text, '>');
  for (let i = text.indexOf('<'); i !== -1; ) {
    const end = gt.from(i + 1);
    if (end === -1) return;
    if (end - i <= MAX_TAG) {
      yield [i, end];
      i = text.indexOf('<', end + 1);
    } else i = text.indexOf('<', i + 1);
  }
}

/** `text` without the characters at its end that `strip` accepts (one character at a time, from the end). */
export function trimEndWhere(text: string, strip: (ch: string) => boolean): string {
  let end = text.length;
  while (end > 0 && strip(text[end - 1]!)) end--;
  return text.slice(0, end);
}

/**
 * `text` cut at its last parenthesis when the text ends with it (blanks aside) and it holds no other:
 * what comes before (as is) and what is inside. In one pass, what `/\s*\(([^()]*)\)\s*$/` finds (that
 * expression tries every blank of a long run against the rest of the text).
 */
export function trailingParenthesis(text: string): { before: string; inside: string } | null {
  const body = text.trimEnd();
  const open = body.endsWith(')') ? body.lastIndexOf('(') : -1;
  const inside = open === -1 ? '' : body.slice(open + 1, -1);
  return open === -1 || inside.includes(')') ? null : { before: text.slice(0, open), inside };
}
