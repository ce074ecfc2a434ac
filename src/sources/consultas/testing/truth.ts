/**
 * Set 3's ground truth as flat fields (issue 52): each real page's `NAME.gt.json` (extracted twice
 * upstream, a DOM walk and regular expressions agreeing) turned into `field → value`, and what the
 * parsers read from the page turned into the same fields. Comparing the two maps field by field says
 * which fields read wrong; a mutant of the page (mutants.ts) must give the same map, or lose exactly
 * the fields of the part it removed. The expected side is derived from the ground truth's text with
 * its own small rules (never with the parser under test).
 */
import { readFileSync } from 'node:fs';
import { pageText } from '../../http/body.ts';
import { Anomalies, type AnomalyField } from '../anomalies.ts';
import { parseEsajPage } from '../esaj/parse.ts';
import { parseEsajSearch } from '../esaj/search.ts';
import { parsePjeDetail, parsePjeSearch } from '../pje/parse.ts';

export const SET3 = new URL('../fixtures/set3/', import.meta.url);

export type Fields = Map<string, string>;

/** What the parsers read: the fields, and the anomalies they noted. */
export interface Read {
  fields: Fields;
  anomalias: AnomalyField[];
}

export interface TruthPage {
  name: string;
  /** The page's text when it is not in set 3's folder. */
  html?: string;
  system: 'pje' | 'esaj';
  kind: 'detail' | 'search' | 'list';
  expected: Fields;
  read(html: string): Read;
}

const flat = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();
const digits = (s: string) => s.replace(/\D/g, '');
const isoDay = (br: string) => `${br.slice(6, 10)}-${br.slice(3, 5)}-${br.slice(0, 2)}`;
const POLES: Record<string, string> = { active: 'ATIVO', passive: 'PASSIVO', other: 'OUTROS' };

function put(into: Fields, key: string, value: unknown): void {
  into.set(key, value === null || value === undefined ? '∅' : typeof value === 'string' ? flat(value) : JSON.stringify(value));
}

export function truthOf(name: string): Record<string, any> {
  return JSON.parse(readFileSync(new URL(name.replace(/\.html$/, '.gt.json'), SET3), 'utf8'));
}

export function pageOf(name: string): string {
  return pageText(readFileSync(new URL(name, SET3)));
}

// ---- PJe detail -----------------------------------------------------------------------------------

/** `NAME - CPF: 111.XXX.XXX-XX (ROLE)` → name, document (masked as printed, whole as digits), role: read from the right. */
function participantOfTruth(text: string): { nome: string; documento: string | null; tipo: string } {
  const open = text.lastIndexOf(' (');
  const tipo = text.slice(open + 2, -1);
  let rest = text.slice(0, open);
  let documento: string | null = null;
  const doc = /^(.*) - (?:CPF|CNPJ): (\S+)$/.exec(rest);
  if (doc) {
    rest = doc[1]!;
    documento = /X|\*/.test(doc[2]!) ? doc[2]! : digits(doc[2]!);
  }
  const oab = rest.indexOf(' - OAB ');
  return { nome: oab === -1 ? rest : rest.slice(0, oab), documento, tipo };
}

/** The leaf of `ROOT (1) - CHILD (2) - LEAF (3`, without its code. */
const leafOf = (path: string) =>
  path
    .split(/\) - /)
    .pop()!
    .replace(/\s*\(\d+\)?$/, '');

