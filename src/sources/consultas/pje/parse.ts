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
import { classifyMessage, MESSAGE_FAILURES, type CourtMessage } from '../messages.ts';
import { stripCode, subjectLeaf } from '../subject.ts';
import type { ConsultaCase, ConsultaLawyer, ConsultaListCount, ConsultaMovement, ConsultaParty } from '../record.ts';

/** The page is not what this step of the flow answers (or is cut short). The message never quotes page content. */
export class PjePageError extends Error {
  override name = 'PjePageError';
}

/** The court answered a message instead of results (rich-messages), classified by its words (messages.ts): never "not found" unless it says so. */
export class PjeMessageError extends PjePageError {
  override name = 'PjeMessageError';
  readonly kind: Exclude<CourtMessage, 'not_found'>;
  readonly text: string;
  constructor(kind: Exclude<CourtMessage, 'not_found'>, text: string) {
    super(`PJe search answer: ${MESSAGE_FAILURES[kind].why}`);
    this.kind = kind;
    this.text = text;
  }
}

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

/** Text as a browser shows it: entities decoded, runs of blanks (incl. &#160;) as one space, trimmed, mojibake undone. */
export function shown(node: HTMLElement | undefined | null): string {
  return oneLine(node?.text ?? '');
}

function whole(html: string, what: string): void {
  const end = html.trimEnd();
  if (!end.slice(-64).toLowerCase().includes('</html>')) throw new PjePageError(`${what}: the page is cut short (no closing </html>)`);
}

