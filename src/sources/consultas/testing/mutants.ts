/**
 * A real page under the changes courts actually make (issue 52 item 5): ids with other prefixes and
 * suffixes (`j_id150:` → `j_id650:`, `…ResumidoDiv` → `…Div_2`), sections reordered, an extra wrapper,
 * gendered and plural roles, labels with a colon, CRLF line ends, Latin-1 bytes under a UTF-8
 * charset, a section emptied or removed, a list's rows split across pages. Each mutant either reads to
 * the page's ground truth (`same`), or loses exactly the fields of the part it took away and says so
 * with the anomalies listed (`degrade`). Splices use the parser's source ranges, so the rest of the
 * page keeps its bytes. A mutation that does not apply to a page (no such section) is skipped.
 */
import { pageText } from '../../http/body.ts';
import type { AnomalyField } from '../anomalies.ts';
import { parsePage, type HTMLElement } from '../html.ts';
import { differences, type TruthPage } from './truth.ts';

export interface Mutant {
  name: string;
  /** The page as the parser receives it (bytes re-decoded like an HTTP body), or null when the mutation does not apply. */
  html: string | null;
  /** `same`: every field as the ground truth. `degrade`: the fields under `lost` prefixes are gone (or changed: the flags listed), the anomalies noted. */
  expect: { kind: 'same' } | { kind: 'degrade'; lost: string[]; anomalies: AnomalyField[] } | { kind: 'refused' };
}

const splice = (html: string, [from, to]: readonly [number, number], by: string) => html.slice(0, from) + by + html.slice(to);
const foldId = (id: string) => id.toLowerCase().replace(/[^a-z]/g, '');

/** The outermost element whose id names the key (`poloativo`), in document order. */
function sectionById(root: HTMLElement, key: string): HTMLElement | null {
  return root.querySelectorAll('[id]').find((el) => foldId(el.id).includes(key)) ?? null;
}

/** Text re-encoded as Latin-1 bytes (what Latin-1 cannot hold becomes a numeric entity) under its UTF-8 charset, decoded as an HTTP body. */
function latin1(html: string): string {
  const text = [...html].map((c) => (c.codePointAt(0)! > 0xff ? `&#${c.codePointAt(0)};` : c)).join('');
  return pageText(Buffer.from(text, 'latin1'));
}

const same = { kind: 'same' } as const;
const degrade = (lost: string[], anomalies: AnomalyField[]) => ({ kind: 'degrade', lost, anomalies }) as const;

