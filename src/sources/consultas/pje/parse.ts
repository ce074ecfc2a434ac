/**
 * PJe classic *consulta pública* pages → what a person reads on them (reference/upstream/real/README.md
 * §1). Relies on the structure common to the system, never on one court's page: ids by suffix (the
 * `j_idNNN` prefixes change per court and release), classes, labels; the TJRJ capture was re-serialised
 * by an HTML parser, so neither attribute order nor entities are relied on. Value of the claim: PJe never
 * publishes it (null, never 0).
 *
 * A page fails (PjePageError) only when it lacks what every page of the system has: its end, the
 * header's "Número Processo", the parties panels, the movements table (issue 44). Inside a page, a
 * line read only in part keeps what it could and notes an anomaly: a participant with no role in
 * parentheses keeps its name (`tipo: null`), a lawyer whose OAB does not read keeps his name
 * (`oab: null`), a movement with no time keeps its day. Courts print roles with a gendered suffix
 * (`AUTOR(A)`, `REQUERIDO(A)`: TJMG, TJPE), social names (`X registrado(a) civilmente como Y`), and a
 * Defensoria Pública under the party it represents; all are read as a person reads them. Identifiers go
 * through platform/identifiers/on-page.ts, so no page content becomes the caller's 4xx. Every scan is
 * linear: indexOf and anchored expressions, no expression that backtracks over the rest of the input.
 */
import { parse, type HTMLElement } from 'node-html-parser';
import { brasiliaInstantOfLocal, isoDayOfBr } from '../../../platform/format.ts';
import { cnjCourtSigla, fromPage } from '../../../platform/identifiers/index.ts';
import { Anomalies } from '../anomalies.ts';
import { oneLine } from '../html.ts';
import { classifyMessage } from '../messages.ts';
import { stripCode, subjectLeaf } from '../subject.ts';
import type { ConsultaCase, ConsultaListCount, ConsultaMovement } from '../record.ts';
import { checkedCount, counterOf, countOf, foldId, leafText, PjeMessageError, PjePageError, shown } from './page.ts';
import { readParties } from './parties.ts';

export { PjeMessageError, PjePageError, shown } from './page.ts';
export { readParticipant, type Participant } from './parties.ts';

/** One row of the search answer, as a person reads it. */
export interface PjeHit {
  /** The CNJ number of the row, 20 digits. */
  numeroCnj: string;
  /** PJe's internal process id (in the cells' ids), null when absent. */
  idProcesso: string | null;
  /** The detail page's path and query as the row opens it (`/<ctx>/ConsultaPublica/DetalheProcessoConsultaPublica/listView.seam?ca=…`). */
  detailPath: string;
  /** The class printed before the link (`CUMPRIMENTO DE SENTENÇA`), null when blank. */
  classe: string | null;
  /** The link's text: abbreviated class, number and subject (`CumSen 0029110-71.2012.8.10.0001 - Obrigação de Fazer / Não Fazer`). */
  rotulo: string;
  /** The parties' summary after the link (`NAME e outros (1) X OTHER`), null when blank. */
  partes: string | null;
  /** The last movement column (`Arquivado Definitivamente (01/04/2024 14:17:12)`), null when blank. */
  ultimoMovimento: string | null;
}

/**
 * `found: false` only on PJe's explicit "no hit" answer: an empty table with its footer. `total` is the
 * count the footer prints (null when it prints none); `limitado` when the court says it shows only the
 * first N (TJRO, TJMA: "somente os 30 primeiros serão exibidos"): then the count is that cap, not a total.
 */
export type PjeSearchAnswer = { found: false } | { found: true; hits: PjeHit[]; total: number | null; limitado: boolean };

