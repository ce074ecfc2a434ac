/**
 * Reads e-SAJ's process page (`cpopg/show.do`, or `search.do` when the search had one hit; `cposg`
 * for the second degree) into what a person reads on it (reference/upstream/real/README.md §2 and
 * "Set 2"): header ids, every party of `#tableTodasPartes` with its lawyers, the value, every movement
 * of `#tabelaTodasMovimentacoes` (the visible last five repeat its first rows: never added up) with its
 * title and complement, the incidents. The parser relies on the system's ids and classes, not on one
 * court's page.
 *
 * e-SAJ answers everything with HTTP 200, so its message box (`#mensagemRetorno`) decides, never the
 * status (issue 44): "não existem informações" is `not_found`; "refine your search" and "too many
 * simultaneous queries" are `refused` (the court failed, never "nothing found"); any other message is
 * `refused` too. A number search may answer a list (1st degree: `#listagemDeProcessos` links; 2nd
 * degree: the "Selecione o processo" radios with the incidents under their case): `list`, to be
 * followed to the exact case. A secret case shows the password popup over an empty header: `secret`.
 * Anything else (a cut-short page, another page, another case) throws `EsajPageError`, a failure. A
 * line read only in part keeps what it could and notes an anomaly.
 */
import { formatCnj } from '../../../platform/identifiers/cnj.ts';
import { isoDayOfBr } from '../../../platform/format.ts';
import { fromPage } from '../../../platform/identifiers/on-page.ts';
import { Anomalies } from '../anomalies.ts';
import type { ConsultaCase, ConsultaIncident, ConsultaLawyer, ConsultaMovement, ConsultaParty } from '../record.ts';
import { centavosOfReais, lines, oneLine, parsePage, textOf, type HTMLElement } from '../html.ts';
import { esajPolo, esajRole } from './roles.ts';

/** The search form's answer when no case has the number (README §2). */
export const ESAJ_NOT_FOUND = 'Não existem informações disponíveis para os parâmetros informados.';

export class EsajPageError extends Error {
  override name = 'EsajPageError';
}

/** What e-SAJ's message box refused, in words for the failure's message (never the page's own text). */
export const REFUSALS: Record<EsajRefusal, string> = {
  refine: 'the court asked to refine the search (too many results)',
  busy: 'the court refused the query (too many simultaneous queries)',
  unknown: 'the court answered a message Tramita does not know instead of results',
};

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

/** Why the message box refused: too broad a search, too many queries at once, or a message Tramita does not know. */
export type EsajRefusal = 'refine' | 'busy' | 'unknown';

export type EsajPage =
  | { kind: 'case'; case: ConsultaCase }
  | { kind: 'not_found' }
  /** The case exists under secrecy: the page shows nothing but that. */
  | { kind: 'secret' }
  | { kind: 'refused'; reason: EsajRefusal }
  /** A list of cases (a number search may answer one): each to be opened by its path. */
  | { kind: 'list'; hits: EsajListed[] };

export interface EsajPageContext {
  numeroCnj: string;
  tribunal: string;
  grau: 1 | 2;
}

const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** What the message box says, when it says something: not found, or a refusal. */
export function esajMessage(root: HTMLElement): { kind: 'not_found' } | { kind: 'refused'; reason: EsajRefusal } | null {
  const text = fold(textOf(root.querySelector('#mensagemRetorno')) ?? '');
  if (text === '') return null;
  if (text.includes('nao existem informacoes')) return { kind: 'not_found' };
  if (text.includes('refin') || text.includes('muitos processos') || text.includes('muitos resultados')) return { kind: 'refused', reason: 'refine' };
  if (text.includes('simultane') || text.includes('excesso de') || text.includes('tente novamente')) return { kind: 'refused', reason: 'busy' };
  return { kind: 'refused', reason: 'unknown' };
}

/** The page ends with its closing tag (a page cut short in transit does not). */
export function esajWhole(html: string): void {
  if (!html.trimEnd().slice(-64).toLowerCase().includes('</html')) throw new EsajPageError('the page ends before </html> (cut short)');
}

const CNJ_MASKED = /\d{7}-\d{2}\.\d{4}\.\d\.\d{2}\.\d{4}/;

