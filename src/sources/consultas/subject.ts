/**
 * A case's subject as the courts print its path in the subject tree, read the same way for every system
 * (PJe's detail page, TJDFT's JSON): `ROOT (1156)  -  CHILD (7771)  -  LEAF (14757`.
 */
import { oneLine } from './html.ts';

/**
 * The path's last step without its code, as a person reads the subject; null when absent or blank.
 * Steps are split only after a code, since names hold ` - ` themselves (`Crédito Direto ao Consumidor -
 * CDC (14757`, whose final `)` PJe drops on every captured page). Linear: indexOf scans, and each
 * stretch between two `) - ` is looked at once (no scan back past it).
 */
export function subjectLeaf(printed: string | null): string | null {
  if (!printed) return null;
  const path = oneLine(printed);
  let from = 0;
  let prev = 0;
  for (let at = path.indexOf(') - '); at !== -1; prev = at + 4, at = path.indexOf(') - ', at + 1)) {
    const stretch = at > prev ? path.slice(prev, at).lastIndexOf('(') : -1;
    const open = stretch === -1 ? -1 : prev + stretch;
    if (open !== -1 && at - open > 1 && /^\d+$/.test(path.slice(open + 1, at))) from = at + 4;
  }
  const leaf = stripCode(path.slice(from).trim());
  return leaf === '' ? null : leaf;
}

/** `NAME (7)` or, cut short, `NAME (14757` → `NAME`; a name without a code stays whole. */
export function stripCode(text: string): string {
  const open = text.lastIndexOf('(');
  if (open === -1) return text;
  const code = text.slice(open + 1).replace(/\)$/, '');
  return /^\d+$/.test(code) ? text.slice(0, open).trim() : text;
}
