/**
 * Arrest warrants of the national warrants database (BNMP, spec §4.7, reference/upstream/wave2.md §E).
 * Its public portal sits behind a captcha and a browser fingerprint, so warrants come from a provider
 * the operator configures (docs/providers.md), never from solving a captcha. The port's one promise
 * (spec §4.7 rules 1–3): `[]` means the provider answered a definitive "no warrant"; every failure,
 * timeout or refusal throws SourceError, so it can never be read as NADA_CONSTA.
 * Warrant data is personal data: callers never log it.
 */
import type { SourceInfo } from './case-metadata.ts';

export type WarrantQuery = { cpf: string } | { numeroPeca: string };

export interface WarrantRecord {
  /** 28 digits, when the provider gave a valid one. */
  numeroPeca: string | null;
  /** e.g. `Mandado de Prisão`. */
  tipoPeca: string | null;
  /** e.g. `Pendente de Cumprimento`. */
  status: string | null;
  /** 20 digits, when valid. */
  numeroProcesso: string | null;
  orgao: string | null;
  /** yyyy-mm-dd */
  dataExpedicao: string | null;
  nome: string | null;
  alcunha: string | null;
}

export interface WarrantsSource {
  readonly info: SourceInfo;
  /** What this provider can be asked: by CPF, by piece number, or both. */
  readonly supports: readonly ('cpf' | 'numeroPeca')[];
  query(q: WarrantQuery, signal?: AbortSignal): Promise<WarrantRecord[]>;
  close(): Promise<void>;
}
