/**
 * The ports the case capabilities need from upstreams, and the normalized shapes connectors return.
 * Connectors (`sources/<name>/`) implement these against real services; the sandbox simulator speaks
 * the same wire protocols, so the same connector code runs offline and in production.
 *
 * Conventions: CNJ numbers are the 20 bare digits; dates are ISO-8601 UTC strings; codes are strings
 * (upstreams mix numbers and strings); money is integer centavos.
 */
import type { ChatModel } from './model.ts';
import type { ElectoralGazetteSource } from './electoral.ts';
import type { MuralSource } from './mural.ts';
import type { StfGazetteSource } from './stf.ts';
import type { WarrantsSource } from './warrants.ts';
import type { AdministrativeSource } from './administrative.ts';
import type { TjrjPrecatorioSource } from './tjrj.ts';

/** A code/name pair from the TPU tables or an upstream's own catalogue. */
export interface CodeName {
  codigo: string;
  nome: string;
}

export interface OrgaoJulgador extends CodeName {
  codigoMunicipioIBGE: string | null;
}

export interface MovementComplement {
  codigo: string;
  nome: string;
  valor: string;
  descricao: string;
}

export interface MovementRecord {
  /** Stable identity: sha1 of instance id | codigo | dataHora | nome | complements (DataJud gives none). */
  key: string;
  grau: string;
  codigo: string;
  nome: string;
  dataHora: string;
  complementos: MovementComplement[];
  orgaoJulgador: CodeName | null;
  /** The text a court's consultation page prints for it (issue 31); absent or null when none did. */
  texto?: string | null;
}

/** One upstream document per instance (grau), as DataJud returns them. */
export interface InstanceRecord {
  /** G1, G2, JE, TR, SUP, … as the upstream spells it. */
  grau: string;
  /** The upstream's document id (`_id`). */
  upstreamId: string;
  classe: CodeName | null;
  assuntos: CodeName[];
  orgaoJulgador: OrgaoJulgador | null;
  sistema: CodeName | null;
  formato: CodeName | null;
  nivelSigilo: number;
  dataAjuizamento: string | null;
  dataHoraUltimaAtualizacao: string | null;
  /** Deduplicated, newest first. */
  movimentos: MovementRecord[];
}

/** A case as one upstream knows it: every instance merged under one number. */
export interface CaseRecord {
  numeroCnj: string;
  /** Court sigla as the upstream gives it, e.g. "TRF4". */
  tribunal: string;
  /** Instances ordered G1 first, then by grau name. */
  instancias: InstanceRecord[];
  /** Latest `dataHoraUltimaAtualizacao` over the instances. */
  atualizadoEm: string | null;
  /** The upstream documents exactly as received (for RAW webhook payloads and audits). */
  raw: unknown[];
}

/** Where a fetch ran; `sandbox` marks data served by the simulator (spec-visible as `meta.source`). */
export interface SourceInfo {
  name: string;
  sandbox: boolean;
}

/** The `source` of events built from a source's data (spec §6.3): `datajud`, `dje-eleitoral`, or `sandbox:datajud` for simulator data. */
export function eventOrigin(info: SourceInfo): string {
  return `${info.sandbox ? 'sandbox:' : ''}${info.name.toLowerCase().replace(/\s+/g, '-')}`;
}

/** Case metadata by number (DataJud). Missing numbers are simply absent from the result map. */
export interface CaseMetadataSource {
  readonly info: SourceInfo;
  /** Looks many numbers up, batched per court alias; throws SourceError when the upstream fails. */
  fetchCases(numerosCnj: readonly string[], signal?: AbortSignal): Promise<Map<string, CaseRecord>>;
  /** One number; concurrent calls are coalesced into batched requests. null when the upstream has no such case. */
  fetchCase(numeroCnj: string, signal?: AbortSignal): Promise<CaseRecord | null>;
  /**
   * The documents of one court alias updated since an instant, a page at a time (incremental sync),
   * optionally only those of some TPU classes (e.g. 1265/1266, the precatório harvest). Throws SourceError.
   */
  scanUpdatedSince(alias: string, sinceIso: string, pageSize?: number, signal?: AbortSignal, classes?: readonly number[]): AsyncGenerator<CaseRecord[]>;
}

