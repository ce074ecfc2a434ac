/**
 * CNJ case numbers printed in a publication's text, read from `FoldedText` words: the mask
 * `NNNNNNN-DD.AAAA.J.TR.OOOO` (exactly those separators, one character each) or 20 bare digits.
 * Check digits are not verified: a number is only ever looked up among monitored numbers.
 */
import { FoldedText, KIND_DIGITS, SEP_DASH, SEP_DOT } from './fold.ts';

const MASK_LENGTHS = [7, 2, 4, 1, 2, 4];

/** The 20 digits of the CNJ number starting at word i, or null. Call it for every word. */
export function cnjMentionAt(t: FoldedText, i: number): string | null {
  if (t.kind[i] !== KIND_DIGITS) return null;
  const len = t.end[i] - t.start[i];
  if (len === 20) return String.fromCharCode.apply(null, t.chars.subarray(t.start[i], t.end[i]) as unknown as number[]);
  if (len !== 7 || i + 5 >= t.count) return null;
  for (let k = 1; k < 6; k++) {
    const w = i + k;
    if (t.kind[w] !== KIND_DIGITS || t.end[w] - t.start[w] !== MASK_LENGTHS[k] || t.sepCount[w] !== 1 || t.sepFlags[w] !== (k === 1 ? SEP_DASH : SEP_DOT))
      return null;
  }
  let digits = '';
  for (let k = 0; k < 6; k++) {
    for (let q = t.start[i + k]; q < t.end[i + k]; q++) digits += String.fromCharCode(t.chars[q]);
  }
  return digits;
}

const scratch = new FoldedText();

/** The CNJ numbers (20 digits) printed in `text`, masked or bare, each once, in order. */
export function extractCnjMentions(text: string): string[] {
  const n = scratch.scan(text);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const cnj = cnjMentionAt(scratch, i);
    if (cnj !== null && !out.includes(cnj)) out.push(cnj);
  }
  return out;
}
