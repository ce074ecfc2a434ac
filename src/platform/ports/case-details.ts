/**
 * The case-details port: parties, lawyers, value, public documents, the courts' consultation pages and
 * their searches. DataJud carries none of these (reference/upstream/datajud.md §1). They come from a
 * court-portal provider (the sandbox implements the protocol below; in production an operator points
 * TRAMITA_PORTAL_URL at a provider that speaks it) and from the courts' public consultations.
 */
import type { SourceInfo } from './case-metadata.ts';
import type { SourceFailure } from './source-error.ts';

export interface LawyerRecord {
  nome: string;
  /** e.g. { uf: 'SP', numero: '123456' } */
  oab: { uf: string; numero: string } | null;
}

/**
 * The pole of an entry that is a lawyer whose side the source does not say (DJEN's communications sent
 * to both poles, issue 43 item 6): listed with the case, its OAB as its own `advogados[0]`, as the
 * commercial service lists lawyers among `envolvidos` (conventions §4.2, polo `ADVOGADO`). Not a party:
 * names searches, radars and party summaries leave it out (isParty).
 */
export const LAWYER_POLE = 'ADVOGADO';

/** A party of the case, not a lawyer listed without a side (LAWYER_POLE). */
export function isParty(p: Pick<PartyRecord, 'polo'>): boolean {
  return p.polo !== LAWYER_POLE;
}

export interface PartyRecord {
  /** 'ATIVO' | 'PASSIVO' | 'OUTROS', or LAWYER_POLE: a lawyer whose side is unknown. */
  polo: string;
  /** e.g. AUTOR, RÉU, EXEQUENTE, EXECUTADO, APELANTE */
  tipo: string;
  nome: string;
  /** 'FISICA' | 'JURIDICA' */
  tipoPessoa: string;
  /** bare digits (CPF 11, CNPJ 14; alphanumeric CNPJ upper-case), or null when the source hides it */
  documento: string | null;
  advogados: LawyerRecord[];
  /**
   * The instance whose page listed this party (DataJud's grau code: `G1`, `G2`, `TR`), where the case's
   * parties come from more than one degree's page (issue 52 item 3: the appeal's parties beside the
   * first degree's); absent or null where one source gave them for the whole case.
   */
  grau?: string | null;
}

export interface PublicDocumentRecord {
  /** The provider's id, stable for the case. */
  id: string;
  titulo: string;
  tipo: string;
  dataJuntada: string;
  mimeType: string;
  /** 0 where the source does not say (a court's HTML document before its first download). */
  tamanhoBytes: number;
  /** Who lists it (issue 53): `consulta-tjma` for a court's page; absent: the provider that answered. */
  fonte?: string;
  /**
   * Where its content is: `provedor` (the provider's download), `visualizador` (the court's public
   * viewer, HTML), `arquivo` (a file the court stores, served as it is). Absent: `provedor`.
   */
  origem?: DocumentOrigin;
  /** Why the court does not open it to the public (a login, secrecy): listed, never read. Absent or null: public. */
  restricao?: string | null;
}

export type DocumentOrigin = 'provedor' | 'visualizador' | 'arquivo';

/** What a court's document viewer shows of a document (PJe's, sources/consultas/pje/viewer.ts). */
export interface CourtDocumentText {
  /** The body's HTML as the court wrote it, without the page's chrome, scripts, styles, comments or forms. */
  html: string;
  /** The body as text: one paragraph a line, blanks collapsed. */
  texto: string;
  /** The document's own title where it prints one (`DESPACHO`), else null. */
  titulo: string | null;
  /** "Assinado eletronicamente por: NAME" (null when the block names nobody). */
  assinante: string | null;
  /** The signature instant, ISO with offset (Brasília); null when it does not read. */
  assinadoEm: string | null;
  /** "ID do documento" as the page prints it; null when blank. */
  idDocumento: string | null;
  /** The 29-digit validation code under the barcode. */
  codigoValidacao: string | null;
}

/**
 * A court page's public document as Tramita serves it (issue 53): the viewer's document as the court
 * wrote it, or a file the court stores, byte for byte.
 */
