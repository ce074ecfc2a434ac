/**
 * The matérias of an electoral edition, read from its PDF (pdfjs-dist): the text of each page, line by
 * line, cut wherever a line opens a matéria. The layout is the real one (DJE/TRE-PA 2026 nº 223,
 * reference/upstream/real/tse-1.md, README §7):
 *
 *     CUMPRIMENTO DE SENTENÇA(156) Nº 0600270-39.2024.6.14.0000        <- opens the matéria
 *     PUBLICAÇÃO EM : 02/10/2026
 *     PROCESSO : 0600270-39.2024.6.14.0000 CUMPRIMENTO DE SENTENÇA (Belém - PA)
 *     RELATOR : …            FISCAL DA LEI : …
 *     INTERESSADO(A) : NAME
 *     ADVOGADO : NAME (30865/PA)
 *     …the body, which repeats the parties as `ADVOGADO(A): NAME - OAB/PA26585-A`, then the decision
 *
 * and, after the last matéria, the indexes (`Índice de Advogados`, `de Partes`, `de Processos`, `de
 * Datas de Publicação`), whose lines repeat the headings and are no matérias: reading stops at the first.
 * A `PROCESSO : <CNJ>` (or `PROCESSO Nº <CNJ>`) line opens a matéria only when it does not repeat the
 * number of the one just opened. What precedes the first heading (masthead, sumário) is no matéria.
 * Lawyers come in two notations in one matéria, the header's without the registration's letter
 * (`26585/PA`) and the body's with it (`OAB/PA26585-A`): every registration is kept once (each is its
 * own, oab.ts), parties once per role and name.
 */
import { isoDayOfBr } from '../../platform/format.ts';
import { parseOabList } from '../../platform/identifiers/oab.ts';
import type { ElectoralEditionRecord, ElectoralLawyer, ElectoralPublicationRecord } from '../../platform/ports/electoral.ts';
import { foldText } from '../../platform/text.ts';
import { trailingParenthesis, trimEndWhere } from '../../platform/text-scan.ts';

const CNJ = String.raw`(\d{7}-\d{2}\.\d{4}\.6\.\d{2}\.\d{4})`;
const UPPER = 'A-ZÀ-Ý';
/** The whole line `CLASSE(código) Nº <CNJ>`; the body's `CLASSE (156) nº: <CNJ>.` is not one. */
const CLASS_HEADING = new RegExp(`^([${UPPER}][${UPPER} ]*?)\\s?\\((\\d+)\\)\\s*N[º°]\\s*${CNJ}$`);
/**
 * `PROCESSO : <CNJ> <CLASSE> (Cidade - UF)` or `PROCESSO Nº <CNJ>`. Every run of blanks has one way to
 * be read (`(?:\\s*:)?\\s*`, not `\\s*:?\\s*`; `\\s*(?!\\s)` before the rest): linear time on any line.
 */
const PROCESS_LINE = new RegExp(`^PROCESSO\\s*(?::|N[º°o.]+(?:\\s*:)?)\\s*${CNJ}\\s*(?!\\s)(.*)$`);
const INDEX_HEADING = /^ÍNDICE DE (ADVOGADOS|PARTES|PROCESSOS|DATAS DE PUBLICAÇÃO)$/i;
/** `ROLE : value`; the value is what `\\s*(.+)$` took, read with one way per run of blanks (`(?!\\s).+`, or its last blank). */
const LABEL = new RegExp(`^([${UPPER}][${UPPER} ()/]{1,40}?)\\s*:\\s*((?!\\s).+|.)$`);
const LAWYER_LABEL = /^ADVOGAD[OA]S?(?:\s*\(A\))?$/;
/**
 * The body's `NAME - OAB/PA26585-A`, and any `OAB/UF n` or `n/UF` inside a line. A number is tried
 * from the start of its run of digits and dots only (`(?<![\d.])`: a match from inside the run would
 * also match from its start, and trying each digit of `1111…` against the rest is quadratic).
 */
