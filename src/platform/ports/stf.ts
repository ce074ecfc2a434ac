/**
 * The STF gazette port (DJe STF, reference/upstream/wave2.md §B): the last divulgação day, and every
 * publication divulged on one day. The archive is partitioned by divulgação day, so a day read whole
 * is the unit of ingest. The connector lives in sources/stf/; the sandbox simulates the API.
 */
import type { SourceInfo } from './sources.ts';

export interface StfParty {
  nome: string;
  /** ATIVO | PASSIVO | null */
  polo: string | null;
  /** `RECTE.(S)`, `ADV.(A/S)`, … as the court prints it. */
  categoria: string;
  /** Parsed from `identificacoes` ("OAB 12345/SP"). */
  oabs: { uf: string; numero: string }[];
}

export interface StfPublicationRecord {
  /** STF's own id, as a string. */
  id: string;
  /** e.g. `ARE 1.456.789`. */
  processo: string;
  processoId: string | null;
  tipo: string;
  relator: string | null;
  /** yyyy-mm-dd */
  divulgacao: string;
  /** yyyy-mm-dd; null when absent. */
  publicacao: string | null;
  html: string;
  colegiado: string | null;
  sessao: string | null;
  descricao: string | null;
  envolvidos: StfParty[];
  /** The item as received. */
  raw: unknown;
}

export interface StfGazetteSource {
  readonly info: SourceInfo;
  /** The last divulgação day (yyyy-mm-dd). Throws SourceError. */
  lastDay(signal?: AbortSignal): Promise<string>;
  /** Every publication divulged on `day` (yyyy-mm-dd), all pages. Throws SourceError; never a partial day. */
  day(day: string, signal?: AbortSignal): Promise<StfPublicationRecord[]>;
  close(): Promise<void>;
}