/** Why an upstream call failed. Never means "not found". */
/** `geoblocked`: the upstream refuses this host's country (DJEN's CloudFront 403 outside Brazil, djen.md §3). */
/** `input_too_long`: a language model refused the prompt as longer than its context (ports/model.ts). */
/** `captcha`: the upstream answered a captcha page; Tramita never solves one (DESIGN.md), so it is a failure. */
/** `too_large`: the answer's body crossed its source's size limit (TRAMITA_UPSTREAM_MAX_BYTES; sources/upstream-body.ts). */
export type SourceFailure =
  | 'unavailable'
  | 'timeout'
  | 'rate_limited'
  | 'malformed'
  | 'unauthorized'
  | 'no_index'
  | 'geoblocked'
  | 'input_too_long'
  | 'captcha'
  | 'too_large'
  | 'anti_bot'
  | 'login';

export class SourceError extends Error {
  readonly source: string;
  readonly failure: SourceFailure;
  readonly retryAfterMs: number | undefined;
  constructor(source: string, failure: SourceFailure, message: string, retryAfterMs?: number) {
    super(message);
    this.name = 'SourceError';
    this.source = source;
    this.failure = failure;
    this.retryAfterMs = retryAfterMs;
  }
}

/** Failures worth another attempt: 5xx, network, timeouts and 429 (after its wait). */
export const TRANSIENT_FAILURES: ReadonlySet<SourceFailure> = new Set(['unavailable', 'timeout', 'rate_limited']);

/**
 * A connector's SourceError that knows whether another attempt may help: each connector subclasses it
 * with its name and its own set of transient failures, so its retry loop can tell a transient failure
 * from a permanent one.
 */
export class RetryableSourceError extends SourceError {
  /** HTTP status when the upstream answered, undefined for network errors and timeouts. */
  readonly status: number | undefined;
  readonly retryable: boolean;
  constructor(
    source: string,
    transient: ReadonlySet<SourceFailure>,
    failure: SourceFailure,
    message: string,
    opts: { status?: number; retryAfterMs?: number; retryable?: boolean } = {},
  ) {
    super(source, failure, message, opts.retryAfterMs);
    this.status = opts.status;
    this.retryable = opts.retryable ?? transient.has(failure);
  }
}

// ---- Case details (parties, lawyers, value, public documents) --------------------------------------
// DataJud carries none of these (reference/upstream/datajud.md §1). They come from a court-portal
// provider: the sandbox implements the protocol below; in production an operator points
// TRAMITA_PORTAL_URL at a provider that speaks it.

export interface LawyerRecord {
  nome: string;
  /** e.g. { uf: 'SP', numero: '123456' } */
  oab: { uf: string; numero: string } | null;
}

export interface PartyRecord {
  /** 'ATIVO' | 'PASSIVO' | 'OUTROS' */
  polo: string;
  /** e.g. AUTOR, RÉU, EXEQUENTE, EXECUTADO, APELANTE */
  tipo: string;
  nome: string;
  /** 'FISICA' | 'JURIDICA' */
  tipoPessoa: string;
  /** bare digits (CPF 11, CNPJ 14; alphanumeric CNPJ upper-case), or null when the source hides it */
  documento: string | null;
  advogados: LawyerRecord[];
}

export interface PublicDocumentRecord {
  /** The provider's id, stable for the case. */
  id: string;
  titulo: string;
  tipo: string;
  dataJuntada: string;
  mimeType: string;
  tamanhoBytes: number;
}

/** A movement as a court's page prints it: a day (or instant), a title and the text under it. */
export interface PageMovementRecord {
  /** ISO day (`2024-02-06`) or ISO instant with offset. */
  data: string;
  titulo: string;
  texto: string | null;
}

/**
 * What a court's public consultation adds to a case (issue 31): its cover as the page shows it, the
 * movements with their texts, the incidents and the linked case. Names only: pages give no TPU codes.
 */
export interface CaseConsultaRecord {
  /** The source that read it: `consulta-tjsp`. */
  fonte: string;
  /** `esaj`, `pje`, `tjdft`. */
  sistema: string;
  grau: 1 | 2;
  classe: string | null;
  assuntos: string[];
  orgao: string | null;
  foro: string | null;
  juiz: string | null;
  /** ISO day or instant with offset. */
  distribuidoEm: string | null;
  situacao: string | null;
  segredo: boolean;
  /** Newest first, as the page lists them. */
  movimentos: PageMovementRecord[];
  incidentes: { numeroCnj: string | null; classe: string; data: string | null }[];
  /** The linked case (PJe 2nd degree "Processo referência"), 20 digits, else null. */
  processoReferencia: string | null;
}

export interface CaseDetailsRecord {
  numeroCnj: string;
  valorCausaCentavos: number | null;
  partes: PartyRecord[];
  documentos: PublicDocumentRecord[];
  /** Present when a court's public consultation answered (issue 31); the portal protocol gives none. */
  consulta?: CaseConsultaRecord | null;
  /** Who gave the parties and lawyers, as integrators read it in each party's `fonte` (issue 32): `DJEN`, `e-SAJ TJSP`, the provider's name. */
  fonte?: string;
}

