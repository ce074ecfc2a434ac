/**
 * Reading the case-details protocol's JSON (documented in src/sandbox/portal/server.ts) into the port's
 * records. Anything that does not have the documented shape is `SourceError('portal', 'malformed')`:
 * a provider that answers garbage must never look like "no parties" or "not found".
 */
import { oabOf } from '../../platform/identifiers/oab.ts';
import type { SourceError } from '../../platform/ports/source-error.ts';
import { upstreamError } from '../http/classify.ts';
import type { CaseDetailsRecord, LawyerRecord, PartyRecord, PublicDocumentRecord } from '../../platform/ports/case-details.ts';

type Json = Record<string, unknown>;

function malformed(what: string): SourceError {
  return upstreamError('portal')('malformed', `Portal answered an unexpected shape: ${what}.`);
}

function object(v: unknown, what: string): Json {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw malformed(`${what} is not an object`);
  return v as Json;
}

function array(v: unknown, what: string): unknown[] {
  if (!Array.isArray(v)) throw malformed(`${what} is not an array`);
  return v;
}

function string(v: unknown, what: string): string {
  if (typeof v !== 'string') throw malformed(`${what} is not a string`);
  return v;
}

function nullableString(v: unknown, what: string): string | null {
  return v === null || v === undefined ? null : string(v, what);
}

/** "12345.67" (reais, decimal point, up to 2 decimals) → 1234567 centavos, in integer arithmetic. */
export function reaisToCentavos(text: string): number {
  const m = /^(\d{1,13})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!m) throw malformed('valorCausa is not a decimal amount like "12345.67"');
  return Number(m[1]) * 100 + Number((m[2] ?? '0').padEnd(2, '0'));
}

function lawyer(v: unknown, i: number): LawyerRecord {
  const l = object(v, `advogados[${i}]`);
  return { nome: string(l.nome, 'advogado.nome'), oab: oabOf(nullableString(l.oab, 'advogado.oab')) };
}

function party(v: unknown, i: number): PartyRecord {
  const p = object(v, `partes[${i}]`);
  const documento = nullableString(p.documento, 'parte.documento');
  return {
    polo: string(p.polo, 'parte.polo'),
    tipo: string(p.tipo, 'parte.tipo'),
    nome: string(p.nome, 'parte.nome'),
    tipoPessoa: string(p.tipoPessoa, 'parte.tipoPessoa'),
    documento: documento === null ? null : documento.toUpperCase().replace(/[^0-9A-Z]/g, '') || null,
    advogados: array(p.advogados ?? [], 'parte.advogados').map(lawyer),
  };
}

function document(v: unknown, i: number): PublicDocumentRecord {
  const d = object(v, `documentos[${i}]`);
  const tamanho = d.tamanho;
  if (typeof tamanho !== 'number' || !Number.isSafeInteger(tamanho) || tamanho < 0) throw malformed('documento.tamanho is not a byte count');
  const dataJuntada = string(d.dataJuntada, 'documento.dataJuntada');
  if (Number.isNaN(Date.parse(dataJuntada))) throw malformed('documento.dataJuntada is not a date');
  return {
    id: typeof d.id === 'number' ? String(d.id) : string(d.id, 'documento.id'),
    titulo: string(d.titulo, 'documento.titulo'),
    tipo: string(d.tipo, 'documento.tipo'),
    dataJuntada: new Date(dataJuntada).toISOString(),
    mimeType: string(d.mimeType, 'documento.mimeType'),
    tamanhoBytes: tamanho,
  };
}

export function toCaseDetails(json: unknown, numeroCnj: string): CaseDetailsRecord {
  const body = object(json, 'the case');
  const numero = string(body.numeroProcesso, 'numeroProcesso').replace(/\D/g, '');
  // A case number is public; anything else in that field is not quoted (it could be a CPF).
  if (numero !== numeroCnj) throw malformed(`asked for ${numeroCnj}, got ${numero.length === 20 ? numero : `${numero.length} digits`}`);
  const valor = nullableString(body.valorCausa, 'valorCausa');
  return {
    numeroCnj,
    valorCausaCentavos: valor === null ? null : reaisToCentavos(valor),
    partes: array(body.partes, 'partes').map(party),
    documentos: array(body.documentos ?? [], 'documentos').map(document),
  };
}

export function toCaseNumbers(json: unknown): string[] {
  const body = object(json, 'the lookup answer');
  return array(body.processos, 'processos').map((n, i) => {
    const digits = string(n, `processos[${i}]`).replace(/\D/g, '');
    if (digits.length !== 20) throw malformed(`processos[${i}] is not a 20-digit CNJ number`);
    return digits;
  });
}
