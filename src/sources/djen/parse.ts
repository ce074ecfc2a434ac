/**
 * DJEN JSON → the port's records (item fields: reference/upstream/djen.md §4.2). An item without its
 * identity (id, siglaTribunal, date) is `malformed`, never dropped: a missing publication could be a
 * missed deadline. Everything else is read leniently (DJEN mixes strings and numbers) and the item
 * is kept verbatim in `raw`.
 */
import { parseCnj } from '../../platform/identifiers/cnj.ts';
import { oabOf, parseOabParts } from '../../platform/identifiers/oab.ts';
import type { CadernoInfo, PublicationLawyer, PublicationParty, PublicationRecord } from '../../platform/ports/publications.ts';
import { malformed } from './errors.ts';

type Json = Record<string, unknown>;

function isRecord(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A non-empty string, or a number as text; null otherwise. */
function text(v: unknown): string | null {
  if (typeof v === 'string') return v.trim() === '' ? null : v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return null;
}

function list(v: unknown, what: string, where: string): unknown[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw malformed(`DJEN ${where}: ${what} is not an array.`);
  return v;
}

/** `yyyy-mm-dd` from `data_disponibilizacao`, else from `datadisponibilizacao` (`dd/mm/yyyy`). */
export function publicationDate(item: Json): string | null {
  const iso = typeof item.data_disponibilizacao === 'string' ? /^(\d{4})-(\d{2})-(\d{2})/.exec(item.data_disponibilizacao.trim()) : null;
  if (iso && plausibleDay(iso[1], iso[2], iso[3])) return `${iso[1]}-${iso[2]}-${iso[3]}`;
  const br = typeof item.datadisponibilizacao === 'string' ? /^(\d{2})\/(\d{2})\/(\d{4})/.exec(item.datadisponibilizacao.trim()) : null;
  if (br && plausibleDay(br[3], br[2], br[1])) return `${br[3]}-${br[2]}-${br[1]}`;
  return null;
}

function plausibleDay(year: string, month: string, day: string): boolean {
  const m = Number(month);
  const d = Number(day);
  return Number(year) >= 1900 && m >= 1 && m <= 12 && d >= 1 && d <= 31;
}

/** The 20 digits when the value is a valid CNJ number (check digits included), else null. */
function cnjOf(...candidates: unknown[]): string | null {
  for (const candidate of candidates) {
    const value = text(candidate);
    if (value === null) continue;
    try {
      return parseCnj(value).digits;
    } catch {
      // not a CNJ number: try the next spelling, then null (the raw value stays in `raw`)
    }
  }
  return null;
}

/**
 * A lawyer's OAB in canonical form whatever the court printed (`RS057689`, `057689`, `57.689`,
 * `57689`, `57689A`; §4.3): the number's own UF when it has one, otherwise the item's `uf_oab`.
 */
export function normalizeOab(numero: unknown, uf: unknown): PublicationLawyer['oab'] {
  const number = text(numero)?.trim().toUpperCase() ?? null;
  if (number === null) return null;
  const withOwnUf = oabOf(number);
  if (withOwnUf) return withOwnUf;
  try {
    const oab = parseOabParts(typeof uf === 'string' ? uf : '', number.replace(/^OAB[\s/:-]*/, ''));
    return { uf: oab.uf, numero: `${oab.numero}${oab.suffix ?? ''}` };
  } catch {
    return null;
  }
}

function lawyer(entry: unknown, where: string): PublicationLawyer | null {
  if (!isRecord(entry)) throw malformed(`DJEN ${where}: a destinatarioadvogados entry is not an object.`);
  // `{…, advogado: {nome, numero_oab, uf_oab}}`; an entry without the nested object carries nobody.
  const advogado = isRecord(entry.advogado) ? entry.advogado : null;
  if (!advogado) return null;
  return { nome: text(advogado.nome) ?? '', oab: normalizeOab(advogado.numero_oab, advogado.uf_oab) };
}

function party(entry: unknown, where: string): PublicationParty {
  if (!isRecord(entry)) throw malformed(`DJEN ${where}: a destinatarios entry is not an object.`);
  return { nome: text(entry.nome) ?? '', polo: text(entry.polo) ?? '' };
}

/** One DJEN item (from `/comunicacao`, `/comunicacao/{id}` or a caderno page) → PublicationRecord. */
export function toPublication(item: unknown, where = 'item'): PublicationRecord {
  if (!isRecord(item)) throw malformed(`DJEN ${where} is not an object.`);
  const id =
    typeof item.id === 'number' && Number.isSafeInteger(item.id)
      ? String(item.id)
      : typeof item.id === 'string' && /^\d+$/.test(item.id.trim())
        ? item.id.trim().replace(/^0+(?=\d)/, '')
        : null;
  if (id === null) throw malformed(`DJEN ${where} has no id (${item.id === undefined ? 'none' : `a ${typeof item.id}`}).`);
  const at = `${where} ${id}`;
  const tribunal = text(item.siglaTribunal)?.trim() ?? null;
  if (tribunal === null) throw malformed(`DJEN ${at} has no siglaTribunal.`);
  const data = publicationDate(item);
  if (data === null) throw malformed(`DJEN ${at} has no readable data_disponibilizacao / datadisponibilizacao.`);
  const orgaoNome = text(item.nomeOrgao);
  const orgaoId = text(item.idOrgao);
  const codigoClasse = text(item.codigoClasse);
  const nomeClasse = text(item.nomeClasse);
  const dataCancelamento = text(item.data_cancelamento);
  const motivoCancelamento = text(item.motivo_cancelamento);
  return {
    id,
    hash: text(item.hash),
    numeroCnj: cnjOf(item.numero_processo, item.numeroprocessocommascara),
    tribunal,
    dataDisponibilizacao: data,
    tipoComunicacao: text(item.tipoComunicacao) ?? '',
    tipoDocumento: text(item.tipoDocumento),
    orgao: orgaoNome === null && orgaoId === null ? null : { id: orgaoId, nome: orgaoNome ?? '' },
    classe: codigoClasse === null && nomeClasse === null ? null : { codigo: codigoClasse ?? '', nome: nomeClasse ?? '' },
    meio: text(item.meio) ?? '',
    numeroComunicacao: text(item.numeroComunicacao),
    texto: typeof item.texto === 'string' ? item.texto : '',
    link: text(item.link),
    ativo: item.ativo !== false && dataCancelamento === null,
    cancelamento: dataCancelamento === null && motivoCancelamento === null ? null : { data: dataCancelamento, motivo: motivoCancelamento },
    destinatarios: list(item.destinatarios, 'destinatarios', at).map((d) => party(d, at)),
    advogados: list(item.destinatarioadvogados, 'destinatarioadvogados', at).flatMap((a) => lawyer(a, at) ?? []),
    raw: item,
  };
}

/** `{items:[…]}` (a search page, `/comunicacao/{id}`, a caderno JSON page) → records, in order. */
export function toPublications(body: unknown, what: string): PublicationRecord[] {
  if (!isRecord(body) || !Array.isArray(body.items)) throw malformed(`DJEN answered ${what} with JSON that has no items array.`);
  return body.items.map((item, i) => toPublication(item, `${what}, item #${i + 1}`));
}

export interface CadernoMetadata extends CadernoInfo {
  /** The temporary download URL (≈5 min, §4.6); null when DJEN gives none (not processed). */
  url: string | null;
}

/** `GET /caderno/{sigla}/{data}/{meio}` metadata (§4.6). Counts come as numbers or numeric strings. */
export function toCadernoMetadata(body: unknown, tribunal: string, data: string, meio: string): CadernoMetadata {
  const what = `the caderno ${tribunal} ${data} ${meio}`;
  if (!isRecord(body)) throw malformed(`DJEN answered ${what} with JSON that is not an object.`);
  const status = text(body.status);
  if (status === null) throw malformed(`DJEN answered ${what} without a status.`);
  return {
    tribunal: text(body.sigla_tribunal) ?? tribunal,
    data: text(body.data) ?? data,
    meio: text(body.meio) ?? meio,
    status,
    total: count(body.total_comunicacoes, 'total_comunicacoes', what),
    paginas: count(body.numero_paginas, 'numero_paginas', what),
    url: text(body.url),
  };
}

function count(v: unknown, field: string, what: string): number {
  if (v === undefined || v === null || v === '') return 0;
  const n = typeof v === 'string' ? Number(v.trim()) : v;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0)
    throw malformed(`DJEN answered ${what} with ${field} as a ${v === null ? 'null' : typeof v}, not a count.`);
  return n;
}
