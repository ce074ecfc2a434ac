/** Text folding shared by every search: the same rule for what is indexed and what is asked. */

/** Lower case, no diacritics, runs of anything but letters and digits become one space. */
export function foldText(text: string): string {
  return text.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/** The folded words of a query, at most `max` of them, each at most 40 characters. */
export function searchTokens(text: string, max = 8): string[] {
  return foldText(text).split(' ').filter((t) => t.length > 0).slice(0, max).map((t) => t.slice(0, 40));
}
