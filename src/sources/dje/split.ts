/**
 * The matérias of an electoral edition, read from its PDF (pdfjs-dist): the text of each page, line by
 * line, cut wherever a line opens a matéria. The DJE's matérias open with the process number, written
 * `PROCESSO Nº 0600123-45.2024.6.26.0001` or `<CLASSE> (<código>) Nº 0600123-…` (wave2.md §C; electoral
 * numbers have J=6). What precedes the first heading (the masthead) is no matéria. Inside a matéria,
 * `CLASSE:` gives the class, `ADVOGADO(A):` lines the lawyers (name, then the OAB in any spelling) and
 * other `PAPEL: NOME` lines the parties.
 */
import { parseOab } from '../../platform/identifiers/oab.ts';
import type { ElectoralEditionRecord, ElectoralLawyer, ElectoralPublicationRecord } from '../../platform/ports/electoral.ts';

const CNJ = String.raw`(\d{7}-\d{2}\.\d{4}\.6\.\d{2}\.\d{4})`;
const HEADINGS = [new RegExp(`^PROCESSO\\s*(?:N[º°o.]*)?\\s*:?\\s*${CNJ}`, 'i'), new RegExp(`^[A-ZÀ-Ü][A-ZÀ-Ü ]+\\(\\d+\\)\\s*N[º°o.]*\\s*${CNJ}`)];
const LABEL = /^([A-ZÀ-Ü][A-ZÀ-Ü ()/]{1,40}):\s*(.+)$/;
const LAWYER_LABEL = /^ADVOGAD[OA]S?(?:\s*\(A\))?$/;
const OAB_TEXT = /OAB\s*[/:-]?\s*[A-Z]{2}\s*(?:N[º°.]\s*)?[\d.]+(?:-?[A-Z])?|[\d.]+(?:-?[A-Z])?\s*\/\s*[A-Z]{2}\b/i;
/** Roles printed that are not parties. */
const NOT_PARTIES = new Set(['CLASSE', 'PROCESSO', 'RELATOR', 'RELATORA', 'ASSUNTO', 'ORIGEM', 'JUIZ', 'JUIZA', 'FISCAL DA LEI']);

export interface PdfLine {
  page: number;
  text: string;
}

/** The PDF's text as lines (pdfjs marks line ends), each with its 1-based page. */
export async function pdfLines(bytes: Uint8Array): Promise<PdfLine[]> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = getDocument({ data: bytes, verbosity: 0, useSystemFonts: false });
  const doc = await task.promise;
  try {
    const out: PdfLine[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      let line = '';
      for (const item of content.items) {
        if (!('str' in item)) continue;
        line += item.str;
        if (item.hasEOL) {
          if (line.trim()) out.push({ page: n, text: line.trim() });
          line = '';
        }
      }
      if (line.trim()) out.push({ page: n, text: line.trim() });
    }
    return out;
  } finally {
    await task.destroy();
  }
}

function headingNumber(line: string): string | null {
  for (const h of HEADINGS) {
    const m = h.exec(line);
    if (m) return m[1];
  }
  return null;
}

function lawyerOf(value: string): ElectoralLawyer {
  const oabText = OAB_TEXT.exec(value);
  let oab: ElectoralLawyer['oab'] = null;
  if (oabText) {
    try {
      const o = parseOab(oabText[0]);
      oab = { uf: o.uf, numero: o.numero + (o.suffix ?? '') };
    } catch {
      oab = null;
    }
  }
  const nome = (oabText ? value.slice(0, oabText.index) : value).replace(/[\s\-–(,]+$/, '').trim();
  return { nome, oab };
}

/** The matérias of `lines` (an edition's text). */
export function splitMaterias(edition: ElectoralEditionRecord, lines: readonly PdfLine[]): ElectoralPublicationRecord[] {
  const out: ElectoralPublicationRecord[] = [];
  let current: { numero: string; page: number; lines: string[] } | null = null;
  const flush = () => {
    if (!current) return;
    const ordem = out.length + 1;
    let classe: string | null = null;
    const partes: { papel: string; nome: string }[] = [];
    const advogados: ElectoralLawyer[] = [];
    for (const l of current.lines.slice(1)) {
      const m = LABEL.exec(l);
      if (!m) continue;
      const label = m[1].trim();
      if (label === 'CLASSE') classe = m[2].trim();
      else if (LAWYER_LABEL.test(label)) advogados.push(lawyerOf(m[2]));
      else if (!NOT_PARTIES.has(label)) partes.push({ papel: label, nome: m[2].trim() });
    }
    const texto = current.lines.join('\n');
    out.push({
      id: `${edition.tribunal}:${edition.numero}:${ordem}`, tribunal: edition.tribunal, edicao: edition.numero, data: edition.data, ordem, pagina: current.page,
      numeroCnj: current.numero.replace(/\D/g, ''), classe, texto, partes, advogados,
      raw: { edicao: edition.numero, tribunal: edition.tribunal, pagina: current.page, texto },
    });
  };
  for (const line of lines) {
    const numero = headingNumber(line.text);
    if (numero) {
      flush();
      current = { numero, page: line.page, lines: [line.text] };
    } else if (current) current.lines.push(line.text);
  }
  flush();
  return out;
}