const OAB_TEXT = /OAB\s*(?:[/:-]\s*)?[A-Z]{2}\s*(?:N[º°.]\s*)?[\d.]+(?:-?[A-Z](?![A-Za-z]))?|(?<![\d.])[\d.]+(?:-?[A-Z])?\s*\/\s*[A-Z]{2}(?![A-Za-z])/;
const LINE_TERMINATOR = /[\n\r\u2028\u2029]/;
const NAME_TAIL = /[\s\-–(,]/;
/** Roles printed that are not parties. */
const NOT_PARTIES = new Set([
  'CLASSE',
  'PROCESSO',
  'RELATOR',
  'RELATORA',
  'RELATOR(A)',
  'ASSUNTO',
  'ORIGEM',
  'JUIZ',
  'JUIZA',
  'JUÍZA',
  'JUIZ(A)',
  'FISCAL DA LEI',
  'PUBLICAÇÃO EM',
  'PROCURADORIA',
]);

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

/**
 * The header's `NAME (30865/PA)`: the name and the registrations in a trailing parenthesis with a
 * digit; what /^(.*?)\s*\(([^()]*\d[^()]*)\)\s*$/ read, in one pass.
 */
function parenOabs(value: string): { nome: string; oabs: string } | null {
  const paren = trailingParenthesis(value);
  const nome = paren?.before.trimEnd();
  if (!paren || !/\d/.test(paren.inside) || LINE_TERMINATOR.test(nome!)) return null;
  return { nome: nome!, oabs: paren.inside };
}

/** The lawyers one `ADVOGADO` value names: one per registration printed, or one without. */
function lawyersOf(value: string): ElectoralLawyer[] {
  const paren = parenOabs(value);
  const listed = paren ? parseOabList(paren.oabs).oabs : [];
  let nome = paren && listed.length > 0 ? paren.nome : value;
  let oabs = listed;
  if (oabs.length === 0) {
    const text = OAB_TEXT.exec(value);
    if (text) {
      oabs = parseOabList(text[0]).oabs;
      nome = value.slice(0, text.index);
    }
  }
  nome = trimEndWhere(nome, (ch) => NAME_TAIL.test(ch)).trim();
  return oabs.length === 0 ? [{ nome, oab: null }] : oabs.map((o) => ({ nome, oab: { uf: o.uf, numero: `${o.numero}${o.suffix ?? ''}` } }));
}

interface Open {
  numero: string;
  page: number;
  /** The heading's class and TPU code (`CUMPRIMENTO DE SENTENÇA`, `156`), when it printed them. */
  heading: { classe: string; codigo: string } | null;
  lines: string[];
}

/** What one matéria's lines say: class, publication day, parties and lawyers, each once. */
function readMateria(m: Open) {
  let classe: string | null = null;
  let publicacao: string | null = null;
  const partes = new Map<string, { papel: string; nome: string }>();
  const advogados = new Map<string, ElectoralLawyer>();
  for (const l of m.lines.slice(1)) {
    const process = PROCESS_LINE.exec(l);
    if (process && process[1] === m.numero) {
      // `… CUMPRIMENTO DE SENTENÇA (Belém - PA)`: the class in full (a heading may wrap a long one).
      const printed = (trailingParenthesis(process[2])?.before ?? process[2]).trim();
      if (printed && !classe) classe = printed;
      continue;
    }
    const label = LABEL.exec(l);
    if (!label) continue;
    const [, role, value] = label;
    if (role === 'CLASSE') classe ??= value.trim();
    else if (role === 'PUBLICAÇÃO EM') publicacao ??= isoDayOfBr(value.trim());
    else if (LAWYER_LABEL.test(role)) {
      for (const a of lawyersOf(value)) {
        const key = a.oab ? `${a.oab.uf}${a.oab.numero}` : `?${foldText(a.nome)}`;
        if (!advogados.has(key)) advogados.set(key, a);
      }
    } else if (!NOT_PARTIES.has(role)) {
      const key = `${role}|${foldText(value)}`;
      if (!partes.has(key)) partes.set(key, { papel: role, nome: value.trim() });
    }
  }
  if (m.heading) classe = `${classe && foldText(classe).endsWith(foldText(m.heading.classe)) ? classe : m.heading.classe} (${m.heading.codigo})`;
  return { classe, publicacao, partes: [...partes.values()], advogados: [...advogados.values()] };
}

/** The matérias of `lines` (an edition's text). */
export function splitMaterias(edition: ElectoralEditionRecord, lines: readonly PdfLine[]): ElectoralPublicationRecord[] {
  const out: ElectoralPublicationRecord[] = [];
  let current = null as Open | null;
  const flush = () => {
    if (!current) return;
    const ordem = out.length + 1;
    const { classe, publicacao, partes, advogados } = readMateria(current);
    const texto = current.lines.join('\n');
    out.push({
      id: `${edition.tribunal}:${edition.numero}:${ordem}`,
      tribunal: edition.tribunal,
      edicao: edition.numero,
      data: edition.data,
      publicacao,
      ordem,
      pagina: current.page,
      numeroCnj: current.numero.replace(/\D/g, ''),
      classe,
      texto,
      partes,
      advogados,
      raw: { edicao: edition.numero, tribunal: edition.tribunal, pagina: current.page, publicacao, texto },
    });
    current = null;
  };
  for (const { text, page } of lines) {
    if (INDEX_HEADING.test(text)) break;
    const heading = CLASS_HEADING.exec(text);
    const process = heading ? null : PROCESS_LINE.exec(text);
    if (heading) {
      flush();
      current = { numero: heading[3], page, heading: { classe: heading[1].trim(), codigo: heading[2] }, lines: [text] };
    } else if (process && process[1] !== current?.numero) {
      flush();
      current = { numero: process[1], page, heading: null, lines: [text] };
    } else current?.lines.push(text);
  }
  flush();
  return out;
}
