/**
 * Reading the consultation pages' HTML (e-SAJ, PJe): one parser for all (node-html-parser) and the
 * text rules every system's parser shares. Pages mix CRLF and LF, named and numeric entities, tabs and
 * `&nbsp;` padding (`R$         81.439,78`, `2ª  Vara Judicial`): text is read decoded, with `&nbsp;`
 * as a space, each line's runs of blanks collapsed, and blank lines dropped.
 */
import { parse, type HTMLElement, type Node } from 'node-html-parser';
import { wordBoundaryAt } from '../../platform/text-scan.ts';

export type { HTMLElement };

/** The page as a tree: scripts and styles kept as raw text (never parsed as markup), comments dropped. */
export function parsePage(html: string): HTMLElement {
  return parse(html, { comment: false, blockTextElements: { script: true, style: true, pre: true } });
}

/** One line of text: entities decoded, every run of blanks (tabs, newlines, `&nbsp;`) one space, mojibake undone. */
export function oneLine(text: string): string {
  return demojibake(text.replace(/[\s\u00a0]+/g, ' ').trim());
}

/** `Ã§`, `Ã£`, `Ã‰`: the two bytes of a UTF-8 letter read as Latin-1 (a page stored twice-encoded). */
const MOJIBAKE = /[\u00c2\u00c3][\u0080-\u00bf]/;

/**
 * Text as a person reads it when a court stored UTF-8 bytes as Latin-1 (`ExpediÃ§Ã£o` → `Expedição`;
 * seen in documents' names): undone only when every character is a byte and the bytes are valid
 * UTF-8, so a real `Ã` next to a symbol stays as printed.
 */
export function demojibake(text: string): string {
  if (!MOJIBAKE.test(text)) return text;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0xff) return text;
  const bytes = Buffer.from(text, 'latin1');
  const decoded = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  return decoded.includes('\ufffd') ? text : decoded;
}

/** Text that keeps its line breaks (a decision's paragraphs): each line collapsed, blank lines dropped. */
export function lines(text: string): string {
  return text
    .split(/\r?\n|\r/)
    .map(oneLine)
    .filter(Boolean)
    .join('\n');
}

/** An element's decoded text on one line; null when absent or blank. */
export function textOf(el: Node | null | undefined): string | null {
  if (!el) return null;
  return oneLine(el.text) || null;
}

/** `R$ 81.439,78` (any padding) → 8143978 centavos; null when the text holds no amount. */
export function centavosOfReais(text: string | null): number | null {
  if (!text) return null;
  const m = firstAmount(text);
  if (!m) return null;
  return Number(m.reais.replace(/\./g, '')) * 100 + Number(m.centavos);
}

const isDigit = (text: string, i: number) => {
  const c = text.charCodeAt(i);
  return c >= 48 && c <= 57;
};

/** `,dd` at `at`, then no letter, digit or `_` (`,(\d{2})\b`). */
function centsAt(text: string, at: number): boolean {
  return text[at] === ',' && isDigit(text, at + 1) && isDigit(text, at + 2) && wordBoundaryAt(text, at + 3);
}

/**
 * The first amount of a text as /(\d{1,3}(?:\.\d{3})*|\d+),(\d{2})\b/ finds it, in one pass (that
 * expression tries `\d+` from every digit of a long run, and the thousands groups from every group of
 * `1.111.111…`). Run by run of digits: a run followed by `,dd` is the amount; else, from its last three
 * digits, the thousands groups that follow it, when `,dd` ends them (each chain of groups read once).
 */
function firstAmount(text: string): { reais: string; centavos: string } | null {
  let chainEnd = -1;
  for (let start = 0; start < text.length; start++) {
    if (!isDigit(text, start)) continue;
    let end = start;
    while (isDigit(text, end)) end++;
    if (centsAt(text, end)) return { reais: text.slice(start, end), centavos: text.slice(end + 1, end + 3) };
    // A run that ends inside a chain already read ends the same chain: nothing new to try.
    if (end >= chainEnd) {
      let p = end;
      while (text[p] === '.' && isDigit(text, p + 1) && isDigit(text, p + 2) && isDigit(text, p + 3)) p += 4;
      chainEnd = p;
      if (p > end && centsAt(text, p)) return { reais: text.slice(Math.max(start, end - 3), p), centavos: text.slice(p + 1, p + 3) };
    }
    start = end;
  }
  return null;
}
