/**
 * Raw DataJud hits → normalized CaseRecords (src/platform/ports/sources.ts). One hit is one instance (grau)
 * of a case (reference/upstream/datajud.md §8.1), so hits are grouped by `numeroProcesso`. Every
 * quirk of §7–§8 is absorbed here; a field missing from one hit becomes null/empty, never a throw.
 */
import { createHash } from 'node:crypto';
import type { CaseRecord, CodeName, InstanceRecord, MovementComplement, MovementRecord, OrgaoJulgador } from '../../platform/ports/case-metadata.ts';
import type { EsHit } from './client.ts';
import { normalizeDataJudDate } from './dates.ts';

export { normalizeDataJudDate } from './dates.ts';

type Fields = Record<string, unknown>;

function isFields(v: unknown): v is Fields {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Codes and ids come as numbers or strings (§8.4): always a trimmed string, or null. */
function asText(v: unknown): string | null {
  if (typeof v === 'string') return v.trim();
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return null;
}

/** Names are kept as received (encoding glitches included, §7), only strings accepted. */
function asName(v: unknown): string | null {
  return typeof v === 'string' ? v : asText(v);
}

function firstOf(fields: Fields, keys: readonly string[], read: (v: unknown) => string | null): string | null {
  for (const key of keys) {
    const value = read(fields[key]);
    if (value !== null) return value;
  }
  return null;
}

/**
 * `{codigo, nome}`; movement órgãos may spell it `{codigoOrgao, nomeOrgao}` (glossary) while real
 * TRF4 data uses `{codigo, nome}` (§7), so both spellings are read everywhere.
 */
function codeName(v: unknown): CodeName | null {
  if (!isFields(v)) return null;
  const codigo = firstOf(v, ['codigo', 'codigoOrgao'], asText);
  const nome = firstOf(v, ['nome', 'nomeOrgao'], asName);
  return codigo === null && nome === null ? null : { codigo: codigo ?? '', nome: nome ?? '' };
}

function orgaoJulgador(v: unknown): OrgaoJulgador | null {
  const base = codeName(v);
  if (!base || !isFields(v)) return null;
  return { ...base, codigoMunicipioIBGE: asText(v.codigoMunicipioIBGE) };
}

/** `assuntos` is sometimes an array of arrays (§7, wiki exemplo 2): flatten at any depth. */
function flatCodeNames(v: unknown): CodeName[] {
  const out: CodeName[] = [];
  const visit = (x: unknown): void => {
    if (Array.isArray(x)) x.forEach(visit);
    else {
      const c = codeName(x);
      if (c) out.push(c);
    }
  };
  visit(v);
  return out;
}

function complements(v: unknown): MovementComplement[] {
  const list = Array.isArray(v) ? v.flat(Infinity) : [];
  return list.filter(isFields).map((c) => ({
    codigo: asText(c.codigo) ?? '',
    nome: asName(c.nome) ?? '',
    valor: asText(c.valor) ?? '',
    descricao: asName(c.descricao) ?? '',
  }));
}

/** The date normalized, else the raw text (an odd date must not drop the movement), else ''. */
function movementDate(v: unknown): string {
  return normalizeDataJudDate(v) ?? asText(v) ?? '';
}

/** DataJud movements have no id (§8.2): identity = sha1(instance id|codigo|dataHora|nome|complements). */
export function movementKey(instanceId: string, m: Pick<MovementRecord, 'codigo' | 'dataHora' | 'nome' | 'complementos'>): string {
  const material = `${instanceId}|${m.codigo}|${m.dataHora}|${m.nome}|${JSON.stringify(m.complementos)}`;
  return createHash('sha1').update(material).digest('hex');
}

function movement(raw: Fields, instanceId: string, grau: string): MovementRecord {
  const fields = {
    codigo: asText(raw.codigo) ?? '',
    nome: asName(raw.nome) ?? '',
    dataHora: movementDate(raw.dataHora),
    complementos: complements(raw.complementosTabelados),
  };
  return { key: movementKey(instanceId, fields), grau, ...fields, orgaoJulgador: codeName(raw.orgaoJulgador) };
}

/** Newest first; equal times ordered by key so the order never depends on the upstream's (§8.2). */
function newestFirst(a: MovementRecord, b: MovementRecord): number {
  if (a.dataHora !== b.dataHora) return a.dataHora < b.dataHora ? 1 : -1;
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/** Exact duplicates (§8.2) collapse; near duplicates (1 s apart) are distinct events and stay. */
function movements(v: unknown, instanceId: string, grau: string): MovementRecord[] {
  const byKey = new Map<string, MovementRecord>();
  const list = Array.isArray(v) ? v : [];
  for (const raw of list) {
    if (!isFields(raw)) continue;
    const m = movement(raw, instanceId, grau);
    if (!byKey.has(m.key)) byKey.set(m.key, m);
  }
  return [...byKey.values()].sort(newestFirst);
}

function nivelSigilo(v: unknown): number {
  const n = typeof v === 'string' ? Number(v.trim()) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : 0;
}

function instance(source: Fields, hitId: string): InstanceRecord {
  const upstreamId = hitId || asText(source.id) || '';
  const grau = asText(source.grau) ?? '';
  return {
    grau,
    upstreamId,
    classe: codeName(source.classe),
    assuntos: flatCodeNames(source.assuntos),
    orgaoJulgador: orgaoJulgador(source.orgaoJulgador),
    sistema: codeName(source.sistema),
    formato: codeName(source.formato),
    nivelSigilo: nivelSigilo(source.nivelSigilo),
    dataAjuizamento: normalizeDataJudDate(source.dataAjuizamento),
    dataHoraUltimaAtualizacao: normalizeDataJudDate(source.dataHoraUltimaAtualizacao),
    movimentos: movements(source.movimentos, upstreamId, grau),
  };
}

/** The 20 bare digits of `numeroProcesso` ("sem formatação" per the glossary; tolerate a mask). */
export function numeroOf(source: unknown): string | null {
  if (!isFields(source)) return null;
  const v = source.numeroProcesso;
  const text = typeof v === 'string' ? v.replace(/\D/g, '') : typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? String(v).padStart(20, '0') : '';
  return text === '' ? null : text;
}

/** G1 first, then by grau name, then by document id (stable across responses). */
function instanceOrder(a: InstanceRecord, b: InstanceRecord): number {
  if ((a.grau === 'G1') !== (b.grau === 'G1')) return a.grau === 'G1' ? -1 : 1;
  if (a.grau !== b.grau) return a.grau < b.grau ? -1 : 1;
  return a.upstreamId < b.upstreamId ? -1 : a.upstreamId > b.upstreamId ? 1 : 0;
}

interface CaseDraft {
  tribunal: string | null;
  instancias: InstanceRecord[];
  raw: unknown[];
}

export interface ParseOptions {
  /** Court sigla used when a document has no `tribunal` (the alias's court). */
  tribunal?: string;
}

/**
 * Hits → one CaseRecord per number, in order of first appearance. Hits without a `_source` object or
 * without `numeroProcesso` are skipped; a document seen twice (same `_id`, e.g. across
 * search_after pages, §6) counts once.
 */
export function parseHits(hits: readonly EsHit[], options: ParseOptions = {}): CaseRecord[] {
  const drafts = new Map<string, CaseDraft>();
  const seenIds = new Set<string>();
  for (const hit of hits) {
    const numero = numeroOf(hit._source);
    if (numero === null || !isFields(hit._source)) continue;
    if (hit._id !== '') {
      if (seenIds.has(hit._id)) continue;
      seenIds.add(hit._id);
    }
    let draft = drafts.get(numero);
    if (!draft) {
      draft = { tribunal: null, instancias: [], raw: [] };
      drafts.set(numero, draft);
    }
    draft.tribunal ??= asText(hit._source.tribunal) || null;
    draft.instancias.push(instance(hit._source, hit._id));
    draft.raw.push(hit._source);
  }
  return [...drafts].map(([numero, draft]) => toCase(numero, draft, options));
}

function toCase(numeroCnj: string, draft: CaseDraft, options: ParseOptions): CaseRecord {
  const instancias = draft.instancias.sort(instanceOrder);
  let atualizadoEm: string | null = null;
  for (const i of instancias) {
    // Normalized ISO strings of one format compare correctly as text.
    if (i.dataHoraUltimaAtualizacao !== null && (atualizadoEm === null || i.dataHoraUltimaAtualizacao > atualizadoEm))
      atualizadoEm = i.dataHoraUltimaAtualizacao;
  }
  return { numeroCnj, tribunal: draft.tribunal ?? options.tribunal ?? '', instancias, atualizadoEm, raw: draft.raw };
}