export interface CaseDetailsSource {
  readonly info: SourceInfo;
  /** null when the provider does not know the case. */
  fetchDetails(numeroCnj: string, signal?: AbortSignal): Promise<CaseDetailsRecord | null>;
  /**
   * True when this source reads the case from its court's own page (an enabled consultation), so it can
   * answer a number DataJud does not know yet; absent on providers that only enrich known cases.
   */
  covers?(numeroCnj: string): boolean;
  /** Numbers of the cases where a party with this CPF/CNPJ appears (bare digits), newest first. */
  findByDocument(documento: string, signal?: AbortSignal): Promise<string[]>;
  /** Numbers of the cases where a party's name matches (accent/case-insensitive, all words). */
  findByName(nome: string, signal?: AbortSignal): Promise<string[]>;
  /** Streams a public document's bytes. */
  downloadDocument(numeroCnj: string, documentId: string, signal?: AbortSignal): Promise<{ mimeType: string; body: Uint8Array } | null>;
  /**
   * Asks every enabled court consultation that offers this kind of search (issue 32), in parallel
   * within each host's budget: the numbers each court listed (at most `limitePorTribunal` per court)
   * and which courts were asked, answered and failed. A court's failure is reported, never thrown.
   * Absent on sources that search no court.
   */
  searchCourts?(query: CourtSearchQuery, signal?: AbortSignal): Promise<CourtSearchReport>;
}

/** What a court search looks for: a CPF/CNPJ (bare digits), a party's name, or a lawyer's registration. */
export type CourtSearchQuery =
  | { kind: 'documento'; documento: string }
  | { kind: 'nome'; nome: string }
  /** `numero`: digits without leading zeros; `suffix`: the registration's letter, when it has one. */
  | { kind: 'oab'; oab: { uf: string; numero: string; suffix?: string } };

export type CourtSearchKind = CourtSearchQuery['kind'];

/** What one court's consultation answered to a search. */
export interface CourtSearchHits {
  tribunal: string;
  /** The numbers listed (20 digits), in the court's order, at most the per-court cap. */
  numeros: string[];
  /** How many cases the court said it found (its counter), when it printed one; else the numbers listed. */
  encontrados: number;
}

export interface CourtSearchReport {
  /** Court siglas asked, in table order. */
  consultadas: string[];
  responderam: CourtSearchHits[];
  /** The courts whose answer was a failure (`captcha`, `anti_bot`, `timeout`…), with the reason. */
  falharam: { tribunal: string; falha: SourceFailure; mensagem: string }[];
  /** Hits per court looked up in detail at most (the rest are counted, not fetched). */
  limitePorTribunal: number;
}

// ---- Publications (DJEN / Comunica PJe, reference/upstream/djen.md) ---------------------------------

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

/** The upstreams this process talks to (real services, or the sandbox simulator). */
export interface Sources {
  cases: CaseMetadataSource;
  /** null when no case-details provider is configured. */
  details: CaseDetailsSource | null;
  /** The case-details provider (TRAMITA_PORTAL_URL, or the sandbox's): how its parties are named and the courts it is asked about; null when none. */
  provider?: { nome: string; courts: 'all' | readonly string[] } | null;
  /** The courts whose public consultation this deployment reads (issue 31); null when none is enabled. */
  consultas?: { sandbox: boolean; courts: readonly { sigla: string; sistema: string; source: string }[] } | null;
  /** DJEN: the real API, or the sandbox's simulator. */
  publications: PublicationSource;
  /** The language model that writes AI summaries (ports/model.ts); null: the offline writer does. */
  model: ChatModel | null;
  /** The STF's own gazette (ports/stf.ts). */
  stf: StfGazetteSource;
  /** The electoral gazettes, TSE and TREs (ports/electoral.ts). */
  electoral: ElectoralGazetteSource;
  /** The electoral bulletin board's provider (ports/mural.ts); null when none is configured. */
  mural: MuralSource | null;
  /** The warrants provider (ports/warrants.ts); null when none is configured. */
  warrants: WarrantsSource | null;
  /** Protocolo Integrado (ports/administrative.ts): the real site, or the sandbox's. */
  administrative: AdministrativeSource;
  /** TJRJ's precatório API (ports/tjrj.ts): the real one, or the sandbox's. */
  tjrj: TjrjPrecatorioSource;
  close(): Promise<void>;
}