function pjeDetailTruth(gt: Record<string, any>): Fields {
  const f: Fields = new Map();
  put(f, 'capa.numero', digits(gt.numero));
  put(f, 'capa.distribuidoEm', isoDay(gt.data_distribuicao));
  put(f, 'capa.classe', gt.classe.replace(/\s*\(\d+\)$/, ''));
  put(f, 'capa.assunto', leafOf(gt.assunto));
  put(f, 'capa.foro', gt.jurisdicao);
  put(f, 'capa.orgao', gt.orgao_julgador);
  put(f, 'capa.referencia', gt.processo_referencia ? digits(gt.processo_referencia) : null);
  for (const [pole, polo] of Object.entries(POLES)) {
    (gt.polos[pole] as any[]).forEach((p, i) => {
      const t = participantOfTruth(p.text);
      const k = `partes.${polo}.${i}`;
      put(f, `${k}.nome`, t.nome);
      put(f, `${k}.tipo`, p.role);
      put(f, `${k}.documento`, t.documento);
      (p.lawyers as any[]).forEach((l, j) => {
        put(f, `${k}.advogados.${j}.nome`, participantOfTruth(l.text).nome);
        put(f, `${k}.advogados.${j}.oab`, l.oab ? { uf: l.oab.slice(0, 2), numero: l.oab.slice(2) } : null);
      });
    });
  }
  (gt.movs_on_page as any[]).forEach((m, i) => {
    const at = /^(\d{2})\/(\d{2})\/(\d{4}) (\d{2}:\d{2}:\d{2}) - (.*)$/.exec(flat(m.event))!;
    put(f, `movimentos.${i}.data`, `${at[3]}-${at[2]}-${at[1]}T${at[4]}.000-03:00`);
    put(f, `movimentos.${i}.titulo`, at[5]);
  });
  const counts = (gt.counters_in_page_order as string[]).map((c) => Number(/^\d+/.exec(c)![0]));
  const partyCounts = counts.slice(0, counts.length - 2);
  const partyRows = Object.keys(POLES)
    .map((pole) => (gt.polos_rows[pole] as any[]).length)
    .filter((n) => n > 0);
  put(
    f,
    'listas.partes.limitado',
    partyCounts.some((c, i) => c > (partyRows[i] ?? 0)),
  );
  put(f, 'listas.movimentos.limitado', counts[counts.length - 2]! > gt.movs_rows_on_page);
  return f;
}

function pjeDetailRead(html: string): Read {
  const anomalies = new Anomalies();
  const c = parsePjeDetail(html, {}, anomalies);
  const f: Fields = new Map();
  put(f, 'capa.numero', c.numeroCnj);
  put(f, 'capa.distribuidoEm', c.distribuidoEm);
  put(f, 'capa.classe', c.classe);
  put(f, 'capa.assunto', c.assuntos[0] ?? null);
  put(f, 'capa.foro', c.foro);
  put(f, 'capa.orgao', c.orgao);
  put(f, 'capa.referencia', c.processoReferencia);
  for (const polo of Object.values(POLES)) {
    c.partes
      .filter((p) => p.polo === polo)
      .forEach((p, i) => {
        const k = `partes.${polo}.${i}`;
        put(f, `${k}.nome`, p.nome);
        put(f, `${k}.tipo`, p.tipo);
        put(f, `${k}.documento`, p.documento);
        p.advogados.forEach((l, j) => {
          put(f, `${k}.advogados.${j}.nome`, l.nome);
          put(f, `${k}.advogados.${j}.oab`, l.oab);
        });
      });
  }
  c.movimentos.forEach((m, i) => {
    put(f, `movimentos.${i}.data`, m.data);
    put(f, `movimentos.${i}.titulo`, m.titulo);
  });
  put(f, 'listas.partes.limitado', c.listas?.partes.limitado === true);
  put(f, 'listas.movimentos.limitado', c.listas?.movimentos.limitado === true);
  return { fields: f, anomalias: anomalies.campos };
}

// ---- PJe search -----------------------------------------------------------------------------------

function pjeSearchTruth(gt: Record<string, any>): Fields {
  const f: Fields = new Map();
  (gt.rows as any[]).forEach((r, i) => {
    put(f, `hits.${i}.numero`, digits(/\d{7}-\d{2}\.\d{4}\.\d\.\d{2}\.\d{4}/.exec(r.link)![0]));
    put(f, `hits.${i}.classe`, r.classe);
    put(f, `hits.${i}.rotulo`, r.link);
    put(f, `hits.${i}.partes`, r.partes);
    put(f, `hits.${i}.ultimo`, r.ultima);
  });
  put(f, 'total', Number(/^\d+/.exec(gt.counter[0])![0]));
  put(f, 'limitado', (gt.rows as any[]).length < Number(/^\d+/.exec(gt.counter[0])![0]));
  return f;
}

function pjeSearchRead(html: string): Read {
  const anomalies = new Anomalies();
  const a = parsePjeSearch(html, anomalies);
  const f: Fields = new Map();
  if (!a.found) return { fields: f, anomalias: anomalies.campos };
  a.hits.forEach((h, i) => {
    put(f, `hits.${i}.numero`, h.numeroCnj);
    put(f, `hits.${i}.classe`, h.classe);
    put(f, `hits.${i}.rotulo`, h.rotulo);
    put(f, `hits.${i}.partes`, h.partes);
    put(f, `hits.${i}.ultimo`, h.ultimoMovimento);
  });
  put(f, 'total', a.total);
  put(f, 'limitado', a.limitado);
  return { fields: f, anomalias: anomalies.campos };
}

// ---- e-SAJ detail ---------------------------------------------------------------------------------

