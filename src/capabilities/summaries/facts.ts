/**
 * What a summary is written from: the case as Tramita holds it (cover, parties, movements, public
 * documents, gazette publications linked by number), gathered once per execution. The same facts give
 * the same summary and the same fingerprint, which is how `GET resumo-ia` tells an outdated summary.
 */
import type { CodeName, MovementComplement } from '../../platform/ports/case-metadata.ts';
import type { LawyerRecord } from '../../platform/ports/case-details.ts';

export interface FactInstance {
  /** G1, G2, JE, TR, SUP, … */
  grau: string;
  classe: CodeName | null;
  assuntos: CodeName[];
  orgaoJulgador: CodeName | null;
  sistema: CodeName | null;
  dataAjuizamento: string | null;
  nivelSigilo: number;
  quantidadeMovimentacoes: number;
}

export interface FactParty {
  /** ATIVO | PASSIVO | OUTROS, or ADVOGADO: a lawyer listed without a side (LAWYER_POLE) */
  polo: string;
  /** AUTOR, RÉU, RECLAMANTE, … */
  tipo: string;
  nome: string;
  /** FISICA | JURIDICA */
  tipoPessoa: string;
  advogados: LawyerRecord[];
}

export interface FactMovement {
  grau: string;
  /** TPU movement code, as a string. */
  codigo: string;
  nome: string;
  /** ISO-8601 UTC. */
  dataHora: string;
  complementos: MovementComplement[];
  orgaoJulgador: string | null;
}

export interface FactPublication {
  id: string;
  /** yyyy-mm-dd */
  data: string;
  tribunal: string;
  tipoComunicacao: string;
  tipoDocumento: string | null;
  orgao: string | null;
  /** As received: HTML or plain text. */
  texto: string;
}

export interface FactDocument {
  titulo: string;
  tipo: string;
  dataJuntada: string;
  /**
   * A decision's text as the court wrote it (issue 53), when Tramita holds it (a court document
   * downloaded before: no court is asked for a summary); at most MAX_DECISION_CHARS of it. Absent otherwise.
   */
  texto?: string;
  /** Who signed that decision, when its text is held. */
  assinante?: string | null;
}

export interface CaseFacts {
  /** 20 digits. */
  numeroCnj: string;
  /** NNNNNNN-DD.AAAA.J.TR.OOOO */
  numeroCnjFormatado: string;
  /** Court sigla, e.g. TJSP. */
  tribunal: string;
  /** G1 first. */
  instancias: FactInstance[];
  valorCausaCentavos: number | null;
  /** null when the details provider was never asked or has none (DataJud carries no parties). */
  partes: FactParty[] | null;
  /** Newest first, at most MAX_FACT_MOVEMENTS. */
  movimentos: FactMovement[];
  movimentosTotal: number;
  /** Newest first, at most MAX_FACT_PUBLICATIONS. */
  publicacoes: FactPublication[];
  documentos: FactDocument[];
  /** The source's last update of the case (ISO) and when Tramita last read it. */
  atualizadoEm: string | null;
  consultadoEm: string;
  /** The day the facts describe (yyyy-mm-dd): "N days without movement" is counted to it. */
  dataReferencia: string;
}

export const MAX_FACT_MOVEMENTS = 500;
export const MAX_FACT_PUBLICATIONS = 20;
/** Decisions whose texts a summary reads at most (the newest), and the characters of each. */
export const MAX_FACT_DECISIONS = 5;
export const MAX_DECISION_CHARS = 6_000;
/** The document types that decide something: their texts are what a summary reads (`Sentença`, `Decisão`, `Acórdão`, `Despacho`). */
export const DECISION_TYPE = /senten[çc]a|decis[ãa]o|ac[óo]rd[ãa]o|despacho|voto/i;
