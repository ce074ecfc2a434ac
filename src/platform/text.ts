/** Text folding shared by every search: the same rule for what is indexed and what is asked. */

import { decodeHtmlEntities, foldText } from './matching/fold.ts';
import { asciiAt, replaceTags, wholeTag, wordBoundaryAt, type TagMatcher } from './text-scan.ts';

/**
 * Lower case, no diacritics, runs of anything but letters and digits become one space (HTML tags
 * dropped, entities decoded): the matcher's one scanner (platform/matching/fold.ts), so what the
 * searches index and what the monitors match are folded by the same code.
 */
export { foldText };

/** The folded words of a query, at most `max` of them, each at most 40 characters. */
export function searchTokens(text: string, max = 8): string[] {
  return foldText(text)
    .split(' ')
    .filter((t) => t.length > 0)
    .slice(0, max)
    .map((t) => t.slice(0, 40));
}

/** HTML → readable plain text (gazettes, summaries): blocks and rows become lines, tags go, entities are decoded, blank runs collapse. */
export function htmlToText(html: string): string {
  // Four passes, each the one-pass form of a regular expression this function used to run (their
  // results are the same), in time linear in the text (docs/architecture.md, "Linear time"):
  //   /<(style|script|head)\b[^>]*>[\s\S]*?<\/\1>/gi → ' '
  //   /<(br|\/p|\/div|\/tr|\/h\d|\/li|\/center|\/table)\b[^>]*>/gi → '\n'
  //   /<\/td>\s*<td[^>]*>/gi → ' '
  //   /<[^>]*>/g → ' '
  let text = replaceTags(html, rawTextBlock, ' ');
  text = replaceTags(text, lineBreakTag, '\n');
  text = replaceTags(text, cellBoundary, ' ');
  text = replaceTags(text, wholeTag, ' ');
  return decodeHtmlEntities(text)
    .replace(/\r\n?|\n\r/g, '\n')
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/ *\n[\n ]*/g, '\n')
    .trim();
}

/** The name in `names` that `text[at..]` spells (any case) followed by a word boundary, or undefined. */
function nameAt(text: string, at: number, names: readonly string[]): string | undefined {
  return names.find((n) => asciiAt(text, at, n) && wordBoundaryAt(text, at + n.length));
}

const RAW_TEXT = ['style', 'script', 'head'];

/** `<style …>…</style>` (and script, head): up to the first closing tag after the opening one. */
const rawTextBlock: TagMatcher = (scan, i) => {
  const name = nameAt(scan.text, i + 1, RAW_TEXT);
  const open = name ? scan.gt(i + 1 + name.length) : -1;
  const close = name && open !== -1 ? scan.find(`</${name}>`, open + 1) : -1;
  return close === -1 ? -1 : close + name!.length + 2;
};

const LINE_BREAKS = ['br', '/p', '/div', '/tr', '/li', '/center', '/table'];

/** `<br …>` and the end tags of blocks and rows (`</p>`, `</h1>`…), up to their `>`. */
const lineBreakTag: TagMatcher = (scan, i) => {
  const { text } = scan;
  let length = nameAt(text, i + 1, LINE_BREAKS)?.length;
  const digit = text.charCodeAt(i + 3);
  if (length === undefined && asciiAt(text, i + 1, '/h') && digit >= 48 && digit <= 57 && wordBoundaryAt(text, i + 4)) length = 3;
  return length === undefined ? -1 : scan.gt(i + 1 + length);
};

const SPACES = /\s*/y;

/** `</td>`, blanks, then `<td …>`: one cell boundary. */
const cellBoundary: TagMatcher = (scan, i) => {
  if (!asciiAt(scan.text, i, '</td>')) return -1;
  SPACES.lastIndex = i + 5;
  SPACES.exec(scan.text);
  const next = SPACES.lastIndex;
  return asciiAt(scan.text, next, '<td') ? scan.gt(next + 3) : -1;
};

/**
 * The key a party's name is found by (case_party_names, migration 0014): its folded text, at most 200
 * characters, so "Maria da Silva" and "MARIA DA SILVA" are one key and a B-tree range finds it.
 */
export function nameKey(name: string): string {
  return foldText(name).slice(0, 200);
}