const centavos = (v: string | undefined) => {
  const m = v ? /(\d{1,3}(?:\.\d{3})*),(\d{2})/.exec(v) : null;
  return m ? Number(m[1]!.replace(/\./g, '')) * 100 + Number(m[2]) : null;
};

function esajDetailTruth(gt: Record<string, any>): Fields {
  const f: Fields = new Map();
  const ids = gt.ids as Record<string, string>;
  put(f, 'capa.classe', ids.classeProcesso);
  put(f, 'capa.assunto', ids.assuntoProcesso);
  put(f, 'capa.orgao', ids.varaProcesso ?? ids.orgaoJulgadorProcesso);
  put(f, 'capa.foro', ids.foroProcesso ?? ids.secaoProcesso);
  put(f, 'capa.juiz', ids.juizProcesso ?? ids.relatorProcesso ?? null);
  put(f, 'capa.valor', centavos(ids.valorAcaoProcesso));
  put(f, 'capa.situacao', gt.situacao[0]);
  put(f, 'capa.origem', gt.header.Origem ?? null);
  const dist = ids.dataHoraDistribuicaoProcesso ? /^(\d{2}\/\d{2}\/\d{4}) às (\d{2}:\d{2})/.exec(ids.dataHoraDistribuicaoProcesso) : null;
  put(f, 'capa.distribuidoEm', dist ? `${isoDay(dist[1]!)}T${dist[2]}:00-03:00` : null);
  const oabs = new Map<string, { uf: string; numero: string }>();
  for (const [nome, oab] of gt.oab_mentions_in_movements as [string, string][]) {
    const m = /(\d+[A-Z]?)\/([A-Z]{2})$/.exec(oab)!;
    if (!oabs.has(nome)) oabs.set(nome, { uf: m[2]!, numero: m[1]! });
  }
  for (const [pole, polo] of Object.entries(POLES)) {
    (gt.partes_todas as any[])
      .filter((p) => p.pole === pole)
      .forEach((p, i) => {
        const k = `partes.${polo}.${i}`;
        put(f, `${k}.nome`, p.name);
        put(f, `${k}.tipo`, p.role.replace(/:$/, ''));
        (p.lawyers as any[]).forEach((l, j) => {
          put(f, `${k}.advogados.${j}.nome`, l.name);
          put(f, `${k}.advogados.${j}.oab`, oabs.get(l.name) ?? null);
        });
      });
  }
  put(f, 'movimentos.count', gt.mov_todas_count);
  for (const [end, m] of [
    ['first', gt.mov_newest],
    ['last', gt.mov_oldest],
  ] as const) {
    put(f, `movimentos.${end}.data`, isoDay(m.date));
    put(f, `movimentos.${end}.titulo`, m.title);
    put(f, `movimentos.${end}.texto`, m.text || null);
  }
  const block = (gt.blocks as Record<string, string>)['Incidentes, ações incidentais, recursos e execuções de sentenças'] ?? '';
  [...block.matchAll(/(\d{2}\/\d{2}\/\d{4}) (.+?)(?= \d{2}\/\d{2}\/\d{4}|$)/g)].forEach((m, i) => {
    put(f, `incidentes.${i}.data`, isoDay(m[1]!));
    put(f, `incidentes.${i}.classe`, m[2]);
  });
  return f;
}

function esajDetailRead(html: string, gt: Record<string, any>): Read {
  const anomalies = new Anomalies();
  const numeroCnj = digits(gt.numeroProcesso);
  const grau = gt.page_kind.startsWith('esaj_cposg') ? 2 : 1;
  const p = parseEsajPage(html, { numeroCnj, tribunal: 'TJXX', grau }, anomalies);
  const f: Fields = new Map();
  if (p.kind !== 'case') return { fields: f, anomalias: anomalies.campos };
  const c = p.case;
  put(f, 'capa.classe', c.classe);
  put(f, 'capa.assunto', c.assuntos[0] ?? null);
  put(f, 'capa.orgao', c.orgao);
  put(f, 'capa.foro', c.foro);
  put(f, 'capa.juiz', c.juiz);
  put(f, 'capa.valor', c.valorCausaCentavos);
  put(f, 'capa.situacao', c.situacao);
  put(f, 'capa.origem', c.origem ?? null);
  put(f, 'capa.distribuidoEm', c.distribuidoEm);
  for (const polo of Object.values(POLES)) {
    c.partes
      .filter((x) => x.polo === polo)
      .forEach((x, i) => {
        const k = `partes.${polo}.${i}`;
        put(f, `${k}.nome`, x.nome);
        put(f, `${k}.tipo`, x.tipo);
        x.advogados.forEach((l, j) => {
          put(f, `${k}.advogados.${j}.nome`, l.nome);
          put(f, `${k}.advogados.${j}.oab`, l.oab);
        });
      });
  }
  put(f, 'movimentos.count', c.movimentos.length);
  const ends =
    c.movimentos.length > 0
      ? ([
          ['first', c.movimentos[0]!],
          ['last', c.movimentos.at(-1)!],
        ] as const)
      : [];
  for (const [end, m] of ends) {
    put(f, `movimentos.${end}.data`, m.data);
    put(f, `movimentos.${end}.titulo`, m.titulo);
    put(f, `movimentos.${end}.texto`, m.texto);
  }
  c.incidentes.forEach((x, i) => {
    put(f, `incidentes.${i}.data`, x.data);
    put(f, `incidentes.${i}.classe`, x.classe);
  });
  return { fields: f, anomalias: anomalies.campos };
}

