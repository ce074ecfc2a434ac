/**
 * e-SAJ's parties (parse.ts reads the rest of the page): the parties' table found by what it holds,
 * each party's role, side and name with the lawyers under it, and their OAB registrations, which the
 * table never shows, taken from the DJE texts among the movements.
 */
import { fromPage } from '../../../platform/identifiers/on-page.ts';
import type { Anomalies } from '../anomalies.ts';
import type { ConsultaLawyer, ConsultaMovement, ConsultaParty } from '../record.ts';
import { oneLine, textOf, type HTMLElement } from '../html.ts';
import { esajPolo, esajRole, folded as fold } from './roles.ts';

/**
 * The parties' table, found by what it holds: the hidden full table, else the visible one, else any
 * table whose rows carry a role (`.tipoDeParticipacao`) beside a name (`.nomeParteEAdvogado`).
 */
function partiesTable(root: HTMLElement): HTMLElement | null {
  const byId = root.querySelector('#tableTodasPartes') ?? root.querySelector('#tablePartesPrincipais');
  if (byId) return byId;
  // Without the ids: the table with the most party rows is the full one (the visible one is its subset).
  const tables = new Map<HTMLElement, number>();
  for (const cell of root.querySelectorAll('td.nomeParteEAdvogado')) {
    const table = cell.closest('table');
    if (table) tables.set(table, (tables.get(table) ?? 0) + 1);
  }
  return [...tables].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
}

/** The page's parties heading ("Partes do Processo"): the section is there even when its table is not. */
const hasPartiesHeading = (root: HTMLElement) => root.querySelectorAll('h2').some((h) => fold(oneLine(h.text)).startsWith('partes do processo'));

/** Every party (the hidden full table; the visible one when a page has only it), lawyers under each. */
export function partiesOf(root: HTMLElement, movimentos: ConsultaMovement[], anomalies: Anomalies): ConsultaParty[] {
  const table = partiesTable(root);
  if (!table) {
    // The heading without a table of parties: the layout changed under the parser (counted, never silent).
    if (hasPartiesHeading(root)) anomalies.note('partes.secao');
    return [];
  }
  const oabs = oabsInTexts(movimentos);
  const parties: ConsultaParty[] = [];
  for (const row of table.querySelectorAll('tr')) {
    const cell = row.querySelector('td.nomeParteEAdvogado');
    if (!cell) continue;
    // `Reqte&nbsp;`, `Apelante:&nbsp;` (2nd degree): the role without its colon.
    const role = textOf(row.querySelector('.tipoDeParticipacao'))?.replace(/\s*:$/, '') || null;
    const { nome, advogados } = nameAndLawyers(cell);
    if (!nome) {
      anomalies.note('parte.linha');
      continue;
    }
    if (!role) anomalies.note('parte.tipo');
    const seen = new Map<string, number>();
    const lawyers: ConsultaLawyer[] = advogados.map((a) => {
      const key = foldName(a.nome);
      const nth = seen.get(key) ?? 0;
      seen.set(key, nth + 1);
      const known = oabs.get(key) ?? [];
      return { nome: a.nome, oab: a.oab ?? known[nth] ?? known[0] ?? null };
    });
    // The row's class names the side where a build prints it (`poloAtivo`, `poloPassivo`); else the role does.
    const classes = fold(row.getAttribute('class') ?? '');
    const polo = classes.includes('poloativo') ? 'ATIVO' : classes.includes('polopassivo') ? 'PASSIVO' : role ? esajPolo(role) : 'OUTROS';
    // e-SAJ masks every CPF/CNPJ out of the party table: nothing to keep.
    parties.push({ polo, tipo: role ? esajRole(role) : null, nome, documento: null, tipoPessoa: null, advogados: lawyers });
  }
  // A parties section that yields no party (empty, or rows that read as none): the layout changed under the parser.
  if (parties.length === 0) anomalies.note('partes.secao');
  return parties;
}

/**
 * The cell holds the party's name, then per representative a `<span class="mensagemExibindo">Advogado:&nbsp;</span>`
 * (or `Advogada:`, `Procurador:`…) followed by the representative's name, and on some builds (TJAL's
 * `cposg5`) a hidden input with the registration (`<input type="hidden" value="6770AL">`).
 */
function nameAndLawyers(cell: HTMLElement): { nome: string; advogados: { nome: string; oab: ConsultaLawyer['oab'] }[] } {
  let nome = '';
  const advogados: { nome: string; oab: ConsultaLawyer['oab'] }[] = [];
  let current: string[] | null = null;
  let oab: ConsultaLawyer['oab'] = null;
  const close = () => {
    if (current) flush(current, oab, advogados);
    oab = null;
  };
  for (const node of cell.childNodes) {
    const el = node as HTMLElement;
    if (el.tagName === 'SPAN' && el.classList?.contains('mensagemExibindo')) {
      close();
      current = [];
      continue;
    }
    if (el.tagName === 'BR') continue;
    if (el.tagName === 'INPUT') {
      const reg = current && el.getAttribute('type') === 'hidden' ? fromPage('oab', el.getAttribute('value') ?? '') : null;
      if (reg) oab = { uf: reg.uf, numero: reg.canonical.slice(2) };
      continue;
    }
    const text = oneLine(node.text);
    if (!text) continue;
    if (current) current.push(text);
    else nome = oneLine(`${nome} ${text}`);
  }
  close();
  return { nome, advogados };
}

function flush(parts: string[], oab: ConsultaLawyer['oab'], into: { nome: string; oab: ConsultaLawyer['oab'] }[]): void {
  const nome = oneLine(parts.join(' '));
  if (nome) into.push({ nome, oab });
}

function foldName(name: string): string {
  return name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * e-SAJ's party table shows no OAB; the DJE texts among the movements list the lawyers with theirs
 * (`Advogados(s): Eduardo Chalfin (OAB 241287/SP), …`; TJAL also `(OAB: 6770/AL)` and a bare `(9395A/AL)`). Each name gets the registrations printed next
 * to it, in the order first seen (one lawyer may hold two: `(OAB 123116/RJ)`, `(OAB 299489/SP)`).
 */
function oabsInTexts(movimentos: ConsultaMovement[]): Map<string, ConsultaLawyer['oab'][]> {
  const found = new Map<string, ConsultaLawyer['oab'][]>();
  for (const m of movimentos) {
    if (!m.texto?.includes('/')) continue;
    // `(OAB 241287/SP)`, `(OAB: 6770/AL)`, `(9395A/AL)`: anchored on `(`, bounded; the name is what
    // precedes it back to the last separator (linear).
    for (const match of m.texto.matchAll(/\((?:OAB:?\s*)?(\d[\dA-Z]{0,9}\/[A-Z]{2})\)/g)) {
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
