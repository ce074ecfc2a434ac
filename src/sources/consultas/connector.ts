/**
 * The courts' public consultations behind the case-details port (issue 31): the court in the CNJ
 * number picks the enabled court's client (courts.ts, systems.ts), whose page becomes the port's
 * record: parties with their lawyers, the value (null where the system never publishes it), and the
 * cover, movements with text, incidents and linked case as the page shows them (`consulta`).
 * Searches by document, name or OAB go through `searchCourts` (issue 32). Each hit's page is then read
 * with one request (issue 43 item 7): the connector remembers, for a short while, the link each hit's
 * row gave and the session the search opened, and the lookup that follows reads that link.
 */
import { cnjCourtSigla } from '../../platform/identifiers/cnj.ts';
import { personKindOfName } from '../../platform/identifiers/person-kind.ts';
import type { SourceInfo } from '../../platform/ports/case-metadata.ts';
import { isClosedConnector, SourceError } from '../../platform/ports/source-error.ts';
import { consultaAnomalies, consultaFailed, consultaRead } from '../../platform/observability/consultas.ts';
import { callerWaiting, deadlineSignal } from '../../platform/request-path.ts';
import { anomaliesOf, atStep, stepOf } from './anomalies.ts';
import { upstreamError } from '../http/classify.ts';
import type {
  CaseDetailsRecord,
  CaseDetailsSource,
  CourtDocument,
  CourtSearchQuery,
  CourtSearchReport,
  DetailsOptions,
  PartyRecord,
  PublicDocumentRecord,
} from '../../platform/ports/case-details.ts';
import type { ConsultaClient, ConsultaClientFactory, ListedPage } from './client.ts';
import { systemClock, type Clock } from '../../platform/clock.ts';
import { CONSULTA_COURTS, type ConsultaCourt } from './courts.ts';
import type { ConsultaHttp } from './http.ts';
import type { ConsultaCase, ConsultaDocument, ConsultaParty, ConsultaSystem } from './record.ts';
import { CLIENT_FACTORIES, CONSULTA_SEARCHES, consultaLabel } from './systems.ts';

/** The kind of error a page made a parser throw, for the failure's message (never its text: it may quote the page). */
const errorName = (err: unknown) => (err instanceof Error ? err.name : typeof err);

/** Hits per court looked up in detail at most per search: each costs the court one request of its budget (its listed page). */
export const SEARCH_HITS_PER_COURT = 10;

/**
 * How long a search's hit links are kept for the lookups that follow it: long enough for the search's
 * own lookups (queued behind the court's budget), short enough that the court's session still holds.
 */
const LISTED_PAGE_MS = 5 * 60_000;

export interface EnabledCourt {
  court: ConsultaCourt;
  urls: { 1: string; 2: string | null };
}

export interface ConsultasConnectorOptions {
  courts: EnabledCourt[];
  http: ConsultaHttp;
  sandbox: boolean;
  /** A system's client other than CLIENT_FACTORIES' (tests: a client failing in ways no page of today does). */
  factories?: Partial<Record<ConsultaSystem, ConsultaClientFactory>>;
  /** Times the hit links' while (LISTED_PAGE_MS): real time by default, as the court's session expires on the court's clock. */
  clock?: Clock;
}

/** `consulta-tjsp`: a court's consultation as a source (errors, metrics, `/v1/integrador`). */
export function consultaSource(sigla: string): string {
  return `consulta-${sigla.toLowerCase()}`;
}

export class ConsultasConnector implements CaseDetailsSource {
  readonly info: SourceInfo;
  readonly #clients = new Map<string, ConsultaClient>();
  readonly #http: ConsultaHttp;
  readonly #clock: Clock;
  /** Number → its page as the last search listing it linked it, until `until` (ms): read once, then forgotten. */
  readonly #listed = new Map<string, { page: ListedPage; until: number }>();
  readonly courts: readonly EnabledCourt[];

