/**
 * Reads e-SAJ's process page (`cpopg/show.do`, or `search.do` when the search had one hit; `cposg`
 * for the second degree) into what a person reads on it (reference/upstream/real/README.md §2 and
 * "Set 2"): header ids, every party of `#tableTodasPartes` with its lawyers, the value, every movement
 * of `#tabelaTodasMovimentacoes` (the visible last five repeat its first rows: never added up) with its
 * title and complement, the incidents. The parser relies on the system's ids and classes, not on one
 * court's page.
 *
 * e-SAJ answers everything with HTTP 200, so its message box (`#mensagemRetorno`) decides, never the
 * status (issues 44, 52): the message is classified by its words (messages.ts): "não existem
 * informações" is `not_found`; "refine your search", "too many simultaneous queries", an error and any
 * message Tramita does not know are `refused` (the court failed, never "nothing found"). A number
 * search may answer a list (hits' `a.linkProcesso` links; 2nd degree: the "Selecione o processo" radios with the incidents under their case): `list`, to be
 * followed to the exact case. A secret case shows the password popup over an empty header: `secret`.
 * Anything else (a cut-short page, another page, another case) throws `EsajPageError`, a failure. A
 * line read only in part keeps what it could and notes an anomaly.
 */
import { formatCnj } from '../../../platform/identifiers/cnj.ts';
import { isoDayOfBr } from '../../../platform/format.ts';
import { Anomalies } from '../anomalies.ts';
import type { ConsultaCase, ConsultaIncident, ConsultaMovement } from '../record.ts';
import { centavosOfReais, lines, oneLine, parsePage, textOf, type HTMLElement } from '../html.ts';
import { folded as fold } from './roles.ts';
import { partiesOf } from './parties.ts';
import { classifyMessage, type CourtMessage } from '../messages.ts';

/** The search form's answer when no case has the number (README §2). */
export const ESAJ_NOT_FOUND = 'Não existem informações disponíveis para os parâmetros informados.';

export class EsajPageError extends Error {
  override name = 'EsajPageError';
}

/** A secret case as its page shows it: the number and court, secrecy, nothing else (never invented data). */
export function secretCase(ctx: EsajPageContext): ConsultaCase {
  return {
    numeroCnj: ctx.numeroCnj,
    tribunal: ctx.tribunal,
    sistema: 'esaj',
    grau: ctx.grau,
    classe: null,
    assuntos: [],
    orgao: null,
    foro: null,
    juiz: null,
    distribuidoEm: null,
    valorCausaCentavos: null,
    situacao: null,
    segredo: true,
    partes: [],
    movimentos: [],
    incidentes: [],
    processoReferencia: null,
  };
}

/** One case a list answer names: its number (null when the row prints none), the path that opens it, and its dependants (2nd degree). */
export interface EsajListed {
  numeroCnj: string | null;
  path: string;
  incidentes: ConsultaIncident[];
}

/** Why the message box refused (messages.ts): too broad a search, too many queries at once, an error, or a message Tramita does not know. */
export type EsajRefusal = Exclude<CourtMessage, 'not_found'>;

export type EsajPage =
  | { kind: 'case'; case: ConsultaCase }
  | { kind: 'not_found' }
  /** The case exists under secrecy: the page shows nothing but that. */
  | { kind: 'secret' }
  /** The message box answered instead of the case: `message` is its text, for an unknown one's quote (messages.ts quoted()). */
  | { kind: 'refused'; reason: EsajRefusal; message: string }
  /** A list of cases (a number search may answer one): each to be opened by its path. */
  | { kind: 'list'; hits: EsajListed[] };

export interface EsajPageContext {
  numeroCnj: string;
  tribunal: string;
  grau: 1 | 2;
}

/** What the message box says, when it says something: not found, or a refusal classified by its words (messages.ts). */
export function esajMessage(root: HTMLElement): { kind: 'not_found' } | { kind: 'refused'; reason: EsajRefusal; message: string } | null {
  const message = textOf(root.querySelector('#mensagemRetorno')) ?? '';
  const kind = classifyMessage(message);
  if (kind === null) return null;
  if (kind === 'not_found') return { kind: 'not_found' };
  return { kind: 'refused', reason: kind, message };
}

