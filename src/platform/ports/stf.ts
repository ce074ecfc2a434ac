/**
 * The STF gazette port (DJe STF; its real API: reference/upstream/real/README.md §6, captures stf-1..4):
 * the last publication day, and every publication divulged on one day. The archive is partitioned by
 * divulgação day, so a day read whole is the unit of ingest. The connector lives in sources/stf/; the
 * sandbox simulates the API.
 */
import type { SourceInfo } from './case-metadata.ts';

export interface StfParty {
  nome: string;
  /** `ATIVO`, `PASSIVO`, `INTERESSADO` as the STF sends it; null when absent. */
  polo: string | null;
  /** `REQUERENTE(S)`, `ADVOGADO(A/S)`, `PROCURADOR(ES)`… as the STF sends it. */
  categoria: string;
  /** The STF's `identificacoes` as printed (`OAB 27882/PA`, `OAB's (31442/DF, 518968/SP)`). */
  identificacoes: string[];
  /** Every registration read from `identificacoes`, in order; `numero` carries the letter when the registration has one (`76005A`). */
  oabs: { uf: string; numero: string }[];
  /**
   * `advogado`: filed as ADVOGADO(A/S); `sem_advogado`: the placeholder `Sem Representação nos Autos`
   * the STF files as ADVOGADO(A/S) for a side with none (it names nobody); `parte`: anyone else.
   */
  papel: 'advogado' | 'sem_advogado' | 'parte';
}

export interface StfPublicationRecord {
  /** STF's own id, as a string. */
  id: string;
  /** Class and number as the STF writes them, e.g. `Pet 16560`. */
  processo: string;
  /** The case's `incidente` at portal.stf.jus.br. */
  processoId: string | null;
  tipo: string;
  relator: string | null;
  /** yyyy-mm-dd: the divulgação day in Brasília. */
  divulgacao: string;
  /** The divulgação instant, Brasília time with its offset: `2026-08-13T20:32:00.645-03:00`. */
  divulgadoEm: string;
  /** yyyy-mm-dd; null while the item is divulged but not yet published. */
  publicacao: string | null;
  html: string;
  /** e.g. `decisoes-monocraticas:601509`. */
  codigo: string | null;
  observacao: string | null;
  responsavel: string | null;
  /** e.g. `Publicação Monocrática`. */
  tipoConteudo: string | null;
  /** `Público`, `Segredo de Justiça`, `Sigiloso`. */
  confidencialidade: string | null;
  colegiado: string | null;
  sessao: string | null;
  descricao: string | null;
  tipoPronunciamentoId: string | null;
  envolvidos: StfParty[];
  /** The item as received. */
  raw: unknown;
}

export interface StfGazetteSource {
  readonly info: SourceInfo;
  /**
   * The last *publication* day (`/ultimo-dje`, yyyy-mm-dd): the newest published edition, the largest
   * `publicacao`. Days divulged after it exist (their items are published later), so it is never a
   * ceiling for ingestion; it says when a new edition came out. Throws SourceError.
   */
  lastDay(signal?: AbortSignal): Promise<string>;
  /** Every publication divulged on `day` (yyyy-mm-dd), all pages. Throws SourceError; never a partial day. */
  day(day: string, signal?: AbortSignal): Promise<StfPublicationRecord[]>;
  /** One stored item (a publication's `raw`) read again as `day` read it, for the answers; throws when it cannot be read. */
  readItem(item: unknown): StfPublicationRecord;
  close(): Promise<void>;
}
