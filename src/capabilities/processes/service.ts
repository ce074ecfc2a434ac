/**
 * Case lookups with the freshness policy (docs/architecture.md, "Case store"):
 * - a stored case younger than TRAMITA_CASE_FRESH_MINUTES is answered from the store;
 * - otherwise DataJud is asked; what it returns is saved (with its domain events) and answered;
 * - when DataJud fails and a stored copy exists, the copy is answered marked `stale`; without one, the
 *   failure is the answer (SOURCE_UNAVAILABLE / SOURCE_TIMEOUT, uncharged), never "not found".
 * Parties, lawyers, the case value and the movements' texts come from the case-details sources (the
 * operator's provider, the court's consultation) or, where none answers, from the addressees of the
 * case's DJEN communications (issue 32). A lookup that waits for them (`details: 'wait'`, the cover's
 * default) asks them at the same time as DataJud and answers when both are in (issue 43; DESIGN.md §5,
 * "ask at once"), waiting for them at most TRAMITA_AUXILIARY_DEADLINE_MS past DataJud's answer, one
 * attempt each, a failing one not asked (issue 51; platform/request-path.ts). Their failure or
 * lateness never fails the lookup: DataJud's fields are answered with what is pending said, and the
 * enrichment job goes on. Other lookups (and `Prefer: return=minimal`) leave them to that job.
 */
import type { Kysely, Transaction } from 'kysely';
import { addMs, iso, type Clock } from '../../platform/clock.ts';
import type { DB } from '../../platform/db/schema.ts';
import { isUniqueViolation } from '../../platform/db/outage.ts';
import { ApiError } from '../../platform/errors.ts';
import { isValidCnj, parseCnj, type Cnj } from '../../platform/identifiers/cnj.ts';
import { courtByJTr, type Court } from '../../platform/courts/table.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import { eventOrigin, type CaseRecord } from '../../platform/ports/case-metadata.ts';
import { SourceError } from '../../platform/ports/source-error.ts';
import { DJEN_FONTE, type CaseDetailsRecord, type DetailsOptions } from '../../platform/ports/case-details.ts';
import type { Sources } from '../../platform/ports/sources.ts';
import type { DetailsFailure, DetailsMode, Lookup } from './lookup.ts';
import type { CaseStore, SaveResult, StoredCase } from './store.ts';
import { caseOfConsultation } from './consultation-case.ts';
import { grausOf } from './main-instance.ts';
import type { Logger } from 'pino';
import { mensagem } from '../../platform/errors-pt.ts';
import type { EventLog } from '../../platform/events/log.ts';
import { caseTopic, followers } from '../../platform/events/subscriptions.ts';
import { toApiError } from '../../platform/http/error-handler.ts';
import { telemetry } from '../../platform/observability/telemetry.ts';
import { ENRICH, enrichRetryDelayMs } from './refresh-jobs.ts';
import { asAuxiliary, callerWaiting, deadlineSignal } from '../../platform/request-path.ts';
import { DEADLINE, pastDeadline, withinDeadline } from './caller-deadline.ts';
import { announceDocuments } from './document-news.ts';
import { documentIds } from './documents-store.ts';
import { settle, unwrap, type Settled } from '../../platform/async/settled.ts';

export interface CaseServiceDeps {
  db: Kysely<DB>;
  store: CaseStore;
  sources: Sources;
  jobs: JobQueue;
  clock: Clock;
  events: EventLog;
  log: Logger;
  freshMinutes: number;
}

/** A case's details still out at the caller's deadline. */
const LATE: unique symbol = Symbol('late');
/** The addressees' source: named when the chain answered and DJEN was what was still out. */
const DJEN_SOURCE = 'djen';

export class CaseService {
  readonly #d: CaseServiceDeps;
  #cutoff = { ms: Number.NaN, iso: '' };
  constructor(deps: CaseServiceDeps) {
    this.#d = deps;
  }