  constructor(o: ConsultasConnectorOptions) {
    this.info = { name: 'consultas', sandbox: o.sandbox };
    this.#http = o.http;
    this.#clock = o.clock ?? systemClock;
    this.courts = o.courts;
    for (const { court, urls } of o.courts) {
      const label = consultaLabel(court);
      this.#clients.set(
        court.sigla,
        (o.factories?.[court.sistema] ?? CLIENT_FACTORIES[court.sistema])({ court, urls, http: o.http, source: consultaSource(court.sigla), label }),
      );
    }
  }

  covers(numeroCnj: string): boolean {
    return this.#clients.has(siglaOf(numeroCnj) ?? '');
  }

  pageCourts(): readonly string[] {
    return [...this.#clients.keys()];
  }

  /** Every consultation's failures name it `consulta-<court>` (consultaSource), its second degree's too. */
  isConsultation(source: string): boolean {
    return source.startsWith('consulta-');
  }

  async fetchDetails(numeroCnj: string, signal?: AbortSignal, opts?: DetailsOptions): Promise<CaseDetailsRecord | null> {
    const sigla = siglaOf(numeroCnj) ?? '';
    const client = this.#clients.get(sigla);
    if (!client) return null;
    const court = this.#courtOf(sigla);
    let page: ConsultaCase | null;
    let appeals: { instancia: string; pages: ConsultaCase[] } | null = null;
    try {
      page = await client.fetchCase(numeroCnj, signal, this.#takeListed(numeroCnj), opts);
      // DataJud lists an appeal under this number (issue 52 item 3): its 2nd degree's page too, on the same host's budget.
      const instancia = page && !page.segredo && page.grau === 1 && client.fetchAppeals ? appealInstance(await opts?.instancias) : null;
      if (instancia) appeals = { instancia, pages: await client.fetchAppeals!(numeroCnj, signal) };
    } catch (err) {
      throw this.#failed(court, err, signal);
    }
    consultaRead(court.sigla, court.sistema);
    consultaAnomalies(court.sigla, court.sistema, 'detalhe', [...(page?.anomalias ?? []), ...(appeals?.pages.flatMap((a) => a.anomalias ?? []) ?? [])]);
    if (!page) return null;
    const record = detailsOfPage(page);
    return appeals && appeals.pages.length > 0 ? withAppeals(record, page, appeals.instancia, appeals.pages) : record;
  }

  /** The page a recent search listed for this number, if still within LISTED_PAGE_MS; forgotten once taken. */
  #takeListed(numeroCnj: string): ListedPage | undefined {
    const kept = this.#listed.get(numeroCnj);
    this.#listed.delete(numeroCnj);
    return kept && kept.until > this.#clock.now().getTime() ? kept.page : undefined;
  }

  /** Keeps a search's hit links; those past their while are dropped at each search, so the map holds recent searches' hits only. */
  #keepListed(paginas: ReadonlyMap<string, ListedPage> | undefined): void {
    const now = this.#clock.now().getTime();
    for (const [n, kept] of this.#listed) if (kept.until <= now) this.#listed.delete(n);
    for (const [n, page] of paginas ?? []) this.#listed.set(n, { page, until: now + LISTED_PAGE_MS });
  }

  #courtOf(sigla: string): ConsultaCourt {
    return this.courts.find((c) => c.court.sigla === sigla)!.court;
  }

  /**
   * A consultation's failure, observed once (warn line, metric, the court's state in `/v1/integrador`):
   * a SourceError as it is; anything else a page made a parser throw (a bug meeting a new layout) is
   * that court's `malformed`, never a 500 nor a 4xx for the caller, so DJEN's addressees are still tried.
   * The caller giving up (an aborted signal) says nothing of the court.
   */
  #failed(court: ConsultaCourt, err: unknown, signal?: AbortSignal): unknown {
    if (signal?.aborted || isClosedConnector(err)) return err;
    const failure =
      err instanceof SourceError
        ? err
        : atStep(
            upstreamError(consultaSource(court.sigla))('malformed', `${consultaLabel(court)}: the page could not be read (${errorName(err)})`, {
              retryable: false,
            }),
            stepOf(err),
          );
    consultaFailed(court.sigla, court.sistema, { etapa: stepOf(failure), falha: failure.failure, motivo: failure.message });
    // A message the parser did not know is also a layout change: counted with the page anomalies (origens, `verificar`).
    consultaAnomalies(court.sigla, court.sistema, stepOf(failure), anomaliesOf(err));
    return failure;
  }

  async findByDocument(): Promise<string[]> {
    return [];
  }

  async findByName(): Promise<string[]> {
    return [];
  }

  async searchCourts(query: CourtSearchQuery, signal?: AbortSignal): Promise<CourtSearchReport> {
    const asked = this.courts.filter(({ court }) => CONSULTA_SEARCHES[court.sistema].includes(query.kind));
    const report: CourtSearchReport = {
      consultadas: asked.map(({ court }) => court.sigla),
      responderam: [],
      falharam: [],
      limitePorTribunal: SEARCH_HITS_PER_COURT,
    };
    // While a caller waits, a court still out at the deadline is that court's timeout; the others are answered (issue 51).
    const wait = callerWaiting();
    const deadline = wait ? deadlineSignal(wait.auxiliaryDeadlineMs, signal) : null;
    const answers = await Promise.allSettled(
      asked.map(async ({ court }) => {
        try {
          return await this.#clients.get(court.sigla)!.search!(query, SEARCH_HITS_PER_COURT, deadline?.signal ?? signal);
        } catch (err) {
          if (!deadline?.expired() || signal?.aborted) throw this.#failed(court, err, signal);
          const late = `${consultaLabel(court)}: no answer to the search within the ${wait!.auxiliaryDeadlineMs} ms a caller waits`;
          throw this.#failed(court, atStep(upstreamError(consultaSource(court.sigla))('timeout', late), 'busca'), signal);
        }
      }),
    ).finally(() => deadline?.cancel());
    answers.forEach((a, i) => {
      const { court } = asked[i]!;
      const tribunal = court.sigla;
      if (a.status === 'fulfilled') {
        consultaRead(tribunal, court.sistema);
        consultaAnomalies(tribunal, court.sistema, 'busca', a.value.anomalias ?? []);
        this.#keepListed(a.value.paginas);
        report.responderam.push({
          tribunal,
          numeros: a.value.numeros,
          encontrados: a.value.total ?? a.value.numeros.length,
          ...(a.value.limitado ? { limitado: true } : {}),
        });
      } else if (a.reason instanceof SourceError) report.falharam.push({ tribunal, falha: a.reason.failure, mensagem: a.reason.message });
      else throw a.reason;
    });
    return report;
  }

  /**
   * A public document of an enabled court's page (issue 53); null when the court's system lists none
   * or the page no longer lists it. A failure is observed as the court's, like a page's.
   */
  async readDocument(numeroCnj: string, documentId: string, signal?: AbortSignal): Promise<CourtDocument | null> {
    const sigla = siglaOf(numeroCnj) ?? '';
    const client = this.#clients.get(sigla);
    if (!client?.readDocument) return null;
    const court = this.#courtOf(sigla);
    try {
      const doc = await client.readDocument(numeroCnj, documentId, signal);
      consultaRead(court.sigla, court.sistema);
      return doc;
    } catch (err) {
      throw this.#failed(court, err, signal);
    }
  }

  async downloadDocument(): Promise<null> {
    return null;
  }

  async close(): Promise<void> {
    await this.#http.close();
  }
}

