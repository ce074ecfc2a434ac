/**
 * The case-metadata port (DataJud and its simulator) and the normalized case it returns. CNJ numbers
 * are the 20 bare digits; dates are ISO-8601 UTC strings; codes are strings; money is integer centavos.
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
  /** The text a court's consultation page prints for it (issue 31); absent or null when none did. */
  texto?: string | null;
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

/** The `source` of events built from a source's data (spec §6.3): `datajud`, `dje-eleitoral`, or `sandbox:datajud` for simulator data. */
export function eventOrigin(info: SourceInfo): string {
  return `${info.sandbox ? 'sandbox:' : ''}${info.name.toLowerCase().replace(/\s+/g, '-')}`;
}

/** Case metadata by number (DataJud). Missing numbers are simply absent from the result map. */
export interface CaseMetadataSource {
  readonly info: SourceInfo;
  /** Looks many numbers up, batched per court alias; throws SourceError when the upstream fails. */
  fetchCases(numerosCnj: readonly string[], signal?: AbortSignal): Promise<Map<string, CaseRecord>>;
  /** One number; concurrent calls are coalesced into batched requests. null when the upstream has no such case. */
  fetchCase(numeroCnj: string, signal?: AbortSignal): Promise<CaseRecord | null>;
  /**
   * The documents of one court alias updated since an instant, a page at a time (incremental sync),
   * optionally only those of some TPU classes (e.g. 1265/1266, the precatório harvest). Throws SourceError.
   */
  scanUpdatedSince(alias: string, sinceIso: string, pageSize?: number, signal?: AbortSignal, classes?: readonly number[]): AsyncGenerator<CaseRecord[]>;
}