const CNJ_TEXT = /\d{7}-\d{2}\.\d{4}\.\d\.\d{2}\.\d{4}/;
const POPUP = /openPopUp\(\s*'[^']*'\s*,\s*'([^']+)'\s*\)/;

function whole(html: string, what: string): void {
  const end = html.trimEnd();
  if (!end.slice(-64).toLowerCase().includes('</html>')) throw new PjePageError(`${what}: the page is cut short (no closing </html>)`);
}

/** The AJAX answer to the search POST (`fPP:processosGridPanel` fragment). */
export function parsePjeSearch(html: string, anomalies = new Anomalies()): PjeSearchAnswer {
  whole(html, 'PJe search answer');
  const root = parse(html);
  // The hits' body by its id (`fPP:processosTable:tb`), else by meaning: the body whose rows open a case's detail (`openPopUp`).
  const tbody =
    root.querySelector('tbody[id$="processosTable:tb"]') ??
    root
      .querySelectorAll('tbody')
      .find(
        (t) =>
          foldId(t.id).includes('processostable') ||
          t.querySelectorAll(':scope > tr').some((tr) => /\/DetalheProcessoConsultaPublica\/listView\.seam\?ca=/.test(POPUP.exec(tr.innerHTML)?.[1] ?? '')),
      );
  if (!tbody) throw new PjePageError('PJe search answer: no result table (fPP:processosTable)');
  const rows = tbody.querySelectorAll(':scope > tr');
  const footer = shown(
    tbody.closest('table')?.querySelector('tfoot span.text-muted') ?? root.querySelector('table[id$="processosTable"] tfoot span.text-muted'),
  );
  if (rows.length === 0) {
    // "Sua pesquisa não encontrou nenhum processo disponível.": the message decides (messages.ts), never the empty table alone.
    const messages = root.querySelectorAll('.rich-messages-label').map(shown).filter(Boolean).join(' ') || shown(root.querySelector('dl.rich-messages'));
    const kind = classifyMessage(messages);
    if (kind === 'not_found') return { found: false };
    if (kind !== null) throw new PjeMessageError(kind, messages);
    // The listView page itself (form fPP, before any search) has the same empty table and footer: a form, not an answer.
    if (root.querySelector('form#fPP')) throw new PjePageError('PJe search answer: the search form came back instead of results');
    if (!/^(0 )?resultados? encontrados?$/.test(footer))
      throw new PjePageError('PJe search answer: an empty table without its "resultados encontrados" footer');
    return { found: false };
  }
  const hits: PjeHit[] = [];
  for (const row of rows) {
    const hit = searchRow(row);
    if (hit) hits.push(hit);
    else anomalies.note('busca.linha');
  }
  if (hits.length === 0) throw new PjePageError('PJe search answer: no result row has its detail link and case number');
  // "Sua consulta retornou muitos processos e somente os 30 primeiros serão exibidos": the count is the cap.
  const warning = shown(root.querySelector('div.alert-danger')) + shown(root.querySelector('div.alert-warning'));
  const capped = /somente os \d+ primeiros/i.test(warning);
  const total = countOf(footer);
  // The footer counts more hits than the rows read (a pager, or rows the page lacks): partial, never complete.
  const fewer = total !== null && hits.length < total;
  if (fewer && !root.querySelector('.rich-datascr')) anomalies.note('lista.contagem');
  return { found: true, hits, total: capped ? null : total, limitado: capped || fewer };
}

/** One hit row: link button cell, `CLASS <a><b>ABBREV CNJ - SUBJECT</b></a> PARTIES` cell, last movement cell. */
function searchRow(row: HTMLElement): PjeHit | null {
  const link = POPUP.exec(row.innerHTML);
  const b = row.querySelector('b.btn-block');
  const rotulo = shown(b);
  const cnj = CNJ_TEXT.exec(rotulo) ?? CNJ_TEXT.exec(shown(row));
  if (!link || !cnj) return null;
  const cells = row.childNodes.filter((n): n is HTMLElement => (n as HTMLElement).rawTagName?.toLowerCase() === 'td');
  const id = /processosTable:(\d+):/.exec(cells[0]?.id ?? '');
  // `<td>CLASS <a><b>…</b></a> PARTIES</td>`: the text before the link is the class, after it the parties.
  const anchor = b?.parentNode?.rawTagName?.toLowerCase() === 'a' ? b.parentNode : null;
  const main = anchor?.parentNode ?? null;
  let classe = '';
  let partes = '';
  if (main) {
    let after = false;
    for (const node of main.childNodes) {
      if (node === anchor) after = true;
      else if (after) partes += ` ${node.text}`;
      else classe += ` ${node.text}`;
    }
  }
  const last = cells.length > 2 ? shown(cells[cells.length - 1]) : '';
  return {
    numeroCnj: cnj[0].replace(/\D/g, ''),
    idProcesso: id ? id[1]! : null,
    detailPath: link[1]!,
    classe: oneLine(classe) || null,
    rotulo: rotulo || cnj[0],
    partes: oneLine(partes) || null,
    ultimoMovimento: last || null,
  };
}

/** The count the search answer's footer prints (`12 resultados encontrados`); null when it prints none. */
export function pjeResultCount(html: string): number | null {
  return countOf(shown(parse(html).querySelector('table[id$="processosTable"] tfoot span.text-muted')));
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
    // `Número Processo`, `Número Processo:`: the label without its colon.
    const label = shown(view.querySelector('.name label')).replace(/\s*:$/, '');
    const value = view.querySelector('.value');
    if (!value) continue;
    if (label !== '') {
      if (!labelled.has(label)) labelled.set(label, shown(value));
      continue;
    }
    // `<b>Órgão Julgador</b><br/>NAME<div><br/><b>Endereço</b><br/>ADDRESS</div>`: the text between each <b>…</b> and the next <b>.
    bold.push(...boldPairs(value.innerHTML));
  }
  return { labelled, bold };
}