function siglaOf(numeroCnj: string): string | undefined {
  return /^\d{20}$/.test(numeroCnj) ? cnjCourtSigla(numeroCnj.slice(13, 14), numeroCnj.slice(14, 16)) : undefined;
}

function partyRecord(p: ConsultaParty): PartyRecord {
  // A masked document (`***.000.014-**`, TRF3's `639.XXX.XXX-XX`) is kept out: the port's documents are whole digits.
  const documento = p.documento && /^\d{11}$|^\d{14}$/.test(p.documento) ? p.documento : null;
  const tipoPessoa = p.tipoPessoa ?? (documento ? (documento.length === 11 ? 'FISICA' : 'JURIDICA') : personKindOfName(p.nome));
  // A role the page did not print (anomalies.ts) is empty in the port, whose stored parties always carry one.
  return { polo: p.polo, tipo: p.tipo ?? '', nome: p.nome, tipoPessoa, documento, advogados: p.advogados.map((a) => ({ nome: a.nome, oab: a.oab })) };
}

/** The instance an appeal's page is read for: DataJud's G2, else its turma recursal; null when it lists neither. */
function appealInstance(instancias: readonly string[] | undefined): string | null {
  return instancias?.includes('G2') ? 'G2' : instancias?.includes('TR') ? 'TR' : null;
}

