/**
 * What a court's public consultation page shows of one case (issue 31): e-SAJ, PJe's classic
 * *consulta pública*, TJDFT's REST consultation. Exactly what the page showed, nothing more: a masked
 * CPF stays masked, a field the page does not publish is null (never 0, never ""). Each system's
 * parser produces this; the consultations connector turns it into the case-details port's records.
 */
import type { AnomalyField } from './anomalies.ts';
import type { CaseConsultaRecord, PageListCount, PageMovementRecord } from '../../platform/ports/case-details.ts';

export type ConsultaSystem = 'esaj' | 'pje' | 'tjdft';

export interface ConsultaLawyer {
  nome: string;
  /** Canonical registration (platform/identifiers/oab.ts), null when the page shows none. */
  oab: { uf: string; numero: string } | null;
}

export interface ConsultaParty {
  polo: 'ATIVO' | 'PASSIVO' | 'OUTROS';
  /** The role as the page prints it, expanded where the page abbreviates (`Reqte` → `Requerente`); null when the line prints none. */
  tipo: string | null;
  nome: string;
  /** As shown: bare digits when shown whole, the masked text (`***.000.014-**`) when masked, null when absent. */
  documento: string | null;
  tipoPessoa: 'FISICA' | 'JURIDICA' | null;
  advogados: ConsultaLawyer[];
}

/** A movement as the page lists it: the port's record (PageMovementRecord). */
export type ConsultaMovement = PageMovementRecord;

export type ConsultaIncident = CaseConsultaRecord['incidentes'][number];

/**
 * The case as a page shows it: the port's consultation record (class, subjects, órgão, judge,
 * distribution, situation, secrecy, movements, incidents, linked case) plus what the connector hands
 * to the other parts of the port (number, court, value, parties). `fonte` is the connector's to add.
 */
export interface ConsultaCase extends Omit<CaseConsultaRecord, 'fonte' | 'sistema'> {
  /** 20 digits. */
  numeroCnj: string;
  /** Court sigla, e.g. TJSP. */
  tribunal: string;
  sistema: ConsultaSystem;
  /** Null where the system never publishes it (PJe) or the page hides it. */
  valorCausaCentavos: number | null;
  partes: ConsultaParty[];
  /**
   * 2nd degree (e-SAJ `cposg`/`cposg5`): the origin as printed (`Comarca de Maceió / Foro de Maceió / 4ª Vara
   * Cível da Capital`); absent on 1st-degree pages.
   */
  origem?: string | null;
  /**
   * The documents grid (issue 53), every page read (or `listas.documentos.parcial`); absent where the
   * system has no public documents on its page.
   */
  documentos?: ConsultaDocument[];
  /** Lines read only in part (anomalies.ts), for the connector to count; never part of the port's record. */
  anomalias?: AnomalyField[];
}

/** A list the page shows in part: the count the page prints (null when it prints none) and the rows read. */
export type ConsultaListCount = PageListCount;

/** A document a page's grid lists (issue 53). */
export interface ConsultaDocument {
  /** The court's id of the document ("ID do documento"). */
  id: string;
  titulo: string;
  tipo: string;
  /** ISO instant with offset; null when the label's date does not read. */
  juntadoEm: string | null;
  /** `visualizador` (the court's HTML viewer), `arquivo` (a file it stores), null: opened only behind a login (never read). */
  origem: 'visualizador' | 'arquivo' | null;
  /** The file's size the row's title prints; null when it prints none (a viewer document). */
  tamanhoBytes: number | null;
  /** A file's name (`GuiaMA1.63666.pdf`); null for a viewer document. */
  arquivo: string | null;
  /** A file the row marks as a PDF (its icon, or its name). */
  pdf?: boolean;
}