/** The page ends with its closing tag (a page cut short in transit does not). */
export function esajWhole(html: string): void {
  if (!html.trimEnd().slice(-64).toLowerCase().includes('</html')) throw new EsajPageError('the page ends before </html> (cut short)');
}

const CNJ_MASKED = /\d{7}-\d{2}\.\d{4}\.\d\.\d{2}\.\d{4}/;

/**
 * The lists a number search may answer: the hits' process links (`a.linkProcesso`: TJSP's 1st degree,
 * TJCE's `cposg5`, wherever the build nests them), 2nd degree's "Selecione o processo" radios. Two hits
 * may carry the same number (TJCE: one appeal filed twice): each is kept with its own link.
 */
export function esajList(root: HTMLElement): EsajListed[] {
  const hits: EsajListed[] = [];
  for (const a of root.querySelectorAll('a.linkProcesso')) {
    const href = a.getAttribute('href') ?? '';
    if (!href) continue;
    const m = CNJ_MASKED.exec(oneLine(a.text)) ?? CNJ_MASKED.exec(decodedHref(href));
    hits.push({ numeroCnj: m ? m[0].replace(/\D/g, '') : null, path: href, incidentes: [] });
  }
  for (const item of root.querySelectorAll('#modalIncidentes section')) {
    const radio = item.querySelector('input[name="processoSelecionado"]');
    const codigo = radio?.getAttribute('value');
    if (!codigo) continue;
    const m = CNJ_MASKED.exec(textOf(item.querySelector('.modal__process-choice__number')) ?? '');
    const incidentes = item.querySelectorAll('.list__hierarquia-dependentes__item').map((dep) => ({
      numeroCnj: null,
      classe: textOf(dep.querySelector('.list__hierarquia-dependentes__item__label__info__title')) ?? '',
      data: isoDayOfBr(textOf(dep.querySelector('.list__hierarquia-dependentes__item__label__info__data')) ?? ''),
    }));
    hits.push({ numeroCnj: m ? m[0].replace(/\D/g, '') : null, path: `show.do?processo.codigo=${encodeURIComponent(codigo)}`, incidentes });
  }
  return hits;
}

/**
 * The hit count a list prints (`#contadorDeProcessos` on 1st degree, `.resultadoPaginacao` on `cposg5`: "2 Processos encontrados"); null when none. */
export function esajHitCount(root: HTMLElement): number | null {
  const text = textOf(root.querySelector('#contadorDeProcessos')) ?? textOf(root.querySelector('.resultadoPaginacao')) ?? '';
  const counter = /(\d[\d.]*)\s+Processos?\s+encontrados?/i.exec(text);
  return counter ? Number(counter[1]!.replace(/\./g, '')) : null;
}

/** A link's query as text; a malformed `%` sequence (a page's own) leaves it as printed rather than throwing URIError. */
function decodedHref(href: string): string {
  try {
    return decodeURIComponent(href);
  } catch {
    return href;
  }
}

/** The password popup shown at once (`popupSenha: { mostrar: 'true' == 'true'`) over a header with no number: a secret case. */
function isSecret(html: string, root: HTMLElement): boolean {
  const at = html.indexOf('popupSenha: {');
  if (at === -1 || !root.querySelector('form#popupSenha')) return false;
  return html
    .slice(at, at + 200)
    .replace(/\s+/g, ' ')
    .includes("mostrar: 'true' == 'true'");
}