/** `<b>L1</b> T1 <b>L2</b> T2` → [{L1, T1}, {L2, T2}]: bounded indexOf scans, each character visited once. */
function boldPairs(html: string): Header['bold'] {
  const pairs: Header['bold'] = [];
  const lower = html.toLowerCase();
  let at = lower.indexOf('<b>');
  while (at !== -1) {
    const close = lower.indexOf('</b>', at + 3);
    if (close === -1) break;
    const next = lower.indexOf('<b>', close + 4);
    const label = parse(html.slice(at + 3, close)).text;
    const text = parse(html.slice(close + 4, next === -1 ? html.length : next)).text;
    pairs.push({ label: oneLine(label), text: oneLine(text) });
    at = next;
  }
  return pairs;
}

/** `dd/mm/yyyy hh:mm:ss - TEXT`; some builds print `hh:mm`, or the day alone. Anchored: no backtracking. */
const MOVEMENT_DAY = /^(\d{2})\/(\d{2})\/(\d{4})(?: (\d{2}):(\d{2})(?::(\d{2}))?)?(?: - | -$|$)/;

/** One movement line: the instant (or the day, when the time does not read) and the text; null when it has no date at all. */
export function readMovement(line: string, anomalies = new Anomalies()): ConsultaMovement | null {
  const m = MOVEMENT_DAY.exec(line);
  if (!m) {
    anomalies.note('movimento.linha');
    return null;
  }
  const titulo = line.slice(m[0].length).trim();
  const day = `${m[3]}-${m[2]}-${m[1]}`;
  const instant = m[4] ? brasiliaInstantOfLocal(`${day}T${m[4]}:${m[5]}:${m[6] ?? '00'}`) : null;
  if (!instant) anomalies.note('movimento.data');
  if (!instant && !isoDayOfBr(`${m[1]}/${m[2]}/${m[3]}`)) return null;
  return { data: instant ?? day, titulo, texto: null };
}

/**
 * The movements' rows: the body whose id names them (`…:processoEvento:tb`, however prefixed or
 * suffixed), else the first body under the panel headed "Movimentações do Processo". Never a table of
 * dated rows alone: the documents' table is one too.
 */
function movementsBody(root: HTMLElement): HTMLElement | null {
  const byId = root.querySelectorAll('tbody').find((t) => foldId(t.id).includes('processoevento'));
  if (byId) return byId;
  const heading = root
    .querySelectorAll('div, span, h1, h2, h3, h4, h5, h6, th, legend')
    .find((el) => /^movimentacoes( do processo)?$/.test(leafText(el) ?? ''));
  // Within the heading's own panel (its parent), a body of dated rows outside pagers: never a body of another section.
  const panel = heading?.parentNode as HTMLElement | null;
  const dated = (t: HTMLElement) => t.querySelectorAll(':scope > tr').some((tr) => MOVEMENT_DAY.test(shown(tr.querySelector('td'))));
  return panel?.querySelectorAll('tbody').find((t) => !t.closest('.rich-datascr') && !t.closest('.rich-inslider') && dated(t)) ?? null;
}