export type CourtDocument =
  | (CourtDocumentText & {
      formato: 'html';
      /** The court's own PDF ("Gerar PDF") when it answered one (`%PDF-`), else null. */
      pdf: Uint8Array | null;
    })
  | { formato: 'arquivo'; mimeType: string; nome: string | null; body: Uint8Array };

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
  /**
   * Where the page lists only part of a list (PJe: parties 10 rows at a time, movements 15 at a time):
   * how many rows the court says it lists (null when it prints no count) and how many were read.
   */
  listas?: { partes: PageListCount; movimentos: PageListCount; documentos?: PageListCount & { parcial?: boolean } };
  /**
   * The second degree's pages read under the same number (issue 52 item 3: an appeal keeps its origin
   * number), one per appeal listed (a court may list two under one number), each with the DataJud
   * instance it was read for (`G2`, `TR`). On them `orgao` is the órgão julgador, `foro` the seção and
   * `juiz` the relator. Their parties are in the record's `partes` with their `grau`.
   */
  segundoGrau?: SecondDegreeRecord[];
}

export type SecondDegreeRecord = Omit<CaseConsultaRecord, 'segundoGrau'> & { instancia: string };

/** What a details read may know beside the number. */
export interface DetailsOptions {
  /**
   * The instances DataJud lists for the number (their grau codes), or their promise while DataJud is
   * being asked: a consultation reads the second degree's page too when one is a G2 or TR (issue 52 item 3).
   */
  instancias?: readonly string[] | PromiseLike<readonly string[]>;
  /** A refresh: a court's page is read with every page of its documents grid (issue 53). */
  documents?: boolean;
}

export interface PageListCount {
  listados: number | null;
  lidos: number;
  /** Fewer rows read than the count the page prints (issue 52): the list is partial, never answered complete. */
  limitado?: boolean;
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

/** The `fonte` of the parties read from the addressees of a case's DJEN communications (AddresseesSource). */
export const DJEN_FONTE = 'DJEN';

/**
 * A case's parties and lawyers from the addressees of its DJEN communications (issue 32), where no
 * case-details source knows the case or its court's consultation failed: `fonte` DJEN_FONTE, no
 * document, no value; null when DJEN has no communication of the case. With `now` (a caller is
 * waiting) it is asked only when DJEN's budget lets a request out at once, and fails `rate_limited`
 * otherwise: its per-minute budget is not a line for a cover to stand in.
 */
export interface AddresseesSource {
  fetchAddressees(numeroCnj: string, opts?: { signal?: AbortSignal; now?: boolean }): Promise<CaseDetailsRecord | null>;
}

export interface CaseDetailsSource {
  readonly info: SourceInfo;
  /** null when the provider does not know the case. */
  fetchDetails(numeroCnj: string, signal?: AbortSignal, opts?: DetailsOptions): Promise<CaseDetailsRecord | null>;
  /**
   * True when this source reads the case from its court's own page (an enabled consultation), so it can
   * answer a number DataJud does not know yet; absent on providers that only enrich known cases.
   */
  covers?(numeroCnj: string): boolean;
  /** Siglas of the courts whose own pages this source reads (the enabled consultations); absent or empty when none. */
  pageCourts?(): readonly string[];
  /**
   * True when a failure named `source` (SourceError.source) is one of this source's court
   * consultations (a captcha, a block, a court's outage), which DJEN's addressees stand in for;
   * absent on sources that read no court's page.
   */
  isConsultation?(source: string): boolean;
  /** Numbers of the cases where a party with this CPF/CNPJ appears (bare digits), newest first. */
  findByDocument(documento: string, signal?: AbortSignal): Promise<string[]>;
  /** Numbers of the cases where a party's name matches (accent/case-insensitive, all words). */
  findByName(nome: string, signal?: AbortSignal): Promise<string[]>;
  /**
   * A public document of a court's page (issue 53): the page is read again (its links are tied to the
   * session that rendered it), then the document; null when the page no longer lists it. A document
   * the court opens only behind a login throws SourceError `login`. Absent on sources that read no court.
   */
  readDocument?(numeroCnj: string, documentId: string, signal?: AbortSignal): Promise<CourtDocument | null>;
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
  /** The court said it shows only its first N hits (PJe: "somente os 30 primeiros serão exibidos"): `encontrados` is that cap, not a total. */
  limitado?: boolean;
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
