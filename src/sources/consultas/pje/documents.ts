/**
 * The documents grid of a PJe detail page (`table[id$=":processoDocumentoGridTab"]`, "Documentos
 * juntados ao processo"; reference/upstream/real/documents/README.md §1 step 3) → one row per document
 * as a person reads it: its id, description, type, date, and where its text is. Two row shapes:
 * - a viewer row: `openPopUp('…', '…/documentoSemLoginHTML.seam?ca=<token>&idProcessoDoc=<id>')`, the
 *   court's HTML document (the token is tied to the session that rendered the page: never stored);
 * - a binary row: `href="…/listView.seam?idBin=…&nomeArqProcDocBin=…&idProcessoDocumento=<id>&actionMethod=…"`,
 *   a file (PDF) the court stores, downloaded as it is.
 * Labels: `dd/mm/yyyy hh:mm:ss - DESCRIPTION (TYPE)` (TJMA, TJCE, TJRJ, TRF5) or
 * `ID: <id> - yyyy-mm-dd hh:mm:ss.SSS - DESCRIPTION (TYPE)` (TRF3); the `sr-only` span is not part of it.
 * A row with neither link (a document the court shows but does not open to the public) is listed as
 * restricted, never followed. The grid is paged by its own slider (about 15 rows a page): `pager`
 * is the slider's A4J form, which pjeDocumentsPageBody turns into the request for another page.
 * Scans are linear (indexOf and anchored expressions).
 */
import { parse, type HTMLElement } from 'node-html-parser';
import { brasiliaInstantOfLocal } from '../../../platform/format.ts';
import { Anomalies } from '../anomalies.ts';
import { oneLine } from '../html.ts';

export interface PjeDocumentRow {
  /** `idProcessoDoc` / `idProcessoDocumento`: the id the viewer prints as "ID do documento". */
  id: string;
  /** The description before the parentheses (`Sentença`, `GuiaMA1.63666`). */
  titulo: string;
  /** The document type in the parentheses (`Sentença`, `Custas`). */
  tipo: string;
  /** ISO instant with offset (Brasília), null when the label's date does not read. */
  juntadoEm: string | null;
  /** `html`: the court's viewer; `binario`: a file it stores; `restrito`: the row opens nothing without a login. */
  formato: 'html' | 'binario' | 'restrito';
  /** The row's link, path and query as the page prints it (absolute for the viewer); null when restricted. */
  link: string | null;
  /** A binary row's file name (`nomeArqProcDocBin`, decoded as ISO-8859-1), size from its title (`88,86 Kb`), and whether its icon says PDF. */
  arquivo: { nome: string; tamanhoBytes: number | null; pdf: boolean } | null;
}

/** The slider form that pages the grid: its action, its fields (without the page), the page field and the last page. */
export interface PjeDocumentsPager {
  action: string;
  containerId: string;
  fields: [string, string][];
  pageField: string;
  paginas: number;
}

export interface PjeDocumentsGrid {
  rows: PjeDocumentRow[];
  /** The count the grid's footer prints; null when it prints none. */
  listados: number | null;
  pager: PjeDocumentsPager | null;
}

const VIEWER = /openPopUp\(\s*'[^']*'\s*,\s*'([^']*documentoSemLoginHTML\.seam[^']*)'\s*\)/;
const BR_LABEL = /^(\d{2})\/(\d{2})\/(\d{4}) (\d{2}):(\d{2})(?::(\d{2}))? - /;
const ISO_LABEL = /^ID: (\d+) - (\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.\d+)? - /;

/** The documents grid of a detail page or of an A4J answer that re-renders it; null when the page has none. */
export function parsePjeDocuments(html: string, anomalies = new Anomalies()): PjeDocumentsGrid | null {
  const root = parse(html, { comment: false, blockTextElements: { script: true, style: true } });
  const table = root.querySelector('table[id$="processoDocumentoGridTab"]');
  const tbody = table?.querySelector('tbody[id$="processoDocumentoGridTab:tb"]');
  if (!table || !tbody) return null;
  const rows: PjeDocumentRow[] = [];
  for (const tr of tbody.querySelectorAll(':scope > tr')) {
    const row = readRow(tr);
    if (row) rows.push(row);
    else anomalies.note('documento.linha');
  }
  const footer = table.nextElementSibling;
  const count = footer?.classList?.contains('text-muted') ? /^(\d[\d.]*) resultados? encontrados?$/.exec(oneLine(footer.text)) : null;
  return { rows, listados: count ? Number(count[1]!.replace(/\./g, '')) : null, pager: readPager(footer?.nextElementSibling ?? null) };
}

function readRow(tr: HTMLElement): PjeDocumentRow | null {
  const cell = tr.querySelector('td');
  const a = cell?.querySelector('a');
  if (!cell || !a) return null;
  for (const hidden of a.querySelectorAll('span.sr-only')) hidden.remove();
  const label = readLabel(oneLine(a.text));
  if (!label) return null;
  const onclick = a.getAttribute('onclick') ?? '';
  const href = a.getAttribute('href') ?? '';
  const viewer = VIEWER.exec(onclick);
  if (viewer) {
    const link = viewer[1]!.replaceAll('&amp;', '&');
    const id = paramOf(link, 'idProcessoDoc') ?? label.id;
    return id ? { id, titulo: label.titulo, tipo: label.tipo, juntadoEm: label.juntadoEm, formato: 'html', link, arquivo: null } : null;
  }
  if (href.includes('idProcessoDocumento=') && href.includes('idBin=')) {
    const id = paramOf(href, 'idProcessoDocumento');
    if (!id) return null;
    return {
      id,
      titulo: label.titulo,
      tipo: label.tipo,
      juntadoEm: label.juntadoEm,
      formato: 'binario',
      link: href,
      arquivo: { ...fileOf(href, a.getAttribute('title')), pdf: a.querySelector('i.fa-file-pdf-o') !== null },
    };
  }
  // A row that links neither the public viewer nor a file (a login, or nothing): listed, never followed.
  return label.id ? { id: label.id, titulo: label.titulo, tipo: label.tipo, juntadoEm: label.juntadoEm, formato: 'restrito', link: null, arquivo: null } : null;
}

