/**
 * PJe classic *consulta pública* pages → what a person reads on them (reference/upstream/real/README.md
 * §1). Relies on the structure common to the system, never on one court's page: ids by suffix (the
 * `j_idNNN` prefixes change per court and release), classes, labels; the TJRJ capture was re-serialised
 * by an HTML parser, so neither attribute order nor entities are relied on. A page that lacks what
 * every such page has (cut short, a maintenance page, another system) throws PjePageError: a failure,
 * never an empty case. Value of the claim: PJe never publishes it (null, never 0).
 */
import { parse, type HTMLElement } from 'node-html-parser';
import { brasiliaInstantOfLocal, isoDayOfBr } from '../../../platform/format.ts';
import { cnjCourtSigla, parseCnj, parseOab } from '../../../platform/identifiers/index.ts';
import type { ConsultaCase, ConsultaLawyer, ConsultaMovement, ConsultaParty } from '../record.ts';

/** The page is not what this step of the flow answers (or is cut short). The message never quotes page content. */
export class PjePageError extends Error {
  override name = 'PjePageError';
}

/** One row of the search answer. */
export interface PjeHit {
  /** The CNJ number of the row, 20 digits. */
  numeroCnj: string;
  /** PJe's internal process id (in the cells' ids), null when absent. */
  idProcesso: string | null;
  /** The detail page's path and query as the row opens it (`/<ctx>/ConsultaPublica/DetalheProcessoConsultaPublica/listView.seam?ca=…`). */
  detailPath: string;
}

/** `found: false` only on PJe's explicit "no hit" answer: an empty table with its footer. */
export type PjeSearchAnswer = { found: false } | { found: true; hits: PjeHit[] };

