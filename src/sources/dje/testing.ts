/**
 * The real edition text (fixtures/tse-1.md, copied byte for byte from reference/upstream/real/,
 * provenance beside it) as the lines pdfLines gives: tse-1.md is the PDF's text layer converted to
 * markdown by a third party, so what the converter ADDED is taken away again (tse-1.prov.md): the
 * excerpt's comment, the front matter, its title line and `Disponibilizado em` sentence, the `#`
 * heading marks and the `<!-- página N -->` markers (which give each line its page); the excerpt's
 * `[... cut ...]` notes are no edition text either.
 */
import { readFileSync } from 'node:fs';
import type { PdfLine } from './split.ts';

export function tse1Text(): string {
  return readFileSync(new URL('./fixtures/tse-1.md', import.meta.url), 'utf8');
}

export function tse1Lines(): PdfLine[] {
  const body = tse1Text().replace(/^<!--[\s\S]*?-->\s*---[\s\S]*?---\s*/, '');
  const out: PdfLine[] = [];
  let page = 1;
  let inCut = false;
  for (const raw of body.split('\n')) {
    const line = raw.trim();
    const marker = /^<!-- página (\d+) -->$/.exec(line);
    if (marker) page = Number(marker[1]);
    else if (inCut || line.startsWith('[... cut')) inCut = !line.endsWith(']');
    else if (line && !line.startsWith('# ') && !line.startsWith('Disponibilizado em ')) out.push({ page, text: line.replace(/^#{2,}\s+/, '') });
  }
  return out;
}
