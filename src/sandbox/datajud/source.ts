/**
 * Renders one instance of a sandbox case as the `_source` of a DataJud document, at a given time,
 * with the quirks real documents have (datajud.md §7–§8): `dataAjuizamento` compact or ISO-at-midnight
 * per court, nested `assuntos` (TJDFT), `movimentos` unsorted with exact duplicates, their
 * `orgaoJulgador.codigo` a string while top-level codes are numbers, `@timestamp` with nanoseconds,
 * `dataHoraUltimaAtualizacao` with microseconds on eproc courts. No parties: DataJud has none.
 */
import type { CourtProfile } from '../data/courts.ts';
import type { InstanceRef } from '../data/dataset.ts';
import type { Movement, Orgao } from '../data/model.ts';
import type { SourceFilter } from './query.ts';

/** What time has revealed of an instance: how many of its movements, and when the last one happened. */
export interface InstanceView {
  visible: number;
  lastAt: number;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** `20250708160117`, as the real TRF4 documents send it. */
function compactDate(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`;
}

function ajuizamento(profile: CourtProfile, ms: number): string {
  return profile.dateStyle === 'compact' ? compactDate(ms) : `${new Date(ms).toISOString().slice(0, 10)}T00:00:00.000Z`;
}

/** `2026-09-07T14:52:04.214000Z` (eproc courts) or `2025-08-02T19:16:17.391Z`. */
function lastUpdate(profile: CourtProfile, ms: number): string {
  const iso = new Date(ms).toISOString();
  return profile.eproc ? `${iso.slice(0, -1)}000Z` : iso;
}

/** `2025-10-28T05:46:42.681808837Z`: milliseconds plus six more digits. */
export function nanoTimestamp(ms: number, nanos: string): string {
  return `${new Date(ms).toISOString().slice(0, -1)}${nanos}Z`;
}

/** "GAB 54 Des Federal X" at the top, "GAB. 54 (Des. Federal X)" inside movements, as in the real TRF4 document. */
function movementOrgaoName(nome: string): string {
  const m = /^GAB (\d+) Des Federal (.+)$/.exec(nome);
  return m ? `GAB. ${m[1]} (Des. Federal ${m[2]})` : nome;
}

/**
 * Keys in the real documents' orders (datajud/parity.test.ts): with an órgão, `codigo, dataHora, nome,
 * [complementosTabelados,] orgaoJulgador` (TRF4's capture); without, `[complementosTabelados,] codigo,
 * nome, dataHora` (the wiki's TRF1 example); a complement as `codigo, valor, nome, descricao`.
 */
function renderMovement(m: Movement, orgao: Orgao | null): Record<string, unknown> {
  const c = m.type.complemento;
  const complementos = c ? { complementosTabelados: [{ codigo: c.codigo, valor: c.valor, nome: c.nome, descricao: c.descricao }] } : {};
  const dataHora = new Date(m.at).toISOString();
  if (!orgao) return { ...complementos, codigo: m.type.codigo, nome: m.type.nome, dataHora };
  return {
    codigo: m.type.codigo,
    dataHora,
    nome: m.type.nome,
    ...complementos,
    orgaoJulgador: { codigo: String(orgao.codigo), nome: movementOrgaoName(orgao.nome) },
  };
}

export function renderSource(ref: InstanceRef, profile: CourtProfile, view: InstanceView): Record<string, unknown> {
  const { c, inst } = ref;
  const movementOrgao = inst.grau !== 'G1' || profile.movementOrgao ? inst.orgao : null;
  const movimentos: Record<string, unknown>[] = [];
  for (const i of inst.listing) if (i < view.visible) movimentos.push(renderMovement(inst.movements[i], movementOrgao));
  const assuntos = inst.assuntos.map((a) => ({ codigo: a.codigo, nome: a.nome }));
  return {
    id: inst.id,
    tribunal: profile.tribunal,
    grau: inst.grau,
    numeroProcesso: c.numero,
    dataAjuizamento: ajuizamento(profile, inst.ajuizadoAt),
    nivelSigilo: 0,
    orgaoJulgador: { codigo: inst.orgao.codigo, nome: inst.orgao.nome, codigoMunicipioIBGE: inst.orgao.codigoMunicipioIBGE },
    classe: { codigo: inst.classe.codigo, nome: inst.classe.nome },
    sistema: { codigo: inst.sistema.codigo, nome: inst.sistema.nome },
    formato: { codigo: inst.formato.codigo, nome: inst.formato.nome },
    dataHoraUltimaAtualizacao: lastUpdate(profile, view.lastAt),
    '@timestamp': nanoTimestamp(view.lastAt, inst.nanos),
    movimentos,
    assuntos: profile.nestedAssuntos ? assuntos.map((a) => [a]) : assuntos,
  };
}

/** Keeps only the `_source` paths asked for (dotted paths reach into objects and arrays of objects). */
export function filterSource(source: Record<string, unknown>, filter: SourceFilter): Record<string, unknown> {
  let out = source;
  if (filter.includes.length > 0)
    out = pick(
      source,
      filter.includes.map((p) => p.split('.')),
    ) as Record<string, unknown>;
  for (const path of filter.excludes) out = drop(out, path.split('.')) as Record<string, unknown>;
  return out;
}

function matches(pattern: string, key: string): boolean {
  return pattern === '*' || pattern === key || (pattern.endsWith('*') && key.startsWith(pattern.slice(0, -1)));
}

function pick(value: unknown, paths: string[][]): unknown {
  if (Array.isArray(value)) return value.map((v) => pick(v, paths)).filter((v) => v !== undefined);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const here = paths.filter((p) => matches(p[0], key));
    if (here.length === 0) continue;
    if (here.some((p) => p.length === 1)) out[key] = v;
    else {
      const sub = pick(
        v,
        here.map((p) => p.slice(1)),
      );
      if (sub !== undefined && !(typeof sub === 'object' && sub !== null && !Array.isArray(sub) && Object.keys(sub).length === 0)) out[key] = sub;
    }
  }
  return out;
}

function drop(value: unknown, path: string[]): unknown {
  if (Array.isArray(value)) return value.map((v) => drop(v, path));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (!matches(path[0], key)) out[key] = v;
    else if (path.length > 1) out[key] = drop(v, path.slice(1));
  }
  return out;
}