const CNJ_TEXT = /\d{7}-\d{2}\.\d{4}\.\d\.\d{2}\.\d{4}/;
const POPUP = /openPopUp\(\s*'[^']*'\s*,\s*'([^']+)'\s*\)/;

/** Text as a browser shows it: entities decoded, runs of blanks (incl. &#160;) as one space, trimmed. */
export function shown(node: HTMLElement | undefined | null): string {
  return (node?.text ?? '').replace(/[\s\u00a0]+/g, ' ').trim();
}

function whole(html: string, what: string): void {
  if (!/<\/html>\s*$/i.test(html)) throw new PjePageError(`${what}: the page is cut short (no closing </html>)`);
}

/** The AJAX answer to the search POST (`fPP:processosGridPanel` fragment). */
export function parsePjeSearch(html: string): PjeSearchAnswer {
  whole(html, 'PJe search answer');
  const root = parse(html);
  const tbody = root.querySelector('tbody[id$="processosTable:tb"]');
  if (!tbody) throw new PjePageError('PJe search answer: no result table (fPP:processosTable)');
  const rows = tbody.querySelectorAll(':scope > tr');
  if (rows.length === 0) {
    const messages = shown(root.querySelector('dl.rich-messages'));
    if (messages !== '') throw new PjePageError('PJe search answer: the court answered a message instead of results');
    const footer = shown(root.querySelector('table[id$="processosTable"] tfoot span.text-muted'));
    if (!/^(0\s+)?resultados encontrados$/.test(footer))
      throw new PjePageError('PJe search answer: an empty table without its "resultados encontrados" footer');
    return { found: false };
  }
  const hits = rows.map((row) => {
    const link = POPUP.exec(row.innerHTML);
    const cnj = CNJ_TEXT.exec(shown(row.querySelector('b.btn-block')) || shown(row));
    if (!link || !cnj) throw new PjePageError('PJe search answer: a result row without its detail link or case number');
    const id = /processosTable:(\d+):/.exec(row.querySelector('td')?.id ?? '');
    return { numeroCnj: cnj[0].replace(/\D/g, ''), idProcesso: id ? id[1] : null, detailPath: link[1] };
  });
  return { found: true, hits };
}

/** The count the search answer's footer prints (`12 resultados encontrados`); null when it prints none. */
export function pjeResultCount(html: string): number | null {
  const footer = shown(parse(html).querySelector('table[id$="processosTable"] tfoot span.text-muted'));
  const m = /^(\d[\d.]*)\s+resultados encontrados$/.exec(footer);
  return m ? Number(m[1]!.replace(/\./g, '')) : null;
}

// ---- detail page --------------------------------------------------------------------------------

interface Header {
  /** Labelled properties: label → value text. */
  labelled: Map<string, string>;
  /** Unlabelled properties' `<b>LABEL</b><br/>TEXT` pairs (Órgão Julgador, Endereço, Órgão Julgador Colegiado). */
  bold: { label: string; text: string }[];
}

function readHeader(root: HTMLElement): Header {
  const labelled = new Map<string, string>();
  const bold: Header['bold'] = [];
  for (const view of root.querySelectorAll('div.propertyView')) {
    const label = shown(view.querySelector('.name label'));
    const value = view.querySelector('.value');
    if (!value) continue;
    if (label !== '') {
      if (!labelled.has(label)) labelled.set(label, shown(value));
      continue;
    }
    // `<b>Órgão Julgador</b><br/>NAME<div><br/><b>Endereço</b><br/>ADDRESS</div>`: cut the text at each <b>.
    const marked = parse(value.innerHTML.replace(/<b\b[^>]*>([\s\S]*?)<\/b>/gi, '\u0001$1\u0002'));
    for (const piece of marked.text.split('\u0001').slice(1)) {
      const [name, rest = ''] = piece.split('\u0002');
      bold.push({ label: name.replace(/[\s\u00a0]+/g, ' ').trim(), text: rest.replace(/[\s\u00a0]+/g, ' ').trim() });
    }
  }
  return { labelled, bold };
}

/** `ROOT (1156)  -  CHILD (7771)  -  LEAF (14757` (the last `)` missing on every captured page) → `LEAF`. Names may hold ` - `. */
export function subjectLeaf(path: string): string | null {
  const levels = path.split(/(?<=\(\d+\))\s+-\s+/);
  const leaf = levels[levels.length - 1].replace(/\s*\(\d+\)?\s*$/, '').trim();
  return leaf === '' ? null : leaf;
}

/** `PROCEDIMENTO COMUM CÍVEL (7)` → `PROCEDIMENTO COMUM CÍVEL`. */
const withoutCode = (text: string) => text.replace(/\s*\(\d+\)\s*$/, '').trim();

const POLOS: [string, ConsultaParty['polo']][] = [
  ['processoPartesPoloAtivoResumidoDiv', 'ATIVO'],
  ['processoPartesPoloPassivoResumidoDiv', 'PASSIVO'],
  ['processoParteOutrosInteressadosResumidoDiv', 'OUTROS'],
];

interface Participant {
  nome: string;
  tipo: string;
  documento: string | null;
  tipoPessoa: ConsultaParty['tipoPessoa'];
  oab: ConsultaLawyer['oab'];
}

const SOCIAL_NAME = /\s+registrad[oa]\(a\) civilmente como\s+/i;

/**
 * `NAME - CPF: 000.000.001-91 (AUTOR)`, `NAME - CNPJ: … (REU)`, `Name (RÉU)`,
 * `NAME registrado(a) civilmente como NAME - OAB MA3811-A - CPF: … (ADVOGADO)`: read from the right,
 * since names and documents come first. The social name is the one shown first.
 */
export function readParticipant(text: string): Participant {
  const role = /\(([^()]+)\)\s*$/.exec(text);
  if (!role) throw new PjePageError('PJe detail: a participant without its role in parentheses');
  let rest = text.slice(0, role.index).trim();
  let documento: string | null = null;
  let tipoPessoa: Participant['tipoPessoa'] = null;
  const doc = /\s+-\s+(CPF|CNPJ):\s*([\dA-Za-z*./-]+)$/.exec(rest);
  if (doc) {
    rest = rest.slice(0, doc.index);
    tipoPessoa = doc[1] === 'CPF' ? 'FISICA' : 'JURIDICA';
    // A masked number (`639.XXX.XXX-XX`, `***.000.014-**`) exactly as shown; a whole one (alphanumeric CNPJs too) bare.
    documento = /\*|X{2,}/i.test(doc[2]) ? doc[2] : doc[2].replace(/[./-]/g, '').toUpperCase();
  }
  let oab: Participant['oab'] = null;
  const reg = /\s+-\s+OAB\s+([A-Z]{2}\s*[\dA-Z.-]+)$/i.exec(rest);
  if (reg) {
    rest = rest.slice(0, reg.index);
    const parsed = parseOab(reg[1]);
    oab = { uf: parsed.uf, numero: `${parsed.numero}${parsed.suffix ?? ''}` };
  }
  const nome = rest.split(SOCIAL_NAME)[0].trim();
  if (nome === '') throw new PjePageError('PJe detail: a participant without a name');
  return { nome, tipo: role[1].trim(), documento, tipoPessoa, oab };
}

/** A representative row that is a lawyer (or public attorney), not e.g. a minor's legal representative. */
const isCounsel = (p: Participant) => p.oab !== null || /ADVOGAD|PROCURADOR|DEFENSOR/i.test(p.tipo);

function readParties(root: HTMLElement): ConsultaParty[] {
  const parties: ConsultaParty[] = [];
  for (const [suffix, polo] of POLOS) {
    const div = root.querySelector(`div[id$="${suffix}"]`);
    if (!div) {
      if (polo === 'OUTROS') continue; // not every build renders an empty panel
      throw new PjePageError(`PJe detail: no ${suffix} panel`);
    }
    let current: ConsultaParty | null = null;
    for (const row of div.querySelectorAll('table[id$="ResumidoList"] > tbody[id$=":tb"] > tr')) {
      const cell = row.querySelector('td');
      const bold = cell?.querySelector('span.text-bold');
      if (bold) {
        const p = readParticipant(shown(bold));
        current = { polo, tipo: p.tipo, nome: p.nome, documento: p.documento, tipoPessoa: p.tipoPessoa, advogados: [] };
        parties.push(current);
        continue;
      }
      // A representative row: `&#160;&#160;&#160;&#160;<span>NAME - OAB … (ADVOGADO)</span>`, belonging to the party above.
      const text = shown(cell?.querySelector('span span') ?? cell?.querySelector('div span'));
      if (text === '') throw new PjePageError('PJe detail: an empty participant row');
      const p = readParticipant(text);
      if (current && isCounsel(p)) current.advogados.push({ nome: p.nome, oab: p.oab });
      else {
        current = { polo, tipo: p.tipo, nome: p.nome, documento: p.documento, tipoPessoa: p.tipoPessoa, advogados: [] };
        parties.push(current);
      }
    }
  }
  return parties;
}

const MOVEMENT = /^(\d{2})\/(\d{2})\/(\d{4}) (\d{2}):(\d{2}):(\d{2}) - (.+)$/s;

function readMovements(root: HTMLElement): ConsultaMovement[] {
  const tbody = root.querySelector('tbody[id$="processoEvento:tb"]');
  if (!tbody) throw new PjePageError('PJe detail: no movements table (processoEvento)');
  return tbody.querySelectorAll(':scope > tr').map((row) => {
    const m = MOVEMENT.exec(shown(row.querySelector('td')));
    const data = m && brasiliaInstantOfLocal(`${m[3]}-${m[2]}-${m[1]}T${m[4]}:${m[5]}:${m[6]}`);
    if (!m || !data) throw new PjePageError('PJe detail: a movement without its "dd/mm/yyyy hh:mm:ss - text" line');
    return { data, titulo: m[7], texto: null };
  });
}

const SECRET = /segredo de justi[çc]a|sigilos[oa]/i;

export interface PjeDetailContext {
  /** Default: the degree the CNJ number implies (origin 0000 → 2). */
  grau?: 1 | 2;
}

/** The detail page (`DetalheProcessoConsultaPublica/listView.seam?ca=…`) → the case as the page shows it. */
export function parsePjeDetail(html: string, context: PjeDetailContext = {}): ConsultaCase {
  whole(html, 'PJe detail');
  const root = parse(html);
  const header = readHeader(root);
  const numero = header.labelled.get('Número Processo');
  if (!numero || !CNJ_TEXT.test(numero)) throw new PjePageError('PJe detail: no "Número Processo"');
  const cnj = parseCnj(CNJ_TEXT.exec(numero)![0]);
  const bold = (label: string) => header.bold.find((b) => b.label === label)?.text || null;
  const assunto = header.labelled.get('Assunto');
  const referencia = CNJ_TEXT.exec(header.labelled.get('Processo referência') ?? '');
  const partes = readParties(root);
  const movimentos = readMovements(root);
  const classe = header.labelled.get('Classe Judicial');
  return {
    numeroCnj: cnj.digits,
    tribunal: cnjCourtSigla(cnj.segment, cnj.tribunal) ?? '',
    sistema: 'pje',
    grau: context.grau ?? (cnj.origin === '0000' ? 2 : 1),
    classe: classe ? withoutCode(classe) || null : null,
    assuntos: assunto ? [subjectLeaf(assunto)].filter((s): s is string => s !== null) : [],
    // Two shapes: a labelled property (TJRJ) or `<b>Órgão Julgador</b><br/>NAME` (TJMA, TJCE; 2nd degree: the rapporteur's cabinet).
    orgao: header.labelled.get('Órgão Julgador') || bold('Órgão Julgador'),
    foro: header.labelled.get('Jurisdição') || null,
    juiz: null, // no PJe consulta pública page names the judge
    distribuidoEm: isoDayOfBr(header.labelled.get('Data da Distribuição')),
    valorCausaCentavos: null,
    situacao: null,
    segredo: [...header.labelled.values()].some((v) => SECRET.test(v)) || partes.some((p) => SECRET.test(p.nome)),
    partes,
    movimentos,
    incidentes: [],
    processoReferencia: referencia ? referencia[0].replace(/\D/g, '') : null,
  };
}
