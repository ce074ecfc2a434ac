/**
 * The electoral bulletin board (Mural Eletrônico of the TSE and TREs, reference/upstream/wave2.md §D).
 * Its search needs a human reCAPTCHA token, so Tramita never calls it: it is served by a provider the
 * operator configures, speaking the protocol of docs/providers.md (DESIGN.md §8). Without one the
 * port is absent and the operations answer SOURCE_NOT_CONFIGURED.
 */
import type { SourceInfo } from './case-metadata.ts';

/** What a document download may ask for (docs/providers.md): the act itself, or the certificate of its publication. */
export const MURAL_DOCUMENT_KINDS = ['documento', 'certidao'] as const;
export type MuralDocumentKind = (typeof MURAL_DOCUMENT_KINDS)[number];

export interface MuralQuery {
  parte?: string;
  advogado?: string;
  /** Canonical (`SP123456`). */
  oab?: string;
  /** `TSE` or `TRE-<UF>`. */
  tribunal?: string;
  /** yyyy-mm-dd, inclusive. */
  de?: string;
  ate?: string;
  pagina: number;
}

export interface MuralParty {
  nome: string;
  advogados: { nome: string; oab: string | null }[];
}

export interface MuralPublicationRecord {
  id: string;
  numero: string | null;
  tribunal: string;
  /** ISO instant of the publication. */
  publicadoEm: string;
  tipoDocumento: string | null;
  /** 20 digits when the provider gave a valid CNJ number. */
  numeroCnj: string | null;
  texto: string;
  partes: MuralParty[];
  /** The item as the provider gave it. */
  raw: unknown;
}

export interface MuralPage {
  items: MuralPublicationRecord[];
  /** Whether the provider has a next page. */
  proxima: boolean;
  total: number | null;
}

export interface MuralDocument {
  contentType: string;
  fileName: string | null;
  body: Buffer;
}

export interface MuralSource {
  readonly info: SourceInfo;
  search(q: MuralQuery, signal?: AbortSignal): Promise<MuralPage>;
  /** null when the provider has no such publication or document. */
  document(id: string, kind: MuralDocumentKind, signal?: AbortSignal): Promise<MuralDocument | null>;
  close(): Promise<void>;
}
