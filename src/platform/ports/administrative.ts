/**
 * Federal administrative processes by NUP (spec §4.7, reference/upstream/nup.md §3, wave2.md §F):
 * Protocolo Integrado publishes the metadata and the tramitações of the processes of the federal
 * bodies since 2015 (never the documents). The port's promise: `null` means the source answered,
 * definitively, that it has no such process; every failure (including a captcha page, which Tramita
 * never solves) throws SourceError, so it can never be read as "not found".
 */
import type { SourceInfo } from './case-metadata.ts';

export interface AdministrativeMovement {
  /** Stable identity: sha1 of dataHora | operacao | origem | destino | its rank among identical ones. */
  key: string;
  /** ISO-8601 (Brasília wall time converted to UTC). */
  dataHora: string;
  /** What happened: `Envio`, `Recebimento`, `Autuação`… as published. */
  operacao: string;
  unidadeOrigem: string | null;
  unidadeDestino: string | null;
}

export interface AdministrativeProcessRecord {
  /** 17 digits. */
  nup: string;
  tipo: string | null;
  assunto: string | null;
  /** Interested parties as published (names of people or bodies). */
  interessados: string[];
  /** The body that opened it, as published. */
  orgaoOrigem: string | null;
  /** yyyy-mm-dd */
  dataAutuacao: string | null;
  /** Oldest first, as the source lists them. */
  tramitacoes: AdministrativeMovement[];
}

export interface AdministrativeSource {
  readonly info: SourceInfo;
  /** The process, or null when the source says it has none; throws SourceError on any failure. */
  lookup(nup: string, signal?: AbortSignal): Promise<AdministrativeProcessRecord | null>;
  close(): Promise<void>;
}