/**
 * The first degree's record with the appeals read under its number merged by instance (issue 52 item 3):
 * every party labelled with the degree whose page listed it (an appeal's parties once, however many
 * appeals list them), each appeal's cover and movements as a `segundoGrau` page.
 */
function withAppeals(record: CaseDetailsRecord, first: ConsultaCase, instancia: string, appeals: ConsultaCase[]): CaseDetailsRecord {
  const partes = record.partes.map((p) => ({ ...p, grau: `G${first.grau}` }));
  const seen = new Set<string>();
  for (const a of appeals) {
    for (const p of a.partes.map(partyRecord)) {
      const key = `${p.polo}|${p.tipo}|${p.nome}`;
      if (seen.has(key)) continue;
      seen.add(key);
      partes.push({ ...p, grau: instancia });
    }
  }
  const segundoGrau = appeals.map((a) => ({ ...detailsOfPage(a).consulta!, instancia }));
  return { ...record, partes, consulta: { ...record.consulta!, segundoGrau } };
}

/** A grid's document as the port lists it (issue 53): a viewer document is HTML of a size known once read. */
function documentRecord(d: ConsultaDocument, fonte: string): PublicDocumentRecord {
  const html = d.origem === 'visualizador';
  return {
    id: d.id,
    titulo: d.titulo,
    tipo: d.tipo,
    dataJuntada: d.juntadoEm ?? '',
    mimeType: html ? 'text/html' : d.pdf ? 'application/pdf' : 'application/octet-stream',
    tamanhoBytes: d.tamanhoBytes ?? 0,
    fonte,
    origem: d.origem ?? 'visualizador',
    restricao: d.origem === null ? 'O tribunal só abre este documento com login; o Tramita não o lê.' : null,
  };
}

/** The port's record of a page: what it showed, nothing more. */
export function detailsOfPage(c: ConsultaCase): CaseDetailsRecord {
  const { numeroCnj, tribunal, valorCausaCentavos, partes, anomalias: _anomalias, documentos, ...page } = c;
  const fonte = consultaSource(tribunal);
  return {
    numeroCnj,
    valorCausaCentavos,
    partes: partes.map(partyRecord),
    documentos: (documentos ?? []).map((d) => documentRecord(d, fonte)),
    fonte: consultaLabel({ sigla: tribunal, sistema: c.sistema }),
    consulta: { ...page, fonte: consultaSource(tribunal) },
  };
}

/** Courts enabled by TRAMITA_CONSULTAS, with their URLs after the TRAMITA_CONSULTA_<SIGLA>_URL overrides. */
export function enabledCourts(enabled: 'all' | 'none' | readonly string[], overrides: Readonly<Record<string, string>>): EnabledCourt[] {
  const chosen = enabled === 'all' ? CONSULTA_COURTS : enabled === 'none' ? [] : CONSULTA_COURTS.filter((c) => enabled.includes(c.sigla));
  return chosen.map((court) => {
    const first = (overrides[court.sigla] ?? court.urls[1]).replace(/\/+$/, '');
    // A second degree on the first's host (e-SAJ's cposg) moves with it; one on a host of its own (TJMA's pje2g) stays.
    return { court, urls: { 1: first, 2: court.urls[2] === court.urls[1] ? first : court.urls[2] } };
  });
}