  /** The case, from the store when fresh, else from DataJud and, with `details: 'wait'`, the case-details sources at once (see the policy above). */
  async lookup(cnj: Cnj & { court: Court }, opts: { details?: DetailsMode; signal?: AbortSignal } = {}): Promise<Lookup> {
    const { signal } = opts;
    const stored = await this.#d.store.get(cnj.digits);
    if (stored && this.#isFresh(stored)) return { stored, servedFrom: 'store', stale: false };
    const consulted = this.#d.sources.details?.covers?.(cnj.digits) ?? false;
    if (!cnj.court.datajudAlias && !stored && !consulted) {
      throw new ApiError('COURT_NOT_COVERED', `${cnj.court.sigla} has no DataJud index, so its cases cannot be looked up.`, { tribunal: cnj.court.sigla });
    }
    const datajud = cnj.court.datajudAlias ? settle(this.#d.sources.cases.fetchCase(cnj.digits, signal)) : null;
    // DataJud's instances once it answers (else the stored ones): a court's consultation reads the appeal's page too when one is a G2 (issue 52 item 3).
    const known = stored ? grausOf(stored) : [];
    const instancias = datajud?.then((r) => (r.ok && r.value ? grausOf(r.value) : known)) ?? known;
    // Asked now, beside DataJud, when the answer waits for them and the case lacks them: the chain's own
    // answer (a case only its court's page knows is answered from it) and the parties, DJEN's where it has none.
    // Cut at the caller's deadline past DataJud's answer (issue 51): the cut requests count as their sources' timeouts.
    const auxiliary = new AbortController();
    const auxSignal = signal ? AbortSignal.any([signal, auxiliary.signal]) : auxiliary.signal;
    const chain =
      opts.details === 'wait' && stored?.row.detalhes_em == null ? settle(asAuxiliary(() => this.#askChain(cnj.digits, auxSignal, { instancias }))) : null;
    let chainSettled = false;
    void chain?.then(() => {
      chainSettled = true;
    });
    const parties = chain ? settle(asAuxiliary(() => this.#partiesAfter(chain, cnj.digits, { signal: auxSignal, queue: false }))) : null;
    let record: CaseRecord | null = null;
    if (datajud) {
      try {
        record = unwrap(await datajud);
      } catch (err) {
        if (stored && err instanceof SourceError) return { stored, servedFrom: 'store', stale: true };
        throw err;
      }
    }
    if (!record) {
      // Gone from the upstream (re-indexed, turned secret): what we stored is still the best answer.
      if (stored) return { stored, servedFrom: 'store', stale: true };
      // DataJud lags the courts by days to weeks: an enabled court's own page answers alone (issue 31).
      if (consulted) return this.#fromConsultation(cnj, unwrap(await (chain ?? settle(this.#askChain(cnj.digits, signal, { instancias })))));
      throw new ApiError('CASE_NOT_FOUND', `No case ${cnj.masked} at ${this.#d.sources.cases.info.name}.`, { numeroCnj: cnj.masked });
    }
    if (!parties) {
      if (opts.details === 'background' && stored?.row.detalhes_em == null) telemetry.coverDetails.labels('deferred').inc();
      await this.save([record]);
      return { stored: (await this.#d.store.get(cnj.digits))!, servedFrom: 'upstream', stale: false };
    }
    const details = await withinDeadline(parties, auxiliary);
    if (details === DEADLINE) {
      const detailsFailure = pastDeadline(this.#d.log, cnj.digits, chainSettled ? DJEN_SOURCE : null);
      await this.save([record]);
      return { stored: (await this.#d.store.get(cnj.digits))!, servedFrom: 'upstream', stale: false, detailsFailure };
    }
    if (!details.ok) {
      // Auxiliary work (DESIGN.md §5): DataJud's cover is the answer; the enrichment job (save) asks again.
      const detailsFailure = this.#detailsFailure(details.error, cnj.digits);
      await this.save([record]);
      return { stored: (await this.#d.store.get(cnj.digits))!, servedFrom: 'upstream', stale: false, detailsFailure };
    }
    telemetry.coverDetails.labels('with_cover').inc();
    // A case stored before without parties (by a monitor's check, a search) had its first answer already.
    await this.#saveOne(record, async (trx) => {
      await this.#storeDetails(trx, cnj.digits, details.value, { announce: stored !== undefined });
    });
    return { stored: (await this.#d.store.get(cnj.digits))!, servedFrom: 'upstream', stale: false };
  }

  /** What the lookup says of a details failure, with its warn line and metric (a bug is an error line, still never the caller's 5xx). */
  #detailsFailure(err: unknown, numeroCnj: string): DetailsFailure {
    telemetry.coverDetails.labels('failed').inc();
    const source = err instanceof SourceError ? { source: err.source, failure: err.failure } : null;
    if (source) this.#d.log.warn({ numeroCnj, ...source }, 'case details failed beside the cover: answered without parties, enrichment scheduled');
    else this.#d.log.error({ err, numeroCnj }, 'case details failed beside the cover: answered without parties, enrichment scheduled');
    const error = source ? toApiError(err) : new ApiError('INTERNAL_ERROR');
    return {
      code: error.code,
      message: `As partes, os advogados e o valor ainda não vieram: ${mensagem(error.code, source ?? undefined)} Eles são pedidos de novo em segundo plano.`,
      source: source?.source ?? null,
      failure: source?.failure ?? null,
    };
  }

  /**
   * A case DataJud does not know, from its court's consultation page alone: the cover the page shows
   * (names, no TPU codes), its parties and movements. Not found only when the page says so.
   */
  async #fromConsultation(cnj: Cnj & { court: Court }, details: CaseDetailsRecord | null): Promise<Lookup> {
    if (!details?.consulta)
      throw new ApiError('CASE_NOT_FOUND', `No case ${cnj.masked} at ${this.#d.sources.cases.info.name} nor on ${cnj.court.sigla}'s public consultation.`, {
        numeroCnj: cnj.masked,
      });
    const record = caseOfConsultation(cnj.court.sigla, details);
    const source = { name: details.consulta.fonte, sandbox: this.#d.sources.details!.info.sandbox };
    await this.#d.db.transaction().execute(async (trx) => {
      await this.#d.store.saveCase(record, source, trx);
      await this.#d.store.saveDetails(details, trx, { documents: false });
    });
    return { stored: (await this.#d.store.get(cnj.digits))!, servedFrom: 'upstream', stale: false };
  }

  /** Saves upstream records, each in its own transaction with its events and, when needed, its enrichment job. */
  async save(records: Iterable<CaseRecord>): Promise<void> {
    for (const record of records) {
      await this.#saveOne(record, async (trx, saved) => {
        // DJEN is always there to ask, so every new case is enriched (fetchParties).
        if (saved.needsDetails) await this.#d.jobs.add(ENRICH, { numeroCnj: record.numeroCnj }, trx);
      });
    }
  }

  /** One upstream record in its own transaction, then `more` in it. */
  async #saveOne(record: CaseRecord, more: (trx: Transaction<DB>, saved: SaveResult) => Promise<void>): Promise<void> {
    const once = () =>
      this.#d.db.transaction().execute(async (trx) => {
        await more(trx, await this.#d.store.saveCase(record, this.#d.sources.cases.info, trx));
      });
    // Two first lookups of one case at once (several callers, or processes on PostgreSQL) both insert
    // it; the loser rolled back whole and, run again, updates the winner's row instead.
    await once().catch((err: unknown) => {
      if (isUniqueViolation(err)) return once();
      throw err;
    });
  }

  /**
   * Stored cases for many numbers, asking DataJud (batched) for those missing or stale. Numbers the
   * upstream does not know are left out. An upstream failure fails the call unless every number is stored.
   */
  async lookupMany(numeros: readonly string[], signal?: AbortSignal): Promise<StoredCase[]> {
    const stored = new Map((await this.#d.store.many(numeros)).map((c) => [c.row.numero_cnj, c]));
    // A provider may list numbers DataJud cannot answer for (STF, malformed): they are simply not found.
    const missing = numeros.filter((n) => (!stored.has(n) || !this.#isFresh(stored.get(n)!)) && hasDataJudIndex(n));
    if (missing.length > 0) {
      try {
        await this.save((await this.#d.sources.cases.fetchCases(missing, signal)).values());
      } catch (err) {
        if (!(err instanceof SourceError) || missing.some((n) => !stored.has(n))) throw err;
      }
    }
    return this.#d.store.many(numeros);
  }

  /** Numbers of the cases of a CPF/CNPJ: the provider's, then those only the store knows. */
  async numbersByDocument(documento: string, signal?: AbortSignal): Promise<string[]> {
    const fromProvider = this.#d.sources.details ? await this.#d.sources.details.findByDocument(documento, signal) : [];
    return [...new Set([...fromProvider, ...(await this.#d.store.numbersByDocument(documento))])];
  }

  /** Fetches parties and values now for the cases that lack them (at most 8 at a time); returns the cases re-read. */
  async withDetails(cases: StoredCase[], signal?: AbortSignal): Promise<StoredCase[]> {
    const lacking = cases.filter((c) => c.row.detalhes_em === null);
    if (lacking.length === 0) return cases;
    // While a caller waits, what is still out at the deadline is left to the enrichment job (issue 51).
    const wait = callerWaiting();
    const deadline = wait ? deadlineSignal(wait.auxiliaryDeadlineMs, signal) : null;
    try {
      await inBatches(lacking, 8, async (c) => {
        if (deadline?.expired()) return;
        const details = await asAuxiliary(() => this.fetchParties(c.row.numero_cnj, deadline?.signal ?? signal)).catch((err: unknown): typeof LATE => {
          if (deadline?.expired() && !signal?.aborted) return LATE;
          throw err;
        });
        if (details !== LATE) await this.applyDetails(c.row.numero_cnj, details);
      });
    } finally {
      deadline?.cancel();
    }
    return this.#d.store.many(cases.map((c) => c.row.numero_cnj));
  }

  /**
   * A case's parties, lawyers and value (issue 32): the case-details sources first (the operator's
   * provider for the courts it covers, then the court's consultation); where none knows the case or the
   * court's consultation failed, the addressees of its DJEN communications (`fonte: DJEN`, no document,
   * no value). A provider's failure stays the answer (the job retries: the operator's source recovers);
   * a consultation's is thrown only when DJEN has nothing either. Null when nobody knows the case.
   */
  async fetchParties(numeroCnj: string, signal?: AbortSignal, opts: DetailsOptions = {}): Promise<CaseDetailsRecord | null> {
    // The instances DataJud listed: the caller's (a refresh asking DataJud at once), else the stored case's.
    const instancias = opts.instancias ?? this.#d.store.get(numeroCnj).then((c) => (c ? grausOf(c) : []));
    return this.#partiesAfter(settle(this.#askChain(numeroCnj, signal, { ...opts, instancias })), numeroCnj, { signal, queue: true });
  }

  /** The case-details sources' own answer (null without any, or when none knows the case). */
  async #askChain(numeroCnj: string, signal?: AbortSignal, opts?: DetailsOptions): Promise<CaseDetailsRecord | null> {
    return (await this.#d.sources.details?.fetchDetails(numeroCnj, signal, opts)) ?? null;
  }

  /**
   * fetchParties once the chain answered (or while it is being asked): its record named, else DJEN's
   * addressees. Without `queue` (a caller is waiting), DJEN is asked only when its budget lets a
   * request out now: its 20 a minute are not a line for the cover to stand in.
   */
  async #partiesAfter(
    chain: Promise<Settled<CaseDetailsRecord | null>>,
    numeroCnj: string,
    opts: { signal?: AbortSignal; queue: boolean },
  ): Promise<CaseDetailsRecord | null> {
    const { signal } = opts;
    let failure: SourceError | null = null;
    const asked = await chain;
    if (asked.ok && asked.value) return { ...asked.value, fonte: asked.value.fonte ?? this.#d.sources.details!.info.name };
    if (!asked.ok) {
      if (!(asked.error instanceof SourceError) || !this.#d.sources.details?.isConsultation?.(asked.error.source)) throw asked.error;
      failure = asked.error;
    }
    try {
      const fromDjen = await this.#d.sources.addressees.fetchAddressees(numeroCnj, { signal, now: !opts.queue });
      if (fromDjen) return fromDjen;
    } catch (err) {
      throw failure ?? err;
    }
    if (failure) throw failure;
    return null;
  }

  /**
   * Saves what the details provider said; when it does not know the case, records that it was asked.
   * With `documents` (a refresh), the public documents list is replaced too and becomes listable.
   * Returns how many of the court page's movements were news (store.saveDetails).
   */
  async applyDetails(
    numeroCnj: string,
    details: CaseDetailsRecord | null,
    opts: { documents: boolean } = { documents: false },
    trx?: Transaction<DB>,
  ): Promise<number> {
    const apply = (t: Transaction<DB>) => this.#storeDetails(t, numeroCnj, details, { announce: true, documents: opts.documents });
    return trx ? apply(trx) : this.#d.db.transaction().execute(apply);
  }

  /**
   * Asks the case's details sources again in a job of their own: after a check that brought new
   * movements (a new lawyer or party often comes with them), or `afterFailure` of those sources beside
   * a refresh whose main work was kept, first after the job's own retry delay.
   */
  async scheduleDetails(numeroCnj: string, trx: Kysely<DB>, opts: { documents: boolean; afterFailure: boolean }): Promise<void> {
    const runAt = opts.afterFailure ? addMs(this.#d.clock.now(), enrichRetryDelayMs(1)) : undefined;
    await this.#d.jobs.add(ENRICH, { numeroCnj, ...(opts.documents ? { documents: true } : {}) }, trx, { runAt });
  }

  /**
   * The details of a stored case (null: nobody knows its parties), in the caller's transaction; returns
   * how many of the court page's movements were news. With `announce` (the case had an answer before:
   * the enrichment job, a lookup after a monitor's check stored it), its first parties are news for the
   * monitors following it: `atualizacao_processo_concluida` (issue 43).
   */
  async #storeDetails(
    trx: Transaction<DB>,
    numeroCnj: string,
    details: CaseDetailsRecord | null,
    opts: { announce: boolean; documents?: boolean },
  ): Promise<number> {
    const before = await this.#d.store.detailsState(trx, numeroCnj);
    const now = iso(this.#d.clock.now());
    const documents = opts.documents ?? false;
    // The documents listed before (issue 53): those a new list adds are news; the first list is the baseline.
    const listed = documents && details && before?.documentos_em != null ? await documentIds(trx, numeroCnj) : null;
    let news = 0;
    if (details) news = await this.#d.store.saveDetails(details, trx, { documents });
    else await this.#d.store.markDetailsAsked(trx, numeroCnj, now, { documents });
    const added = listed && details ? details.documentos.filter((d) => !listed.has(d.id)) : [];
    if (added.length > 0 && before) {
      const fonte = added[0]!.fonte ?? this.#d.sources.details?.info.name ?? 'provedor';
      await announceDocuments(this.#d.events, trx, { numeroCnj, tribunal: before.tribunal, sandbox: before.sandbox === 1, fonte }, added, now);
    }
    if (!opts.announce || !details || details.partes.length === 0 || !before || before.detalhes_em !== null) return news;
    const audience = await followers(trx, caseTopic(numeroCnj));
    if (audience.length === 0) return news;
    await this.#d.events.record(trx, {
      kind: 'atualizacao_processo_concluida',
      numeroCnj,
      tribunal: before.tribunal,
      source: eventOrigin({
        name: details.fonte ?? this.#d.sources.details?.info.name ?? DJEN_FONTE,
        sandbox: (details.fonte === DJEN_FONTE ? this.#d.sources.publications : (this.#d.sources.details ?? this.#d.sources.publications)).info.sandbox,
      }),
      audience,
      data: {
        numeroCnj,
        tribunal: before.tribunal,
        motivo: 'PARTES',
        novasMovimentacoes: 0,
        partes: details.partes.length,
        fonte: details.fonte ?? null,
        concluidaEm: now,
      },
    });
    return news;
  }

  /** The case-details provider, or 422 DETAILS_UNAVAILABLE when none is configured. */
  details() {
    const details = this.#d.sources.details;
    if (!details) throw new ApiError('DETAILS_UNAVAILABLE');
    return details;
  }

  #isFresh(c: StoredCase): boolean {
    return this.#d.freshMinutes > 0 && c.row.consultado_em > this.#freshSince();
  }

  /** The oldest `consultado_em` still fresh, formatted once per millisecond (every cover asks). */
  #freshSince(): string {
    const now = this.#d.clock.now();
    if (now.getTime() !== this.#cutoff.ms) this.#cutoff = { ms: now.getTime(), iso: iso(addMs(now, -this.#d.freshMinutes * 60_000)) };
    return this.#cutoff.iso;
  }
}

/** Whether DataJud indexes the number's court: a number it cannot answer for (STF, malformed) is not asked. */
export function hasDataJudIndex(numero: string): boolean {
  if (!isValidCnj(numero)) return false;
  const cnj = parseCnj(numero);
  return Boolean(courtByJTr(cnj.segment, cnj.tribunal)?.datajudAlias);
}

async function inBatches<T>(items: T[], size: number, fn: (item: T) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(fn));
}
