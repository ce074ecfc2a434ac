/**
 * PJe's public document viewer (`documentoSemLoginHTML.seam`; reference/upstream/real/documents/
 * README.md §3) → the document as the court wrote it: the body between `div.folha` and the
 * signature table (without the page's scripts, styles, comments or forms), its text, the signer and
 * signature instant from the signature block, "ID do documento", the validation code, and the
 * "Gerar PDF" form (pjeViewerPdfBody turns it into the POST the page's own `jsfcljs` sends).
 * Two body formats: the legacy editor's free HTML (Word's conditional comments dropped) and the "bd"
 * ProseMirror editor (`div.bd-cabecalho` with `data-titulo`; its `data-polo` attribute, a base64 copy
 * of the parties, is removed: Tramita keeps what the page shows, not what it hides).
 * A page without the signature block is not a document (a login, an error page): PjeViewerError.
 * Scans are linear: indexOf over the page, no expression that backtracks over the rest of it.
 */
import { parse } from 'node-html-parser';
import { brasiliaInstantOfLocal } from '../../../platform/format.ts';
import { demojibake } from '../html.ts';
import type { CourtDocumentText } from '../../../platform/ports/case-details.ts';

export class PjeViewerError extends Error {
  override name = 'PjeViewerError';
}

/**
 * The document as the port names it (`titulo`: a "bd" document's `data-titulo`, null for the legacy
 * editor, whose type is the grid's; `idDocumento` blank in TRF5's "bd" viewer), and its Gerar-PDF form.
 */
export interface PjeViewerDocument extends CourtDocumentText {
  /** The Gerar-PDF form: its action and the fields its onclick posts; null when the page has none. */
  pdf: { action: string; fields: [string, string][] } | null;
}

const FOLHA = 'class="folha"';
const SIGN = 'imgSign.png';

/** The viewer page → the document; throws PjeViewerError when the page is not a document. */
export function parsePjeViewer(page: string): PjeViewerDocument {
  const folha = page.indexOf(FOLHA);
  const sign = page.indexOf(SIGN, folha);
  if (folha === -1 || sign === -1) throw new PjeViewerError('PJe viewer: no document sheet with its signature block');
  const bodyStart = page.indexOf('>', folha) + 1;
  const signTable = page.lastIndexOf('<table', sign);
  if (signTable < bodyStart) throw new PjeViewerError('PJe viewer: the signature block is not after the document body');
  const html = withoutDataPolo(stripBlocks(page.slice(bodyStart, signTable))).trim();
  const blockEnd = page.indexOf('</table>', sign);
  const block = page.slice(signTable, blockEnd === -1 ? page.length : blockEnd);
  const signature = readSignature(block);
  return {
    html,
    texto: textOfHtml(html),
    titulo: attribute(html, 'data-titulo'),
    ...signature,
    pdf: readPdfForm(page.slice(blockEnd === -1 ? sign : blockEnd)),
  };
}

/** Removes `<!-- … -->` (Word's conditional comments too), `<script>…</script>`, `<style>…</style>` and `<form>…</form>`: one pass each. */
function stripBlocks(html: string): string {
  let out = cut(html, '<!--', '-->');
  for (const tag of ['script', 'style', 'form']) out = cut(out, `<${tag}`, `</${tag}>`);
  return out;
}

function cut(text: string, open: string, close: string): string {
  const lower = text.toLowerCase();
  let out = '';
  let at = 0;
  for (;;) {
    const start = lower.indexOf(open, at);
    if (start === -1) return out + text.slice(at);
    const end = lower.indexOf(close, start + open.length);
    out += text.slice(at, start);
    if (end === -1) return out;
    at = end + close.length;
  }
}

