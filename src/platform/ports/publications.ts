/** The publications port: DJEN / Comunica PJe (reference/upstream/djen.md) and the records it returns. */
import type { CodeName, SourceInfo } from './case-metadata.ts';

/** A lawyer named by a communication (`destinatarioadvogados[].advogado`). */
export interface PublicationLawyer {
  nome: string;
  /** Canonical registration (platform/identifiers/oab.ts): UF + digits without leading zeros + suffix,
   * whatever spelling the court printed (`RS057689`, `057689`, `57.689`); null when unreadable. */
  oab: { uf: string; numero: string } | null;
}

/** An addressee (`destinatarios[]`): polo `A` (active) or `P` (passive) as DJEN writes it. */
export interface PublicationParty {
  nome: string;
  polo: string;
}

/** One DJEN communication, normalized. Dates are `yyyy-mm-dd` (DJEN's own day, no time). */
export interface PublicationRecord {
  /** DJEN `id`, as a string. Stable: the store deduplicates by it. */
  id: string;
  /** DJEN `hash` (certidão key); null when absent. */
  hash: string | null;
  /** 20 digits when `numero_processo` is a valid CNJ number, else null (the raw value stays in `raw`). */
  numeroCnj: string | null;
  /** `siglaTribunal`, e.g. TJSP, TRF4, TRE-SP. */
  tribunal: string;
  dataDisponibilizacao: string;
  tipoComunicacao: string;
  tipoDocumento: string | null;
  orgao: { id: string | null; nome: string } | null;
  /** `codigoClasse` (a string upstream) and `nomeClasse` as given (DJEN's casing is odd; kept). */
  classe: CodeName | null;
  /** `D` (Diário) or `E` (Edital). */
  meio: string;
  numeroComunicacao: string | null;
  /** Full text as received: HTML, or plain text with `\n\r` (TJRJ). */
  texto: string;
  /** The act in the court's system (user-openable), or null. */
  link: string | null;
  /** false when DJEN cancelled it (`ativo: false` or a `data_cancelamento`). */
  ativo: boolean;
  cancelamento: { data: string | null; motivo: string | null } | null;
  destinatarios: PublicationParty[];
  advogados: PublicationLawyer[];
  /** The item exactly as received (RAW webhook payloads, audits). */
  raw: unknown;
}

/** At least one of oab, numeroCnj, nomeParte, nomeAdvogado, texto or tribunal (DJEN's own rule, djen.md §4.1). */
export interface PublicationQuery {
  /** `numero` is digits (+ optional suffix letter) as platform/identifiers/oab.ts gives it. */
  oab?: { uf: string; numero: string };
  numeroCnj?: string;
  nomeParte?: string;
  nomeAdvogado?: string;
  texto?: string;
  tribunal?: string;
  /** `yyyy-mm-dd`, inclusive. */
  desde?: string;
  ate?: string;
  meio?: 'D' | 'E';
}

export interface PublicationSearchOptions {
  signal?: AbortSignal;
  /** Stop after this many pages (per OAB spelling); the result then says `complete: false`. */
  maxPages?: number;
  /** Called after each page with the running totals (progress). */
  onPage?: (pages: number, items: number) => void;
}

export interface PublicationSearchResult {
  /** Deduplicated by id, newest first. */
  items: PublicationRecord[];
  /** false when `maxPages` cut the paging short (or DJEN's 10,000-result cap was hit). */
  complete: boolean;
  /** Upstream requests spent. */
  requests: number;
}

/** Metadata of a daily bulk caderno (djen.md §4.6). */
export interface CadernoInfo {
  tribunal: string;
  data: string;
  meio: string;
  /** `Processado` (ready), `Não Processado` / `Em processamento` (try later), `Sem comunicações` / `Cancelado` (final, no data). */
  status: string;
  total: number;
  paginas: number;
}

export interface CadernoIngestOptions {
  signal?: AbortSignal;
  /** Called after each JSON page of the ZIP with the running count and the announced total. */
  onProgress?: (done: number, total: number) => void;
}

export interface PublicationSource {
  readonly info: SourceInfo;
  /**
   * Whether a request would go out now, without waiting for the per-minute budget or a rate-limit
   * pause: a lookup answering a caller asks only then (issue 43); background work waits its turn.
   */
  readyNow?(): boolean;
  /** Every page until a short one (DJEN's `count` is unreliable); an OAB is asked in each spelling that hides hits and merged. */
  search(query: PublicationQuery, options?: PublicationSearchOptions): Promise<PublicationSearchResult>;
  /** One communication by DJEN id; null when DJEN has none. */
  fetchOne(id: string, signal?: AbortSignal): Promise<PublicationRecord | null>;
  /**
   * Streams a day's caderno of one court: metadata, then the ZIP, handing `sink` one JSON page of
   * items at a time (bounded memory: never the whole file). A caderno not ready or with no
   * communications returns its info without calling `sink`.
   */
  caderno(
    tribunal: string,
    data: string,
    meio: 'D' | 'E',
    sink: (items: PublicationRecord[]) => Promise<void>,
    options?: CadernoIngestOptions,
  ): Promise<CadernoInfo>;
  /** The certidão de publicação PDF by hash; null when DJEN has none. */
  certidao(hash: string, signal?: AbortSignal): Promise<Uint8Array | null>;
  /** The public (no key needed) URL of that certidão: `<base>/api/v1/comunicacao/<hash>/certidao`. */
  certidaoUrl(hash: string): string;
  close(): Promise<void>;
}
