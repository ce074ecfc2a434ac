/**
 * The electoral gazettes' port (DJE eleitoral of the TSE and the 27 TREs, reference/upstream/wave2.md
 * §C): a court's editions of one day, an edition's PDF, and the publications (matérias) an edition
 * carries, split from its PDF by the connector. The archive is partitioned by court and day: a day
 * read whole is the unit of ingest.
 */
import { UFS } from '../identifiers/uf.ts';
import type { SourceInfo } from './case-metadata.ts';

/** `TSE` and `TRE-<UF>` for the 27 UFs: the courts whose gazette DJE eleitoral carries. */
export const ELECTORAL_COURTS: readonly string[] = ['TSE', ...UFS.map((uf) => `TRE-${uf}`)];

export function isElectoralCourt(value: string): boolean {
  return ELECTORAL_COURTS.includes(value);
}

export interface ElectoralEditionRecord {
  tribunal: string;
  /** The edition's number at its court (`edicao`). */
  numero: number;
  /** yyyy-mm-dd */
  data: string;
  /** A supplementary edition of the day ("edição extra"). */
  extra: boolean;
  /** The day index's entry as received. */
  raw: unknown;
}

export interface ElectoralLawyer {
  nome: string;
  oab: { uf: string; numero: string } | null;
}

export interface ElectoralPublicationRecord {
  /** `<tribunal>:<edição>:<ordem>`: stable, the store deduplicates by it. */
  id: string;
  tribunal: string;
  edicao: number;
  /** yyyy-mm-dd: the edition's day (its disponibilização). */
  data: string;
  /** yyyy-mm-dd: the matéria's `PUBLICAÇÃO EM :` (the next business day, as the DJE prints it); null when not printed. */
  publicacao: string | null;
  /** 1-based position of the matéria in its edition. */
  ordem: number;
  /** 1-based PDF page where the matéria starts. */
  pagina: number;
  /** 20 digits, or null when the matéria names no CNJ number. */
  numeroCnj: string | null;
  /** Name and TPU code as the heading prints them, `CUMPRIMENTO DE SENTENÇA (156)` (name in full from the `PROCESSO :` line). */
  classe: string | null;
  /** The matéria's plain text, as extracted from the PDF. */
  texto: string;
  /** Parties as printed (`INTERESSADO(A) : NOME`): role and name, each once. */
  partes: { papel: string; nome: string }[];
  /** One per registration printed (both notations, `(30865/PA)` and `OAB/PA26585-A`), each once; a lawyer without one once, `oab` null. */
  advogados: ElectoralLawyer[];
  /** What the PDF gave for this matéria (RAW webhooks, audits). */
  raw: unknown;
}

export interface ElectoralGazetteSource {
  readonly info: SourceInfo;
  /** The editions `tribunal` published on `day` (yyyy-mm-dd); [] on a day without one. Throws SourceError. */
  editions(tribunal: string, day: string, signal?: AbortSignal): Promise<ElectoralEditionRecord[]>;
  /** The edition's PDF bytes (checked to be a PDF). Throws SourceError. */
  pdf(tribunal: string, numero: number, signal?: AbortSignal): Promise<Buffer>;
  /** The matérias of an edition, split from its PDF. Throws SourceError. */
  publications(edition: ElectoralEditionRecord, signal?: AbortSignal): Promise<ElectoralPublicationRecord[]>;
  close(): Promise<void>;
}