interface Label {
  id: string | null;
  titulo: string;
  tipo: string;
  juntadoEm: string | null;
}

/** `17/12/2020 11:58:39 - Sentença (Sentença)` or `ID: 330660421 - 2024-07-03 13:44:34.33 - Certidão (Certidão)`. */
export function readLabel(text: string): Label | null {
  let id: string | null = null;
  let local: string | null = null;
  let rest: string;
  const br = BR_LABEL.exec(text);
  const iso = br ? null : ISO_LABEL.exec(text);
  if (br) {
    local = `${br[3]}-${br[2]}-${br[1]}T${br[4]}:${br[5]}:${br[6] ?? '00'}`;
    rest = text.slice(br[0].length);
  } else if (iso) {
    id = iso[1]!;
    local = `${iso[2]}-${iso[3]}-${iso[4]}T${iso[5]}:${iso[6]}:${iso[7]}`;
    rest = text.slice(iso[0].length);
  } else return null;
  // The type is the last parenthesised group (once nested: `Ata de audiência (Ata de audiência no CEJUSC)`).
  let titulo = rest.trim();
  let tipo = '';
  if (titulo.endsWith(')')) {
    let depth = 0;
    for (let i = titulo.length - 1; i >= 0; i--) {
      if (titulo[i] === ')') depth++;
      else if (titulo[i] === '(' && --depth === 0) {
        tipo = titulo.slice(i + 1, -1).trim();
        titulo = titulo.slice(0, i).trim();
        break;
      }
    }
  }
  if (titulo === '') titulo = tipo;
  if (titulo === '') return null;
  return { id, titulo, tipo: tipo || titulo, juntadoEm: brasiliaInstantOfLocal(local) };
}

function paramOf(link: string, name: string): string | null {
  const q = link.indexOf('?');
  if (q === -1) return null;
  const value = new URLSearchParams(link.slice(q + 1)).get(name);
  return value && /^\d{1,18}$/.test(value) ? value : null;
}

/** `nomeArqProcDocBin` is percent-encoded ISO-8859-1 (`Decis%E3o`); the size is in the title (`Despacho (2,62 Kb)`). */
function fileOf(href: string, title: string | undefined): { nome: string; tamanhoBytes: number | null } {
  const q = href.indexOf('?');
  const raw = /(?:^|&)nomeArqProcDocBin=([^&]*)/.exec(href.slice(q + 1))?.[1] ?? '';
  const bytes: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] === '%' && /^[0-9A-Fa-f]{2}$/.test(raw.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(raw.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(raw[i] === '+' ? 0x20 : raw.charCodeAt(i) & 0xff);
  }
  const nome = Buffer.from(bytes).toString('latin1');
  const size = /\((\d+(?:[.,]\d+)?) (Kb|Mb|bytes?)\)\s*$/i.exec(title ?? '');
  const tamanhoBytes = size
    ? Math.round(Number(size[1]!.replace(',', '.')) * (/^kb$/i.test(size[2]!) ? 1024 : /^mb$/i.test(size[2]!) ? 1024 * 1024 : 1))
    : null;
  return { nome, tamanhoBytes };
}

/** The slider form after the grid's footer: `<form action="javascript:A4J.AJAX.SubmitForm('F',{…'actionUrl':'…','containerId':'C'…})">`. */
function readPager(div: HTMLElement | null): PjeDocumentsPager | null {
  const form = div?.querySelector('form');
  const slider = form?.querySelector('input.rich-inslider-field');
  const script = form?.querySelectorAll('script').find((s) => s.text.includes('Richfaces.Slider'));
  if (!form || !slider || !script) return null;
  const max = /'maxValue':'(\d+)'/.exec(script.text);
  const action = /\\?'actionUrl\\?':\\?'([^'\\]+)\\?'/.exec(script.text);
  const container = /\\?'containerId\\?':\\?'([^'\\]+)\\?'/.exec(script.text);
  const grouping = /\\?'similarityGroupingId\\?':\\?'([^'\\]+)\\?'/.exec(script.text);
  const pageField = slider.getAttribute('name');
  if (!max || !action || !container || !grouping || !pageField) return null;
  const fields: [string, string][] = [];
  for (const input of form.querySelectorAll('input[type="hidden"]')) {
    const name = input.getAttribute('name');
    if (name) fields.push([name, input.getAttribute('value') ?? '']);
  }
  fields.push([grouping[1]!, grouping[1]!]);
  return { action: action[1]!, containerId: container[1]!, fields, pageField, paginas: Number(max[1]) };
}

/** The A4J request the slider's `onchange` sends for page `n`, as the page's own script builds it. */
export function pjeDocumentsPageBody(pager: PjeDocumentsPager, n: number): string {
  const body = new URLSearchParams();
  body.append('AJAXREQUEST', pager.containerId);
  body.append(pager.pageField, String(n));
  for (const [name, value] of pager.fields) body.append(name, value);
  body.append('AJAX:EVENTS_COUNT', '1');
  return body.toString();
}