/** The lists a number search may answer: 1st degree's links, 2nd degree's "Selecione o processo" radios. */
export function esajList(root: HTMLElement): EsajListed[] {
  const hits: EsajListed[] = [];
  for (const a of root.querySelectorAll('#listagemDeProcessos a.linkProcesso')) {
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
  if (!root.querySelector('#classeProcesso')) anomalies.note('capa.campo');
  const movimentos = movementsOf(root, anomalies);
  return {
    kind: 'case',
    case: {
      numeroCnj: ctx.numeroCnj,
      tribunal: ctx.tribunal,
      sistema: 'esaj',
      grau: ctx.grau,
      classe: field(root, '#classeProcesso'),
      assuntos: [field(root, '#assuntoProcesso')].filter((a): a is string => a !== null),
      // 1st degree: the vara; 2nd degree: the órgão julgador (câmara).
      orgao: field(root, '#varaProcesso') ?? field(root, '#orgaoJulgadorProcesso'),
      foro: field(root, '#foroProcesso') ?? field(root, '#secaoProcesso'),
      juiz: field(root, '#juizProcesso') ?? field(root, '#relatorProcesso'),
      distribuidoEm: distributionOf(field(root, '#dataHoraDistribuicaoProcesso')),
      valorCausaCentavos: centavosOfReais(field(root, '#valorAcaoProcesso')),
      situacao: field(root, '#labelSituacaoProcesso'),
      segredo: false,
      partes: partiesOf(root, movimentos, anomalies),
      movimentos,
      incidentes: incidentsOf(root),
      processoReferencia: null,
      anomalias: anomalies.campos,
    },
  };
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

/** Every party (the hidden full table; the visible one when a page has only it), lawyers under each. */
function partiesOf(root: HTMLElement, movimentos: ConsultaMovement[], anomalies: Anomalies): ConsultaParty[] {
  const table = root.querySelector('#tableTodasPartes') ?? root.querySelector('#tablePartesPrincipais');
  if (!table) return [];
  const oabs = oabsInTexts(movimentos);
  const parties: ConsultaParty[] = [];
  for (const row of table.querySelectorAll('tr')) {
    const cell = row.querySelector('td.nomeParteEAdvogado');
    if (!cell) continue;
    const role = textOf(row.querySelector('.tipoDeParticipacao'));
    const { nome, advogados } = nameAndLawyers(cell);
    if (!nome) {
      anomalies.note('parte.linha');
      continue;
    }
    if (!role) anomalies.note('parte.tipo');
    const seen = new Map<string, number>();
    const lawyers: ConsultaLawyer[] = advogados.map((a) => {
      const key = foldName(a);
      const nth = seen.get(key) ?? 0;
      seen.set(key, nth + 1);
      const known = oabs.get(key) ?? [];
      return { nome: a, oab: known[nth] ?? known[0] ?? null };
    });
    // e-SAJ masks every CPF/CNPJ out of the party table: nothing to keep.
    parties.push({ polo: role ? esajPolo(role) : 'OUTROS', tipo: role ? esajRole(role) : null, nome, documento: null, tipoPessoa: null, advogados: lawyers });
  }
  return parties;
}

/**
 * The cell holds the party's name, then per representative a `<span class="mensagemExibindo">Advogado:&nbsp;</span>`
 * (or `Advogada:`, `Procurador:`…) followed by the representative's name.
 */
function nameAndLawyers(cell: HTMLElement): { nome: string; advogados: string[] } {
  let nome = '';
  const advogados: string[] = [];
  let current: string[] | null = null;
  for (const node of cell.childNodes) {
    const el = node as HTMLElement;
    if (el.tagName === 'SPAN' && el.classList?.contains('mensagemExibindo')) {
      if (current) flush(current, advogados);
      current = [];
      continue;
    }
    if (el.tagName === 'BR') continue;
    const text = oneLine(node.text);
    if (!text) continue;
    if (current) current.push(text);
    else nome = oneLine(`${nome} ${text}`);
  }
  if (current) flush(current, advogados);
  return { nome, advogados };
}

function flush(parts: string[], into: string[]): void {
  const name = oneLine(parts.join(' '));
  if (name) into.push(name);
}

function foldName(name: string): string {
  return name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * e-SAJ's party table shows no OAB; the DJE texts among the movements list the lawyers with theirs
 * (`Advogados(s): Eduardo Chalfin (OAB 241287/SP), …`). Each name gets the registrations printed next
 * to it, in the order first seen (one lawyer may hold two: `(OAB 123116/RJ)`, `(OAB 299489/SP)`).
 */
function oabsInTexts(movimentos: ConsultaMovement[]): Map<string, ConsultaLawyer['oab'][]> {
  const found = new Map<string, ConsultaLawyer['oab'][]>();
  for (const m of movimentos) {
    if (!m.texto?.includes('(OAB ')) continue;
    // Anchored on the literal `(OAB ` and at most 40 characters to its `)`; the name is what precedes it back to the last separator (linear).
    for (const match of m.texto.matchAll(/\(OAB\s+([^)]{1,40})\)/g)) {
      const oab = fromPage('oab', match[1]!);
      if (!oab) continue;
      const before = m.texto.slice(Math.max(0, match.index - 200), match.index);
      const name = before
        .slice(Math.max(before.lastIndexOf(','), before.lastIndexOf(':'), before.lastIndexOf('\n'), before.lastIndexOf('('), before.lastIndexOf(')')) + 1)
        .trim();
      if (!name) continue;
      const key = foldName(name);
      const list = found.get(key) ?? [];
      if (!list.some((o) => o!.uf === oab.uf && o!.numero === oab.numero)) list.push({ uf: oab.uf, numero: oab.canonical.slice(2) });
      found.set(key, list);
    }
  }
  return found;
}

/** Every movement, newest first: the day, the title (text or link), and the italic complement under it. */
function movementsOf(root: HTMLElement, anomalies: Anomalies): ConsultaMovement[] {
  const body = root.querySelector('#tabelaTodasMovimentacoes') ?? root.querySelector('#tabelaUltimasMovimentacoes');
  if (!body) return [];
  const out: ConsultaMovement[] = [];
  for (const row of body.querySelectorAll('tr.containerMovimentacao')) {
    const data = isoDayOfBr(textOf(row.querySelector('td.dataMovimentacao')) ?? '');
    const cell = row.querySelector('td.descricaoMovimentacao');
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

/** The incidents' table under the "Incidentes, ações incidentais, recursos e execuções de sentenças" heading. */
function incidentsOf(root: HTMLElement): ConsultaIncident[] {
  return root.querySelectorAll('a.incidente').map((a) => {
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