function pjeDetailMutants(html: string): Mutant[] {
  const root = parsePage(html);
  const ativo = sectionById(root, 'poloativo');
  const passivo = sectionById(root, 'polopassivo');
  const out: Mutant[] = [];
  out.push({
    name: 'ids renumbered, prefixed and suffixed',
    html: html
      .replace(/j_id(\d+)/g, (_, n) => `j_id${Number(n) + 500}`)
      .replace(/ResumidoDiv"/g, 'Div_2"')
      .replace(/ResumidoList/g, 'ListaResumida')
      .replace(/:tb"/g, ':tbody"'),
    expect: same,
  });
  if (ativo && passivo) {
    const [a, p] = [ativo.range, passivo.range];
    // Passivo's section moved before Ativo's (they are siblings on every captured page).
    out.push({ name: 'sections reordered', html: html.slice(0, a[0]) + html.slice(p[0], p[1]) + html.slice(a[0], p[0]) + html.slice(p[1]), expect: same });
    out.push({ name: 'extra wrapper', html: splice(html, a, `<div class="panel-wrapper"><div>${html.slice(a[0], a[1])}</div></div>`), expect: same });
    const tbody = passivo.querySelector('tbody');
    if (tbody)
      out.push({
        name: 'section emptied (Polo passivo rows gone, its count kept)',
        html: splice(html, tbody.range, '<tbody></tbody>'),
        expect: degrade(['partes.PASSIVO.', 'listas.partes.limitado'], ['partes.secao', 'lista.contagem']),
      });
    out.push({ name: 'section removed (Polo passivo)', html: splice(html, p, ''), expect: degrade(['partes.PASSIVO.'], ['partes.secao']) });
  }
  // Roles in the parties' sections only (a movement's text may end in parentheses too).
  const sections = [ativo, passivo, sectionById(root, 'outrosinteressados')].filter((s): s is HTMLElement => s !== null);
  if (sections.length > 0) {
    const from = Math.min(...sections.map((s) => s.range[0]));
    const to = Math.max(...sections.map((s) => s.range[1]));
    const roles = html
      .slice(from, to)
      .replace(/\(ADVOGADO\)/g, '(ADVOGADA)')
      .replace(/\(([A-Z][A-Z ]+)\)(\s*<\/span>)/g, (m, role, end, at) => (role === 'ADVOGADA' ? m : `(${role}(${at % 2 ? 'A' : 'S'}))${end}`));
    out.push({ name: 'gendered and plural roles', html: html.slice(0, from) + roles + html.slice(to), expect: same });
  }
  out.push({ name: 'labels with colons', html: html.replace(/(<div class="name">\s*<label[^>]*>)([^<]+)(<\/label>)/g, '$1$2:$3'), expect: same });
  out.push({ name: 'CRLF', html: html.replace(/\r?\n/g, '\r\n'), expect: same });
  out.push({ name: 'Latin-1 under UTF-8', html: latin1(html), expect: same });
  // Rows split across pages: the second half of the movements on a page not read, the count and a pager shown.
  const events = root.querySelectorAll('tbody').find((t) => foldId(t.id).includes('processoevento'));
  const rows = events?.querySelectorAll(':scope > tr') ?? [];
  if (rows.length >= 4) {
    const half = Math.ceil(rows.length / 2);
    const cut = splice(html, [rows[half]!.range[0], rows.at(-1)!.range[1]], '');
    const table = events!.closest('table')!;
    const pager = '<div class="rich-datascr" id="j_id9:movPager"><table><tbody><tr><td>1</td><td>2</td></tr></tbody></table></div>';
    const at = table.range[1] - (rows.at(-1)!.range[1] - rows[half]!.range[0]);
    out.push({
      name: 'rows split across pages (movements)',
      html: cut.slice(0, at) + pager + cut.slice(at),
      expect: degrade([...Array.from({ length: rows.length - half }, (_, i) => `movimentos.${half + i}.`), 'listas.movimentos.limitado'], []),
    });
  }
  return out;
}

function pjeSearchMutants(html: string): Mutant[] {
  const root = parsePage(html);
  const tbody = root.querySelector('tbody[id$="processosTable:tb"]');
  const out: Mutant[] = [
    {
      name: 'ids renumbered, prefixed and suffixed',
      html: html.replace(/j_id(\d+)/g, (_, n) => `j_id${Number(n) + 500}`).replace(/processosTable/g, 'processosTableLista'),
      expect: same,
    },
    { name: 'CRLF', html: html.replace(/\r?\n/g, '\r\n'), expect: same },
    { name: 'Latin-1 under UTF-8', html: latin1(html), expect: same },
  ];
  const table = tbody?.closest('table');
  if (table)
    out.push({ name: 'extra wrapper', html: splice(html, table.range, `<div class="wrap">${html.slice(table.range[0], table.range[1])}</div>`), expect: same });
  // The hit rows gone, the footer still counting them: never "nothing found".
  if (tbody) out.push({ name: 'section emptied (hits gone, count kept)', html: splice(html, tbody.range, '<tbody></tbody>'), expect: { kind: 'refused' } });
  return out;
}

function esajDetailMutants(html: string): Mutant[] {
  const root = parsePage(html);
  const out: Mutant[] = [];
  out.push({
    name: 'ids suffixed (every id but the number)',
    html: html.replace(/\bid="(?!numeroProcesso")([^"]+)"/g, 'id="$1_2"'),
    expect: same,
  });
  out.push({
    name: 'labels with colons, header ids gone',
    html: html
      .replace(/(class="unj-label"[^>]*>)\s*([^<]*?)\s*</g, '$1$2:<')
      .replace(/\bid="(classe|assunto|foro|vara|juiz|secao|orgaoJulgador|relator|valorAcao|area)Processo"/g, ''),
    expect: same,
  });
  out.push({
    name: 'gendered and plural roles',
    html: html.replace(/>(\s*)Advogado:/g, '>$1Advogados:').replace(/(tipoDeParticipacao">\s*[^<&:]+):/g, '$1'),
    expect: same,
  });
  out.push({ name: 'CRLF', html: html.replace(/\r?\n/g, '\r\n'), expect: same });
  out.push({ name: 'Latin-1 under UTF-8', html: latin1(html), expect: same });
  const all = root.querySelector('#tableTodasPartes');
  const shown = root.querySelector('#tablePartesPrincipais');
  if (all)
    out.push({
      name: 'extra wrapper',
      html: splice(html, all.range, `<div class="wrap"><div>${html.slice(all.range[0], all.range[1])}</div></div>`),
      expect: same,
    });
  const ultimas = root.querySelector('#tabelaUltimasMovimentacoes');
  const todas = root.querySelector('#tabelaTodasMovimentacoes');
  if (ultimas && todas && ultimas.range[1] <= todas.range[0]) {
    const [u, t] = [ultimas.range, todas.range];
    out.push({
      name: 'sections reordered',
      html: html.slice(0, u[0]) + html.slice(t[0], t[1]) + html.slice(u[1], t[0]) + html.slice(u[0], u[1]) + html.slice(t[1]),
      expect: same,
    });
  }
  if (all && shown) {
    const [first, second] = shown.range[0] < all.range[0] ? [shown, all] : [all, shown];
    const emptied = (h: string, el: HTMLElement) =>
      splice(h, el.range, `${html.slice(el.range[0], el.range[0] + html.slice(el.range[0]).indexOf('>') + 1)}</table>`);
    out.push({ name: 'section emptied (parties)', html: emptied(emptied(html, second), first), expect: degrade(['partes.'], ['partes.secao']) });
    out.push({
      name: 'section removed (parties tables)',
      html: splice(splice(html, second.range, ''), first.range, ''),
      expect: degrade(['partes.'], ['partes.secao']),
    });
  }
  return out;
}

function esajListMutants(html: string): Mutant[] {
  const root = parsePage(html);
  const links = root.querySelectorAll('a.linkProcesso');
  const out: Mutant[] = [
    { name: 'ids suffixed', html: html.replace(/\bid="([^"]+)"/g, 'id="$1_2"'), expect: same },
    { name: 'CRLF', html: html.replace(/\r?\n/g, '\r\n'), expect: same },
    { name: 'Latin-1 under UTF-8', html: latin1(html), expect: same },
  ];
  // Rows split across pages: the last hit's link on a page not read, the counter and the pager kept.
  const last = links.at(-1);
  if (links.length >= 2 && last)
    out.push({ name: 'rows split across pages', html: splice(html, last.range, ''), expect: degrade([`hits.${links.length - 1}.`, 'limitado'], []) });
  return out;
}

export function mutantsOf(page: TruthPage, html: string): Mutant[] {
  const all =
    page.system === 'pje'
      ? page.kind === 'detail'
        ? pjeDetailMutants(html)
        : pjeSearchMutants(html)
      : page.kind === 'detail'
        ? esajDetailMutants(html)
        : esajListMutants(html);
  return all.filter((m) => m.html !== null);
}

/** Null when the mutant read right; else why not (the fields that differ, the anomalies missing or extra). */
export function judge(page: TruthPage, mutant: Mutant): string | null {
  let read: ReturnType<TruthPage['read']>;
  try {
    read = page.read(mutant.html!);
  } catch (err) {
    return mutant.expect.kind === 'refused' ? null : `refused: ${(err as Error).message}`;
  }
  if (mutant.expect.kind === 'refused') return read.anomalias.length > 0 ? null : 'answered without a word of what it lacks';
  const diff = differences(page.expected, read.fields).map((d) => d.field);
  const anomalies = [...new Set(read.anomalias)].sort();
  if (mutant.expect.kind === 'same') {
    if (diff.length > 0) return `fields differ: ${diff.slice(0, 6).join(', ')}${diff.length > 6 ? ` (+${diff.length - 6})` : ''}`;
    return anomalies.length > 0 ? `anomalies on a whole read: ${anomalies.join(', ')}` : null;
  }
  const { lost, anomalies: wanted } = mutant.expect;
  const under = (k: string) => lost.some((p) => (p.endsWith('.') ? k.startsWith(p) : k === p));
  const lostKeys = [...page.expected.keys()].filter(under);
  const extra = diff.filter((k) => !under(k));
  const kept = lostKeys.filter((k) => !diff.includes(k));
  if (extra.length > 0) return `lost more than the part removed: ${extra.slice(0, 6).join(', ')}`;
  if (kept.length > 0 && lostKeys.length > 0 && kept.length === lostKeys.length) return `the removed part still read: ${kept.slice(0, 3).join(', ')}`;
  const want = [...new Set(wanted)].sort();
  return JSON.stringify(anomalies) === JSON.stringify(want) ? null : `anomalies ${JSON.stringify(anomalies)}, expected ${JSON.stringify(want)}`;
}
