/** Text folding shared by every search: the same rule for what is indexed and what is asked. */

import { decodeHtmlEntities, foldText } from './matching/fold.ts';

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
  return decodeHtmlEntities(
    html
      .replace(/<(style|script|head)\b[^>]*>[\s\S]*?<\/\1>/gi, ' ')
      .replace(/<(br|\/p|\/div|\/tr|\/h\d|\/li|\/center|\/table)\b[^>]*>/gi, '\n')
      .replace(/<\/td>\s*<td[^>]*>/gi, ' ')
      .replace(/<[^>]*>/g, ' '),
  )
    .replace(/\r\n?|\n\r/g, '\n')
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/ *\n[\n ]*/g, '\n')
    .trim();
}

/**
 * The key a party's name is found by (case_party_names, migration 0014): its folded text, at most 200
 * characters, so "Maria da Silva" and "MARIA DA SILVA" are one key and a B-tree range finds it.
 */
export function nameKey(name: string): string {
  return foldText(name).slice(0, 200);
}