export function parseEsajPage(html: string, ctx: EsajPageContext, anomalies = new Anomalies()): EsajPage {
  esajWhole(html);
  const root = parsePage(html);
  const numero = textOf(root.querySelector('#numeroProcesso'));
  if (!numero) {
    const message = esajMessage(root);
    if (message) return message;
    if (isSecret(html, root)) return { kind: 'secret' };
    const hits = esajList(root);
    if (hits.length > 0) return { kind: 'list', hits };
    if (oneLine(root.text).includes(ESAJ_NOT_FOUND)) return { kind: 'not_found' };
    throw new EsajPageError('the page has neither a case, nor a message, nor a list of cases');
  }
  if (numero.replace(/\D/g, '') !== ctx.numeroCnj) throw new EsajPageError(`the page shows another case than ${formatCnj(ctx.numeroCnj)}`);
  const labels = labelledFields(root);
  const get = (id: string, ...names: string[]) => field(root, `#${id}`) ?? names.map((n) => labels.get(fold(n))).find((v) => v) ?? null;
  const classe = get('classeProcesso', 'Classe');
  if (!classe) anomalies.note('capa.campo');
  const movimentos = movementsOf(root, anomalies);
  return {
    kind: 'case',
    case: {
      numeroCnj: ctx.numeroCnj,
      tribunal: ctx.tribunal,
      sistema: 'esaj',
      grau: ctx.grau,
      classe,
      assuntos: subjectsOf(root, labels, get('assuntoProcesso', 'Assunto')),
      // 1st degree: the vara; 2nd degree: the órgão julgador (câmara, Vice-Presidência).
      orgao: get('varaProcesso', 'Vara') ?? get('orgaoJulgadorProcesso', 'Órgão Julgador'),
      // 1st degree: the foro; 2nd degree: the seção (`Tribunal de Justiça`, a turma recursal).
      foro: get('foroProcesso', 'Foro') ?? get('secaoProcesso', 'Seção'),
      // 1st degree: the judge; 2nd degree: the relator (a person or an office: `VICE PRESIDENTE DO TRIBUNAL…`).
      juiz: get('juizProcesso', 'Juiz') ?? get('relatorProcesso', 'Relator'),
      distribuidoEm: distributionOf(get('dataHoraDistribuicaoProcesso', 'Distribuição')),
      valorCausaCentavos: centavosOfReais(get('valorAcaoProcesso', 'Valor da ação')),
      situacao: field(root, '#labelSituacaoProcesso') ?? field(root, '#situacaoProcesso') ?? field(root, '.unj-entity-header .unj-tag'),
      segredo: false,
      partes: partiesOf(root, movimentos, anomalies),
      movimentos,
      incidentes: incidentsOf(root),
      processoReferencia: null,
      ...(ctx.grau === 2 ? { origem: get('origemProcesso', 'Origem') } : {}),
      anomalias: anomalies.campos,
    },
  };
}

/**
 * The header's fields by their printed label (`<span class="unj-label">Relator</span><div>VALUE</div>`),
 * folded (no accents, lower case, no colon): where a build gives a field no id (2nd degree's `Origem`,
 * `Outros assuntos`), or another one, the label says what it is.
 */
function labelledFields(root: HTMLElement): Map<string, string> {
  const out = new Map<string, string>();
  for (const label of root.querySelectorAll('.unj-label')) {
    const name = fold(oneLine(label.text)).replace(/:$/, '').trim();
    const value = textOf(label.nextElementSibling);
    if (name && value && !out.has(name)) out.set(name, value);
  }
  return out;
}

/**
 * The subject, then the others e-SAJ prints only in the collapsed block (`Outros assuntos`): each
 * `<span title>` of that block is one subject; a block of bare text is one.
 */
function subjectsOf(root: HTMLElement, labels: Map<string, string>, first: string | null): string[] {
  const out = first ? [first] : [];
  const label = root.querySelectorAll('.unj-label').find((l) => fold(oneLine(l.text)).replace(/:$/, '').trim() === 'outros assuntos');
  const block = label?.nextElementSibling;
  const spans = block?.querySelectorAll('span[title]') ?? [];
  const others = spans.length > 0 ? spans.map((s) => textOf(s)) : [labels.get('outros assuntos') ?? null];
  for (const o of others) if (o && !out.includes(o)) out.push(o);
  return out;
}

function field(root: HTMLElement, selector: string): string | null {
  return textOf(root.querySelector(selector));
}