/** `data-polo="<base64 of the parties>"` removed (issue 53: no hidden personal data kept). */
function withoutDataPolo(html: string): string {
  let out = '';
  let at = 0;
  for (;;) {
    const start = html.indexOf(' data-polo="', at);
    if (start === -1) return out + html.slice(at);
    const end = html.indexOf('"', start + 12);
    out += html.slice(at, start);
    if (end === -1) return out;
    at = end + 1;
  }
}

function attribute(html: string, name: string): string | null {
  const at = html.indexOf(` ${name}="`);
  if (at === -1) return null;
  const start = at + name.length + 3;
  const end = html.indexOf('"', start);
  return end === -1 ? null : html.slice(start, end).trim() || null;
}

const LINE_BREAKS = /<br\s*\/?>|<\/(?:p|div|tr|h[1-6]|li)>/gi;

/** The README's recipe: `<br>`, `</p>`, `</div>`, `</tr>` as line ends, tags stripped, entities decoded, NBSP a space, blanks collapsed. */
export function textOfHtml(html: string): string {
  const text = parse(html.replace(LINE_BREAKS, (m) => `${m}\n`)).text;
  return text
    .split('\n')
    .map((line) => demojibake(line.replace(/[\s\u00a0]+/g, ' ').trim()))
    .filter(Boolean)
    .join('\n');
}

function readSignature(block: string): Pick<PjeViewerDocument, 'assinante' | 'assinadoEm' | 'idDocumento' | 'codigoValidacao'> {
  const small = parse(block.replace(LINE_BREAKS, (m) => `${m}\n`));
  const bolds = small.querySelectorAll('small b');
  const signer = (bolds[0]?.text ?? '')
    .split('\n')
    .map((l) => l.replace(/[\s\u00a0]+/g, ' ').trim())
    .filter(Boolean);
  const when = /^(\d{2})\/(\d{2})\/(\d{4}) (\d{2}):(\d{2}):(\d{2})$/.exec(signer[1] ?? '');
  const id = (bolds[1]?.text ?? '').trim();
  const code = (small.querySelector('span.text-center')?.text ?? '').trim();
  return {
    assinante: signer[0] ? demojibake(signer[0]) : null,
    assinadoEm: when ? brasiliaInstantOfLocal(`${when[3]}-${when[2]}-${when[1]}T${when[4]}:${when[5]}:${when[6]}`) : null,
    idDocumento: /^\d{1,18}$/.test(id) ? id : null,
    codigoValidacao: /^\d{29}$/.test(code) ? code : null,
  };
}

/** `<form id="F" action="…/documentoSemLoginHTML.seam">` with its hidden inputs, plus the `{'F:downloadPDF':…,'ca':…,'idProcDocBin':…}` the onclick adds. */
function readPdfForm(tail: string): PjeViewerDocument['pdf'] {
  const root = parse(tail);
  const form = root.querySelectorAll('form').find((f) => (f.getAttribute('action') ?? '').includes('documentoSemLoginHTML.seam'));
  const link = form?.querySelector('a[id$=":downloadPDF"]');
  const onclick = link?.getAttribute('onclick') ?? '';
  const params = /jsfcljs\(document\.getElementById\('[^']*'\),\{([^}]*)\}/.exec(onclick);
  if (!form || !params) return null;
  const fields: [string, string][] = [];
  for (const input of form.querySelectorAll('input[type="hidden"]')) {
    const name = input.getAttribute('name');
    if (name) fields.push([name, input.getAttribute('value') ?? '']);
  }
  for (const pair of params[1]!.split(',')) {
    const kv = /^\s*'([^']*)'\s*:\s*'([^']*)'\s*$/.exec(pair);
    if (kv) fields.push([kv[1]!, kv[2]!]);
  }
  return { action: form.getAttribute('action')!, fields };
}

/** The Gerar-PDF POST's body (`application/x-www-form-urlencoded`), as the page's `jsfcljs` submits the form. */
export function pjeViewerPdfBody(pdf: NonNullable<PjeViewerDocument['pdf']>): string {
  return new URLSearchParams(pdf.fields).toString();
}
