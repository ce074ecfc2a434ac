/**
 * The ports the case capabilities need from upstreams, and the normalized shapes connectors return.
 * Connectors (`sources/<name>/`) implement these against real services; the sandbox simulator speaks
 * the same wire protocols, so the same connector code runs offline and in production.
 *
 * Conventions: CNJ numbers are the 20 bare digits; dates are ISO-8601 UTC strings; codes are strings
 * (upstreams mix numbers and strings); money is integer centavos.
 */

/** A code/name pair from the TPU tables or an upstream's own catalogue. */
export interface CodeName {
  codigo: string;
  nome: string;
}

export interface OrgaoJulgador extends CodeName {
  codigoMunicipioIBGE: string | null;
}

export interface MovementComplement {
  codigo: string;
  nome: string;
  valor: string;
  descricao: string;
}

export interface MovementRecord {
  /** Stable identity: sha1 of instance id | codigo | dataHora | nome | complements (DataJud gives none). */
  key: string;
  grau: string;
  codigo: string;
  nome: string;
  dataHora: string;
  complementos: MovementComplement[];
  orgaoJulgador: CodeName | null;
}

/** One upstream document per instance (grau), as DataJud returns them. */
export interface InstanceRecord {
  /** G1, G2, JE, TR, SUP, … as the upstream spells it. */
  grau: string;
  /** The upstream's document id (`_id`). */
  upstreamId: string;
  classe: CodeName | null;
  assuntos: CodeName[];
  orgaoJulgador: OrgaoJulgador | null;
  sistema: CodeName | null;
  formato: CodeName | null;
  nivelSigilo: number;
  dataAjuizamento: string | null;
  dataHoraUltimaAtualizacao: string | null;
  /** Deduplicated, newest first. */
  movimentos: MovementRecord[];
}

/** A case as one upstream knows it: every instance merged under one number. */
export interface CaseRecord {
  numeroCnj: string;
  /** Court sigla as the upstream gives it, e.g. "TRF4". */
  tribunal: string;
  /** Instances ordered G1 first, then by grau name. */
  instancias: InstanceRecord[];
  /** Latest `dataHoraUltimaAtualizacao` over the instances. */
  atualizadoEm: string | null;
  /** The upstream documents exactly as received (for RAW webhook payloads and audits). */
  raw: unknown[];
}

/** Where a fetch ran; `sandbox` marks data served by the simulator (spec-visible as `meta.source`). */
export interface SourceInfo {
  name: string;
  sandbox: boolean;
}

/** The `source` of events built from a source's data (spec §6.3): `datajud`, or `sandbox:datajud` for simulator data. */
export function eventOrigin(info: SourceInfo): string {
  return `${info.sandbox ? 'sandbox:' : ''}${info.name.toLowerCase()}`;
}

/** Case metadata by number (DataJud). Missing numbers are simply absent from the result map. */
export interface CaseMetadataSource {
  readonly info: SourceInfo;
  /** Looks many numbers up, batched per court alias; throws SourceError when the upstream fails. */
  fetchCases(numerosCnj: readonly string[], signal?: AbortSignal): Promise<Map<string, CaseRecord>>;
  /** One number; concurrent calls are coalesced into batched requests. null when the upstream has no such case. */
  fetchCase(numeroCnj: string, signal?: AbortSignal): Promise<CaseRecord | null>;
}

/** Why an upstream call failed. Never means "not found". */
export type SourceFailure = 'unavailable' | 'timeout' | 'rate_limited' | 'malformed' | 'unauthorized' | 'no_index';

export class SourceError extends Error {
  readonly source: string;
  readonly failure: SourceFailure;
  readonly retryAfterMs: number | undefined;
  constructor(source: string, failure: SourceFailure, message: string, retryAfterMs?: number) {
    super(message);
    this.name = 'SourceError';
    this.source = source;
    this.failure = failure;
    this.retryAfterMs = retryAfterMs;
  }
}

// ---- Case details (parties, lawyers, value, public documents) --------------------------------------
// DataJud carries none of these (reference/upstream/datajud.md §1). They come from a court-portal
// provider: the sandbox implements the protocol below; in production an operator points
// TRAMITA_PORTAL_URL at a provider that speaks it.

export interface LawyerRecord {
  nome: string;
  /** e.g. { uf: 'SP', numero: '123456' } */
  oab: { uf: string; numero: string } | null;
}

export interface PartyRecord {
  /** 'ATIVO' | 'PASSIVO' | 'OUTROS' */
  polo: string;
  /** e.g. AUTOR, RÉU, EXEQUENTE, EXECUTADO, APELANTE */
  tipo: string;
  nome: string;
  /** 'FISICA' | 'JURIDICA' */
  tipoPessoa: string;
  /** bare digits (CPF 11, CNPJ 14; alphanumeric CNPJ upper-case), or null when the source hides it */
  documento: string | null;
  advogados: LawyerRecord[];
}

export interface PublicDocumentRecord {
  /** The provider's id, stable for the case. */
  id: string;
  titulo: string;
  tipo: string;
  dataJuntada: string;
  mimeType: string;
  tamanhoBytes: number;
}

export interface CaseDetailsRecord {
  numeroCnj: string;
  valorCausaCentavos: number | null;
  partes: PartyRecord[];
  documentos: PublicDocumentRecord[];
}

export interface CaseDetailsSource {
  readonly info: SourceInfo;
  /** null when the provider does not know the case. */
  fetchDetails(numeroCnj: string, signal?: AbortSignal): Promise<CaseDetailsRecord | null>;
  /** Numbers of the cases where a party with this CPF/CNPJ appears (bare digits), newest first. */
  findByDocument(documento: string, signal?: AbortSignal): Promise<string[]>;
  /** Numbers of the cases where a party's name matches (accent/case-insensitive, all words). */
  findByName(nome: string, signal?: AbortSignal): Promise<string[]>;
  /** Streams a public document's bytes. */
  downloadDocument(numeroCnj: string, documentId: string, signal?: AbortSignal): Promise<{ mimeType: string; body: Uint8Array } | null>;
}

/** The upstreams this process talks to (real services, or the sandbox simulator). */
export interface Sources {
  cases: CaseMetadataSource;
  /** null when no case-details provider is configured. */
  details: CaseDetailsSource | null;
  close(): Promise<void>;
}