/** `06/02/2024 às 13:47 - Livre` → the instant in Brasília (`2024-02-06T13:47:00-03:00`); a bare day stays a day. */
function distributionOf(text: string | null): string | null {
  if (!text) return null;
  const day = isoDayOfBr(text);
  if (!day) return null;
  const time = /\sàs\s+(\d{2}):(\d{2})/.exec(text);
  return time ? `${day}T${time[1]}:${time[2]}:00-03:00` : day;
}

/**
 * Every movement, newest first: the day, the title (text or link), and the italic complement under it.
 * Rows are found by what they hold (a cell whose class names the date, `dataMovimentacao` on 1st degree,
 * `dataMovimentacaoProcesso` on 2nd), in the full table, else the latest five.
 */
function movementsOf(root: HTMLElement, anomalies: Anomalies): ConsultaMovement[] {
  const body = root.querySelector('#tabelaTodasMovimentacoes') ?? root.querySelector('#tabelaUltimasMovimentacoes') ?? movementsBody(root);
  if (!body) return [];
  const out: ConsultaMovement[] = [];
  for (const row of body.querySelectorAll('tr')) {
    const cells = row.querySelectorAll('td');
    const dateCell = cells.find((c) => (c.getAttribute('class') ?? '').includes('dataMovimentacao'));
    const cell = cells.find((c) => (c.getAttribute('class') ?? '').includes('descricaoMovimentacao'));
    if (!dateCell && !cell) continue; // a spacer row
    const data = isoDayOfBr(textOf(dateCell) ?? '');
    if (!data || !cell) {
      anomalies.note(cell ? 'movimento.data' : 'movimento.linha');
      continue;
    }
    const complement = cell.querySelector('span[style*="italic"]');
    const titleParts: string[] = [];
    for (const node of cell.childNodes) {
      if (node === complement) break;
      titleParts.push(node.text);
    }
    const titulo = oneLine(titleParts.join(' '));
    const texto = complement ? lines(complement.text) || null : null;
    out.push({ data, titulo, texto });
  }
  return out;
}

/** Without the ids: the body with the most rows dated by a `dataMovimentacao…` cell (the full list; the latest five are its subset). */
function movementsBody(root: HTMLElement): HTMLElement | null {
  const bodies = new Map<HTMLElement, number>();
  for (const cell of root.querySelectorAll('td[class*="dataMovimentacao"]')) {
    const body = cell.closest('tbody');
    if (body) bodies.set(body, (bodies.get(body) ?? 0) + 1);
  }
  return [...bodies].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
}

/**
 * The incidents' table under the "Incidentes, ações incidentais, recursos e execuções de sentenças"
 * heading: its links (`a.incidente` on 1st degree, bare links to `show.do` on 2nd), each row's first
 * cell the day it was received. Links elsewhere on the page are not incidents.
 */
function incidentsOf(root: HTMLElement): ConsultaIncident[] {
  const heading = root.querySelectorAll('h2').find((h) => fold(oneLine(h.text)).startsWith('incidentes'));
  const table = heading ? nextTable(heading) : null;
  const links = new Set(root.querySelectorAll('a.incidente'));
  for (const a of table?.querySelectorAll('a') ?? []) links.add(a);
  return [...links].map((a) => {
    const text = oneLine(a.text);
    const number = /\((\d{7}-\d{2}\.\d{4}\.\d\.\d{2}\.\d{4})\)\s*$/.exec(text);
    const row = a.closest('tr');
    return {
      numeroCnj: number ? number[1]!.replace(/\D/g, '') : null,
      classe: number ? oneLine(text.slice(0, number.index)) : text,
      data: isoDayOfBr(textOf(row?.querySelector('td')) ?? ''),
    };
  });
}

/** The first table after an element in document order (the heading sits in its own div before the table). */
function nextTable(el: HTMLElement): HTMLElement | null {
  for (let at: HTMLElement | null = el; at; at = at.parentNode as HTMLElement | null) {
    for (let sib = at.nextElementSibling; sib; sib = sib.nextElementSibling) {
      if (sib.tagName === 'TABLE') return sib;
      const inner = sib.querySelector('table');
      if (inner) return inner;
      if (sib.tagName === 'H2' || sib.querySelector('h2')) return null;
    }
  }
  return null;
}