/** `N resultados encontrados` → N; null when no number is printed (PJe's empty answer). */
function countOf(text: string): number | null {
  const m = /^(\d[\d.]*) resultados? encontrados?$/.exec(text);
  return m ? Number(m[1]!.replace(/\./g, '')) : null;
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

/**
 * The three parties' sections by what they say (issue 52): an element whose id names the side however
 * the build prefixes or suffixes it (`j_id149:processoPartesPoloAtivoResumidoDiv`, `…PoloAtivoDetalhadoDiv`,
 * `poloAtivo_2`), or whose heading says it (`Polo ativo`, `Polo Passivo`, `Outros interessados`).
 */
const SIDES: { polo: ConsultaParty['polo']; key: string; heading: string }[] = [
  { polo: 'ATIVO', key: 'poloativo', heading: 'polo ativo' },
  { polo: 'PASSIVO', key: 'polopassivo', heading: 'polo passivo' },
  { polo: 'OUTROS', key: 'outrosinteressados', heading: 'outros interessados' },
];

const foldText = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
const foldId = (id: string) => foldText(id).replace(/[^a-z]/g, '');

/**
 * A list's data rows: `tr`s with cells, outside headers, footers and pagers (a scroller's own table).
 * Ancestors walked by hand: no selector compiled per row.
 */
function dataRows(section: HTMLElement): HTMLElement[] {
  const outside = (tr: HTMLElement) => {
    for (let up = tr.parentNode as HTMLElement | null; up && up !== section; up = up.parentNode as HTMLElement | null) {
      const tag = up.rawTagName?.toLowerCase();
      if (tag === 'thead' || tag === 'tfoot' || up.classList?.contains('rich-datascr') || up.classList?.contains('rich-inslider')) return false;
    }
    return true;
  };
  return section.querySelectorAll('tr').filter((tr) => tr.childNodes.some((c) => (c as HTMLElement).rawTagName?.toLowerCase() === 'td') && outside(tr));
}

/** Every element with an id, in document order: one walk (the parser keeps `id` at hand; `[id]` would parse every element's attributes). */
function elementsWithId(root: HTMLElement): HTMLElement[] {
  const out: HTMLElement[] = [];
  const stack: HTMLElement[] = [root];
  while (stack.length > 0) {
    const el = stack.pop()!;
    if (el.id) out.push(el);
    for (let i = el.childNodes.length - 1; i >= 0; i--) if (el.childNodes[i]!.nodeType === 1) stack.push(el.childNodes[i] as HTMLElement);
  }
  return out;
}

/** The outermost element of each candidate, in document order: an element inside another candidate is that one's part. */
function outermost(els: HTMLElement[]): HTMLElement[] {
  const set = new Set(els);
  return els.filter((el) => {
    for (let up = el.parentNode as HTMLElement | null; up; up = up.parentNode as HTMLElement | null) if (set.has(up)) return false;
    return true;
  });
}

/** Elements whose children are all text (a panel's header, a label): their text is short to read, and the heading search stays linear. */
const leafText = (el: HTMLElement) => (el.childNodes.every((c) => c.nodeType === 3) ? foldText(shown(el)).replace(/:$/, '').trim() : null);

/** The sides' headings (`Polo ativo`…) as leaf elements, found in one walk of the page, once per page and only when an id did not find a side. */
function sideHeadings(root: HTMLElement): Map<string, HTMLElement[]> {
  const out = new Map<string, HTMLElement[]>();
  const wanted = new Set(SIDES.map((s) => s.heading));
  const stack: HTMLElement[] = [root];
  while (stack.length > 0) {
    const el = stack.pop()!;
    const kids = el.childNodes;
    if (kids.length > 0 && kids.every((c) => c.nodeType === 3)) {
      const raw = el.rawText;
      if (raw.length < 60) {
        const text = leafText(el);
        if (text && wanted.has(text)) out.set(text, [...(out.get(text) ?? []), el]);
      }
      continue;
    }
    for (let i = kids.length - 1; i >= 0; i--) if (kids[i]!.nodeType === 1) stack.push(kids[i] as HTMLElement);
  }
  return out;
}

/** The section of one side: by id first, by heading else; the one that holds rows, else the first found (an empty section). */
function partySection(ids: [HTMLElement, string][], headings: () => Map<string, HTMLElement[]>, side: (typeof SIDES)[number]): HTMLElement | null {
  const byId = outermost(ids.filter(([, id]) => id.includes(side.key)).map(([el]) => el));
  const withRows = byId.find((c) => dataRows(c).length > 0);
  if (withRows) return withRows;
  const byHeading = (headings().get(side.heading) ?? [])
    .map((heading) => {
      let up = heading.parentNode as HTMLElement | null;
      while (up?.parentNode && !up.querySelector('table')) up = up.parentNode as HTMLElement | null;
      return up;
    })
    .filter((el): el is HTMLElement => el !== null && el.parentNode !== null);
  return byHeading.find((c) => dataRows(c).length > 0) ?? byId[0] ?? byHeading[0] ?? null;
}

export interface Participant {
  nome: string;
  /** The role as printed without a gendered suffix (`AUTOR(A)` → `AUTOR`); null when the line prints none. */
  tipo: string | null;
  documento: string | null;
  tipoPessoa: ConsultaParty['tipoPessoa'];
  oab: ConsultaLawyer['oab'];
}

/** `(A)`, `(O)`, `(S)`, `(AS)`, `(OS)`, `(ES)`, `(A/S)`: the gendered or plural ending a court appends to a role. */
const ROLE_SUFFIX = /\((?:A|O|S|AS|OS|ES|A\/S)\)$/i;

/** The parenthesised group at the very end (nested once: `(REQUERIDO(A))`), found by a right-to-left scan. */
function trailingGroup(text: string): { inside: string; before: string } | null {
  if (!text.endsWith(')')) return null;
  let depth = 0;
  for (let i = text.length - 1; i >= 0; i--) {
    const c = text[i];
    if (c === ')') depth++;
    else if (c === '(' && --depth === 0) return { inside: text.slice(i + 1, -1).trim(), before: text.slice(0, i).trim() };
  }
  return null;
}

/** ` - CPF: …` / ` - CNPJ: …` at the end of the line (before the role), read from the right. */
function trailingDocument(text: string): { kind: 'CPF' | 'CNPJ'; value: string; before: string } | null {
  const at = Math.max(text.lastIndexOf(' - CPF:'), text.lastIndexOf(' - CNPJ:'));
  if (at === -1) return null;
  const kind = text.startsWith(' - CPF:', at) ? 'CPF' : 'CNPJ';
  return { kind, value: text.slice(at + kind.length + 4).trim(), before: text.slice(0, at).trim() };
}

/**
 * `NAME - CPF: 000.000.001-91 (AUTOR)`, `NAME - CNPJ: … (REU)`, `Name (RÉU)`, `NAME - CPF: … (AUTOR(A))`,
 * `NAME registrado(a) civilmente como NAME - OAB MA3811-A - CPF: … (ADVOGADO)`: read from the right,
 * since names and documents come first. The social name is the one shown first. What does not read
 * is noted in `anomalies` and left null; null only when the line has no name at all.
 */
export function readParticipant(text: string, anomalies = new Anomalies()): Participant | null {
  let rest = text.trim();
  let tipo: string | null = null;
  const role = trailingGroup(rest);
  if (role && role.inside !== '' && role.before !== '') {
    tipo = role.inside.replace(ROLE_SUFFIX, '').trim() || role.inside;
    rest = role.before;
  } else anomalies.note('parte.tipo');
  let documento: string | null = null;
  let tipoPessoa: Participant['tipoPessoa'] = null;
  const doc = trailingDocument(rest);
  if (doc) {
    rest = doc.before;
    tipoPessoa = doc.kind === 'CPF' ? 'FISICA' : 'JURIDICA';
    documento = documentShown(doc.value);
    if (documento === null) anomalies.note('parte.documento');
  }
  let oab: Participant['oab'] = null;
  const reg = rest.lastIndexOf(' - OAB ');
  if (reg !== -1) {
    const parsed = fromPage('oab', rest.slice(reg + 7));
    if (parsed) oab = { uf: parsed.uf, numero: `${parsed.numero}${parsed.suffix ?? ''}` };
    else anomalies.note('advogado.oab');
    rest = rest.slice(0, reg).trim();
  }
  // `SOCIAL registrado(a) civilmente como CIVIL`: the name shown first is the one the person uses.
  const lower = rest.indexOf(' civilmente como ');
  const social = lower === -1 ? rest.indexOf(' CIVILMENTE COMO ') : lower;
  const nome = (social === -1 ? rest : withoutRegistrado(rest.slice(0, social))).trim();
  if (nome === '') {
    anomalies.note('parte.linha');
    return null;
  }
  return { nome, tipo, documento, tipoPessoa, oab };
}

function withoutRegistrado(text: string): string {
  const end = text.slice(-14).toLowerCase();
  for (const tail of [' registrado(a)', ' registrada(a)', ' registrado', ' registrada']) if (end.endsWith(tail)) return text.slice(0, -tail.length);
  return text;
}

/** A masked number (`639.XXX.XXX-XX`, `***.000.014-**`) exactly as shown; a whole one bare (alphanumeric CNPJs too); null when neither. */
function documentShown(value: string): string | null {
  if (value === '' || value.length > 24 || !/^[\dA-Za-z*./-]+$/.test(value)) return null;
  if (value.includes('*') || /X{2,}/i.test(value)) return value;
  return fromPage('cpfCnpj', value)?.value ?? null;
}

/** Names of public bodies that represent a party with no OAB (Defensoria Pública, Procuradorias, Ministério Público, AGU). */
const PUBLIC_BODY = /^(DEFENSORIA|PROCURADORIA|MINIST[EÉ]RIO P[UÚ]BLICO|ADVOCACIA[ -]GERAL|DPE|DPU|MP[A-Z]{2}\b)/i;
/** Roles of a representative who acts as counsel: lawyers, public attorneys and defenders, special curators. */
const COUNSEL_ROLE = /^(ADVOGAD|PROCURADOR|DEFENSOR|CURADOR)/i;

/** A representative row that acts as counsel (lawyer, public defender or attorney), not e.g. a minor's legal representative. */
const isCounsel = (p: Participant) => p.oab !== null || (p.tipo !== null && COUNSEL_ROLE.test(p.tipo)) || PUBLIC_BODY.test(p.nome);

interface PoloRead {
  parties: ConsultaParty[];
  lista: ConsultaListCount;
}

/** A list's printed count (`N resultados encontrados`) and whether it has a pager shown: right after its table, else in its section. */
function counterOf(section: HTMLElement, table: HTMLElement | null): { listados: number | null; pager: boolean } {
  let listados: number | null = null;
  let pager = false;
  const visible = (el: HTMLElement | null) => el !== null && !/display\s*:\s*none/i.test(el.getAttribute('style') ?? '');
  for (let sib = table?.nextElementSibling ?? null, n = 0; sib && n < 4; sib = sib.nextElementSibling, n++) {
    if (listados === null) listados = countOf(shown(sib));
    if (sib.classList.contains('rich-inslider') || sib.querySelector('.rich-inslider')) pager = true;
    if (sib.tagName === 'TABLE') break;
  }
  if (listados === null) {
    const span = section.querySelectorAll('span').find((el) => countOf(shown(el)) !== null);
    listados = span ? countOf(shown(span)) : null;
  }
  if (table?.querySelectorAll('.rich-datascr').some(visible) || section.querySelectorAll('.rich-datascr').some(visible)) pager = true;
  return { listados, pager };
}

/**
 * A list whose rows read are fewer than its printed count is never answered complete (issue 52): with a
 * pager the rest are on other pages this connector does not request (`limitado`); with none, the page
 * announces rows it does not carry (`limitado`, and an anomaly: the layout changed or the page was cut).
 */
function checkedCount(listados: number | null, lidos: number, pager: boolean, anomalies: Anomalies): ConsultaListCount {
  if (listados === null || lidos >= listados) return { listados, lidos };
  if (!pager) anomalies.note('lista.contagem');
  return { listados, lidos, limitado: true };
}

function readPolo(section: HTMLElement, polo: ConsultaParty['polo'], anomalies: Anomalies): PoloRead {
  const parties: ConsultaParty[] = [];
  let current: ConsultaParty | null = null;
  const rows = dataRows(section);
  const party = (p: Participant): ConsultaParty => ({ polo, tipo: p.tipo, nome: p.nome, documento: p.documento, tipoPessoa: p.tipoPessoa, advogados: [] });
  for (const row of rows) {
    const cell = row.querySelector('td');
    const bold = cell?.querySelector('span.text-bold') ?? cell?.querySelector('b') ?? cell?.querySelector('strong');
    if (bold) {
      const p = readParticipant(shown(bold), anomalies);
      if (!p) continue;
      current = party(p);
      parties.push(current);
      // The Defensoria Pública that represents this party, printed under it (an empty span on most pages).
      const defensoria = shown(cell?.querySelector('span[title="Defensoria"]'));
      if (defensoria !== '') current.advogados.push({ nome: defensoria, oab: null });
      continue;
    }
    // A representative row: `&#160;&#160;&#160;&#160;<span>NAME - OAB … (ADVOGADO)</span>`, belonging to the party above.
    const text = shown(cell?.querySelector('span span') ?? cell?.querySelector('div span')) || shown(cell?.querySelector('div')) || shown(cell);
    if (text === '') {
      anomalies.note('parte.linha');
      continue;
    }
    const p = readParticipant(text, anomalies);
    if (!p) continue;
    if (current && isCounsel(p)) current.advogados.push({ nome: p.nome, oab: p.oab });
    else {
      current = party(p);
      parties.push(current);
    }
  }
  const table = rows[0]?.closest('table') ?? section.querySelector('table');
  const { listados, pager } = counterOf(section, table);
  // A section that lists rows (or says it does) and yields no party: the layout changed under the parser.
  if (parties.length === 0 && (rows.length > 0 || (listados ?? 0) > 0)) anomalies.note('partes.secao');
  return { parties, lista: checkedCount(listados, rows.length, pager, anomalies) };
}

function readParties(root: HTMLElement, anomalies: Anomalies): { partes: ConsultaParty[]; lista: ConsultaListCount } {
  const partes: ConsultaParty[] = [];
  let listados: number | null = 0;
  let lidos = 0;
  let limitado = false;
  // Each id folded once (`j_id149:processoPartesPoloAtivoResumidoDiv` → `jidprocessopartespoloativoresumidodiv`), for the three sides.
  const ids = elementsWithId(root)
    .map((el): [HTMLElement, string] => [el, foldId(el.id)])
    .filter(([, id]) => id.includes('polo') || id.includes('interessados'));
  let headings: Map<string, HTMLElement[]> | null = null;
  const headingsOnce = () => (headings ??= sideHeadings(root));
  let sections = 0;
  let missing = false;
  for (const side of SIDES) {
    const section = partySection(ids, headingsOnce, side);
    if (!section) {
      // Not every build renders an empty Outros interessados panel; every page has both sides' panels.
      missing ||= side.polo !== 'OUTROS';
      continue;
    }
    sections++;
    const read = readPolo(section, side.polo, anomalies);
    partes.push(...read.parties);
    lidos += read.lista.lidos;
    limitado ||= read.lista.limitado === true;
    listados = listados === null || read.lista.listados === null ? (read.lista.lidos === 0 ? listados : null) : listados + read.lista.listados;
  }
  if (sections === 0) throw new PjePageError('PJe detail: no parties section (Polo ativo / Polo passivo)');
  if (missing) anomalies.note('partes.secao');
  return { partes, lista: limitado ? { listados, lidos, limitado } : { listados, lidos } };
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
