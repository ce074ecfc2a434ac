/**
 * What a court's public consultation page shows of one case (issue 31): e-SAJ, PJe's classic
 * *consulta pública*, TJDFT's REST consultation. Exactly what the page showed, nothing more: a masked
 * CPF stays masked, a field the page does not publish is null (never 0, never ""). Each system's
 * parser produces this; the consultations connector turns it into the case-details port's records.
 */

export type ConsultaSystem = 'esaj' | 'pje' | 'tjdft';

export interface ConsultaLawyer {
  nome: string;
  /** Canonical registration (platform/identifiers/oab.ts), null when the page shows none. */
  oab: { uf: string; numero: string } | null;
}

export interface ConsultaParty {
  polo: 'ATIVO' | 'PASSIVO' | 'OUTROS';
  /** The role as the page prints it, expanded where the page abbreviates (`Reqte` → `Requerente`). */
  tipo: string;
  nome: string;
  /** As shown: bare digits when shown whole, the masked text (`***.000.014-**`) when masked, null when absent. */
  documento: string | null;
  tipoPessoa: 'FISICA' | 'JURIDICA' | null;
  advogados: ConsultaLawyer[];
}

export interface ConsultaMovement {
  /** ISO day (`2024-02-06`) or instant with offset when the page gives the time. */
  data: string;
  titulo: string;
  /** The complement / full text under the title; null when the page shows only the title. */
  texto: string | null;
}

export interface ConsultaIncident {
  numeroCnj: string | null;
  classe: string;
  data: string | null;
}

export interface ConsultaCase {
  /** 20 digits. */
  numeroCnj: string;
  /** Court sigla, e.g. TJSP. */
  tribunal: string;
  sistema: ConsultaSystem;
  grau: 1 | 2;
  classe: string | null;
  assuntos: string[];
  /** Vara / órgão julgador. */
  orgao: string | null;
  foro: string | null;
  juiz: string | null;
  /** ISO instant with offset, or ISO day. */
  distribuidoEm: string | null;
  /** Null where the system never publishes it (PJe) or the page hides it. */
  valorCausaCentavos: number | null;
  situacao: string | null;
  /** The page marks the case as secret (segredo de justiça): parties and texts it hides stay absent. */
  segredo: boolean;
  partes: ConsultaParty[];
  /** Newest first, as the pages list them. */
  movimentos: ConsultaMovement[];
  incidentes: ConsultaIncident[];
  /** PJe 2nd degree "Processo referência": the linked first-degree case (20 digits), else null. */
  processoReferencia: string | null;
}
