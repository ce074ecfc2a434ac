/**
 * The parties of a PJe detail page (reference/upstream/real/README.md §1): the three sides' sections found
 * by what they say (issue 52), each row read as a person reads it (`NAME - CPF: … (ROLE)`, representatives
 * under their party), and each side's printed count checked against the rows read.
 */
import type { HTMLElement } from 'node-html-parser';
import { fromPage } from '../../../platform/identifiers/index.ts';
import { Anomalies } from '../anomalies.ts';
import type { ConsultaLawyer, ConsultaListCount, ConsultaParty } from '../record.ts';
import { checkedCount, counterOf, foldId, leafText, PjePageError, shown } from './page.ts';

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

export function readParties(root: HTMLElement, anomalies: Anomalies): { partes: ConsultaParty[]; lista: ConsultaListCount } {
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