// ---- e-SAJ list -----------------------------------------------------------------------------------

function esajListTruth(gt: Record<string, any>): Fields {
  const f: Fields = new Map();
  (gt.rows as any[]).forEach((r, i) => {
    put(f, `hits.${i}.numero`, digits(r.numero));
    put(f, `hits.${i}.codigo`, r.codigo);
  });
  put(f, 'total', Number(/^\d+/.exec(gt.contador[0])![0]));
  put(f, 'limitado', (gt.rows as any[]).length < Number(/^\d+/.exec(gt.contador[0])![0]));
  return f;
}

function esajListRead(html: string, gt: Record<string, any>): Read {
  const anomalies = new Anomalies();
  const f: Fields = new Map();
  const p = parseEsajPage(html, { numeroCnj: digits(gt.pesquisado), tribunal: 'TJXX', grau: 2 }, anomalies);
  if (p.kind === 'list')
    p.hits.forEach((h, i) => {
      put(f, `hits.${i}.numero`, h.numeroCnj);
      put(f, `hits.${i}.codigo`, /processo\.codigo=([^&]+)/.exec(h.path)?.[1] ?? null);
    });
  const s = parseEsajSearch(html);
  if ('total' in s) {
    put(f, 'total', s.total);
    put(f, 'limitado', s.limitado);
  }
  return { fields: f, anomalias: anomalies.campos };
}

// ---- the pages ------------------------------------------------------------------------------------

/** Every set-3 page with its ground truth and its reader. */
export function set3Pages(names: string[]): TruthPage[] {
  return names.map((name) => {
    const gt = truthOf(name);
    const kind: string = gt.page_kind;
    if (kind === 'pje_detail') return { name, system: 'pje', kind: 'detail', expected: pjeDetailTruth(gt), read: pjeDetailRead };
    if (kind === 'pje_search_a4j_partial') return { name, system: 'pje', kind: 'search', expected: pjeSearchTruth(gt), read: pjeSearchRead };
    if (kind.startsWith('esaj_cposg_search_list'))
      return { name, system: 'esaj', kind: 'list', expected: esajListTruth(gt), read: (html: string) => esajListRead(html, gt) };
    if (kind.startsWith('esaj_cp'))
      return { name, system: 'esaj', kind: 'detail', expected: esajDetailTruth(gt), read: (html: string) => esajDetailRead(html, gt) };
    throw new Error(`${name}: no reader for page kind ${kind}`);
  });
}

/**
 * Sets 1 and 2's pages with no field-by-field ground truth of this shape: their own whole read is the
 * truth the mutants are held to (corpus.test.ts checks that read against the captures' facts first).
 */
export function baselinePages(pages: { dir: URL; name: string; system: 'pje' | 'esaj'; kind: 'detail' | 'search'; numero?: string }[]): TruthPage[] {
  return pages.map(({ dir, name, system, kind, numero }) => {
    const gt = { numeroProcesso: numero ?? '', page_kind: 'esaj_cpopg_detail' };
    const read = system === 'pje' ? (kind === 'detail' ? pjeDetailRead : pjeSearchRead) : (html: string) => esajDetailRead(html, gt);
    const html = pageText(readFileSync(new URL(name, dir)));
    return { name, system, kind, expected: read(html).fields, read, html };
  });
}

/** The fields that differ between the expected map and a read: each with both values. */
export function differences(expected: Fields, got: Fields): { field: string; expected: string | undefined; got: string | undefined }[] {
  const keys = new Set([...expected.keys(), ...got.keys()]);
  return [...keys].filter((k) => expected.get(k) !== got.get(k)).map((field) => ({ field, expected: expected.get(field), got: got.get(field) }));
}
