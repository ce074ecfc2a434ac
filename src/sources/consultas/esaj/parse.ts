/**
 * Reads e-SAJ's process page (`cpopg/show.do`, or `search.do` when the search had one hit; `cposg`
 * for the second degree) into what a person reads on it (reference/upstream/real/README.md §2):
 * header ids, every party of `#tableTodasPartes` with its lawyers, the value, every movement of
 * `#tabelaTodasMovimentacoes` with its title and complement, the incidents. The parser relies on the
 * system's ids and classes, not on one court's page.
 *
 * Three outcomes, never a guess: the case; `not_found` only on the page's explicit marker; anything
 * else (a cut-short page, another page, another case) throws `EsajPageError`, a failure.
 */
import { formatCnj } from '../../../platform/identifiers/cnj.ts';
import { isoDayOfBr } from '../../../platform/format.ts';
import { parseOab, type Oab } from '../../../platform/identifiers/oab.ts';
import type { ConsultaCase, ConsultaIncident, ConsultaLawyer, ConsultaMovement, ConsultaParty } from '../record.ts';
import { centavosOfReais, lines, oneLine, parsePage, textOf, type HTMLElement } from '../html.ts';
import { esajPolo, esajRole } from './roles.ts';

/** The search form's answer when no case has the number (README §2). */
export const ESAJ_NOT_FOUND = 'Não existem informações disponíveis para os parâmetros informados.';

export class EsajPageError extends Error {
  override name = 'EsajPageError';
}

export type EsajPage =
  | { kind: 'case'; case: ConsultaCase }
  | { kind: 'not_found' }
  /** A list of several hits: the process pages' paths (`/cpopg/show.do?…`), to open one by one. */
  | { kind: 'list'; links: string[] };

export interface EsajPageContext {
  numeroCnj: string;
  tribunal: string;
  grau: 1 | 2;
}

export function parseEsajPage(html: string, ctx: EsajPageContext): EsajPage {
  // A page cut short in transit ends before its closing tag: a failure, never a shorter case.
  if (!/<\/html\s*>\s*$/i.test(html.trimEnd())) throw new EsajPageError('the page ends before </html> (cut short)');
  const root = parsePage(html);
  const numero = textOf(root.querySelector('#numeroProcesso'));
  if (!numero) {
    if (oneLine(root.text).includes(ESAJ_NOT_FOUND)) return { kind: 'not_found' };
    const links = root
      .querySelectorAll('#listagemDeProcessos a.linkProcesso')
      .map((a) => a.getAttribute('href') ?? '')
      .filter(Boolean);
    if (links.length > 0) return { kind: 'list', links };
    throw new EsajPageError('the page has neither a case, nor the not-found notice, nor a list of cases');
  }
  if (numero.replace(/\D/g, '') !== ctx.numeroCnj) throw new EsajPageError(`the page shows another case than ${formatCnj(ctx.numeroCnj)}`);
  if (!root.querySelector('#classeProcesso')) throw new EsajPageError('the case page has no #classeProcesso');
  const movimentos = movementsOf(root);
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
      partes: partiesOf(root, movimentos),
      movimentos,
      incidentes: incidentsOf(root),
      processoReferencia: null,
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
function partiesOf(root: HTMLElement, movimentos: ConsultaMovement[]): ConsultaParty[] {
  const table = root.querySelector('#tableTodasPartes') ?? root.querySelector('#tablePartesPrincipais');
  if (!table) return [];
  const oabs = oabsInTexts(movimentos);
  const parties: ConsultaParty[] = [];
  for (const row of table.querySelectorAll('tr')) {
    const role = textOf(row.querySelector('.tipoDeParticipacao'));
    const cell = row.querySelector('td.nomeParteEAdvogado');
    if (!role || !cell) continue;
    const { nome, advogados } = nameAndLawyers(cell);
    if (!nome) continue;
    const seen = new Map<string, number>();
    const lawyers: ConsultaLawyer[] = advogados.map((a) => {
      const key = foldName(a);
      const nth = seen.get(key) ?? 0;
      seen.set(key, nth + 1);
      const known = oabs.get(key) ?? [];
      return { nome: a, oab: known[nth] ?? known[0] ?? null };
    });
    // e-SAJ masks every CPF/CNPJ out of the party table: nothing to keep.
    parties.push({ polo: esajPolo(role), tipo: esajRole(role), nome, documento: null, tipoPessoa: null, advogados: lawyers });
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
    // Anchored on the literal `(OAB `; the name is what precedes it back to the last separator (linear, no backtracking).
    for (const match of m.texto.matchAll(/\(OAB\s+([^)]+)\)/g)) {
      let oab: Oab;
      try {
        oab = parseOab(match[1]!);
      } catch {
        continue;
      }
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
function movementsOf(root: HTMLElement): ConsultaMovement[] {
  const body = root.querySelector('#tabelaTodasMovimentacoes') ?? root.querySelector('#tabelaUltimasMovimentacoes');
  if (!body) return [];
  const out: ConsultaMovement[] = [];
  for (const row of body.querySelectorAll('tr.containerMovimentacao')) {
    const data = isoDayOfBr(textOf(row.querySelector('td.dataMovimentacao')) ?? '');
    const cell = row.querySelector('td.descricaoMovimentacao');
    if (!data || !cell) throw new EsajPageError('a movement row has no day or no description');
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