function readMovements(root: HTMLElement, anomalies: Anomalies): { movimentos: ConsultaMovement[]; lista: ConsultaListCount } {
  const tbody = movementsBody(root);
  if (!tbody) throw new PjePageError('PJe detail: no movements table (processoEvento)');
  const rows = tbody.querySelectorAll(':scope > tr').filter((tr) => tr.querySelector('td'));
  const movimentos: ConsultaMovement[] = [];
  for (const row of rows) {
    const m = readMovement(shown(row.querySelector('td')), anomalies);
    if (m) movimentos.push(m);
  }
  // The footer right after the table: `52 resultados encontrados` (15 shown per page, a slider to the others).
  const table = tbody.closest('table');
  const { listados, pager } = counterOf(table?.parentNode ?? root, table);
  return { movimentos, lista: checkedCount(listados, rows.length, pager, anomalies) };
}

const SECRET = /segredo de justi[çc]a|sigilos[oa]/i;

export interface PjeDetailContext {
  /** Default: the degree the CNJ number implies (origin 0000 → 2). */
  grau?: 1 | 2;
}

/** `PROCEDIMENTO COMUM CÍVEL (7)` → `PROCEDIMENTO COMUM CÍVEL`. */
const withoutCode = (text: string) => stripCode(text.trim()) || null;

/** The detail page (`DetalheProcessoConsultaPublica/listView.seam?ca=…`) → the case as the page shows it. */
export function parsePjeDetail(html: string, context: PjeDetailContext = {}, anomalies = new Anomalies()): ConsultaCase {
  whole(html, 'PJe detail');
  const root = parse(html);
  const header = readHeader(root);
  const printed = CNJ_TEXT.exec(header.labelled.get('Número Processo') ?? '');
  const cnj = printed && fromPage('cnj', printed[0]);
  if (!cnj) throw new PjePageError('PJe detail: no readable "Número Processo"');
  const bold = (label: string) => header.bold.find((b) => b.label === label)?.text || null;
  const assunto = header.labelled.get('Assunto');
  const referenciaText = CNJ_TEXT.exec(header.labelled.get('Processo referência') ?? '');
  const referencia = referenciaText && fromPage('cnj', referenciaText[0]);
  if (referenciaText && !referencia) anomalies.note('capa.campo');
  const parties = readParties(root, anomalies);
  const movements = readMovements(root, anomalies);
  const classe = header.labelled.get('Classe Judicial');
  return {
    numeroCnj: cnj.digits,
    tribunal: cnjCourtSigla(cnj.segment, cnj.tribunal) ?? '',
    sistema: 'pje',
    grau: context.grau ?? (cnj.origin === '0000' ? 2 : 1),
    classe: classe ? withoutCode(classe) : null,
    assuntos: assunto ? [subjectLeaf(assunto)].filter((s): s is string => s !== null) : [],
    // Two shapes: a labelled property (TJRJ) or `<b>Órgão Julgador</b><br/>NAME` (TJMA, TJCE; 2nd degree: the rapporteur's cabinet).
    orgao: header.labelled.get('Órgão Julgador') || bold('Órgão Julgador'),
    foro: header.labelled.get('Jurisdição') || null,
    juiz: null, // no PJe consulta pública page names the judge
    distribuidoEm: isoDayOfBr(header.labelled.get('Data da Distribuição')),
    valorCausaCentavos: null,
    situacao: null,
    segredo: [...header.labelled.values()].some((v) => SECRET.test(v)) || parties.partes.some((p) => SECRET.test(p.nome)),
    partes: parties.partes,
    movimentos: movements.movimentos,
    incidentes: [],
    processoReferencia: referencia ? referencia.digits : null,
    // PJe lists parties 10 rows at a time and movements 15 at a time: how many it lists, how many this page showed.
    listas: { partes: parties.lista, movimentos: movements.lista },
    anomalias: anomalies.campos,
  };
}
