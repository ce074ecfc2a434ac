/**
 * Case lookups with the freshness policy (docs/architecture.md, "Case store"):
 * - a stored case younger than TRAMITA_CASE_FRESH_MINUTES is answered from the store;
 * - otherwise DataJud is asked; what it returns is saved (with its domain events) and answered;
 * - when DataJud fails and a stored copy exists, the copy is answered marked `stale`; without one, the
 *   failure is the answer (SOURCE_UNAVAILABLE / SOURCE_TIMEOUT, uncharged), never "not found".
 * Parties, lawyers and the case value come from the case-details sources (the operator's provider, the
 * court's consultation) or, where none answers, from the addressees of the case's DJEN communications,
 * through an enrichment job, so a cover never waits for them (spec §2.3).
 */
import { defineJob } from '../../platform/jobs/job-type.ts';
import type { Kysely, Transaction } from 'kysely';
import { addMs, iso, type Clock } from '../../platform/clock.ts';
import type { DB } from '../../platform/db/schema.ts';
import { isUniqueViolation } from '../../platform/db/outage.ts';
import { ApiError } from '../../platform/errors.ts';
import { isValidCnj, parseCnj, type Cnj } from '../../platform/identifiers/cnj.ts';
import { courtByJTr, type Court } from '../../platform/courts/table.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import type { CaseRecord } from '../../platform/ports/case-metadata.ts';
import { SourceError } from '../../platform/ports/source-error.ts';
import type { CaseDetailsRecord } from '../../platform/ports/case-details.ts';
import type { Sources } from '../../platform/ports/sources.ts';
import type { CaseStore, StoredCase } from './store.ts';
import { caseOfConsultation } from './consultation-case.ts';
import { fetchAddressees } from '../../sources/djen/addressees.ts';
import { isConsultaSource } from '../../sources/consultas/connector.ts';

export const ENRICH_JOB = 'processos.enriquecer';
/** Wait before attempt n + 1 of the enrichment job: 15 s, 30 s, 1 min, 2 min. */
const enrichRetryDelayMs = (attempt: number) => 15_000 * 2 ** (attempt - 1);
/**
 * Parties, lawyers and value of a case (refresh.ts runs it): of a newly stored case; of a monitored case
 * whose check brought new movements; and, with `documents`, the part of a refresh whose details sources
 * failed while DataJud answered (DESIGN.md §5: the auxiliary work is retried on its own). One live job
 * per case and kind.
 */
export const ENRICH = defineJob<{ numeroCnj: string; documents?: boolean }>({
  kind: ENRICH_JOB,
  maxAttempts: 5,
  dedupeKey: ({ numeroCnj, documents }) => `${ENRICH_JOB}:${numeroCnj}${documents ? ':documentos' : ''}`,
  retryDelayMs: enrichRetryDelayMs,
});

export interface Lookup {
  stored: StoredCase;
  servedFrom: 'store' | 'upstream';
  stale: boolean;
}

export interface CaseServiceDeps {
  db: Kysely<DB>;
  store: CaseStore;
  sources: Sources;
  jobs: JobQueue;
  clock: Clock;
  freshMinutes: number;
}

export class CaseService {
  readonly #d: CaseServiceDeps;
  #cutoff = { ms: Number.NaN, iso: '' };
  constructor(deps: CaseServiceDeps) {
    this.#d = deps;
  }

  /** The case, from the store when fresh, else from DataJud (see the policy above). */
  async lookup(cnj: Cnj & { court: Court }, signal?: AbortSignal): Promise<Lookup> {
    const stored = await this.#d.store.get(cnj.digits);
    if (stored && this.#isFresh(stored)) return { stored, servedFrom: 'store', stale: false };
    const consulted = this.#d.sources.details?.covers?.(cnj.digits) ?? false;
    if (!cnj.court.datajudAlias && !stored && !consulted) {
      throw new ApiError('COURT_NOT_COVERED', `${cnj.court.sigla} has no DataJud index, so its cases cannot be looked up.`, { tribunal: cnj.court.sigla });
    }
    let record: CaseRecord | null = null;
    if (cnj.court.datajudAlias) {
      try {
        record = await this.#d.sources.cases.fetchCase(cnj.digits, signal);
      } catch (err) {
        if (stored && err instanceof SourceError) return { stored, servedFrom: 'store', stale: true };
        throw err;
      }
    }
    if (!record) {
      // Gone from the upstream (re-indexed, turned secret): what we stored is still the best answer.
      if (stored) return { stored, servedFrom: 'store', stale: true };
      // DataJud lags the courts by days to weeks: an enabled court's own page answers alone (issue 31).
      if (consulted) return this.#fromConsultation(cnj, signal);
      throw new ApiError('CASE_NOT_FOUND', `No case ${cnj.masked} at ${this.#d.sources.cases.info.name}.`, { numeroCnj: cnj.masked });
    }
    await this.save([record]);
    return { stored: (await this.#d.store.get(cnj.digits))!, servedFrom: 'upstream', stale: false };
  }

  /**
   * A case DataJud does not know, from its court's consultation page alone: the cover the page shows
   * (names, no TPU codes), its parties and movements. Not found only when the page says so.
   */
  async #fromConsultation(cnj: Cnj & { court: Court }, signal?: AbortSignal): Promise<Lookup> {
    const details = await this.#d.sources.details!.fetchDetails(cnj.digits, signal);
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
      const once = () =>
        this.#d.db.transaction().execute(async (trx) => {
          const saved = await this.#d.store.saveCase(record, this.#d.sources.cases.info, trx);
          // DJEN is always there to ask, so every new case is enriched (fetchParties).
          if (saved.needsDetails) {
            await this.#d.jobs.add(ENRICH, { numeroCnj: record.numeroCnj }, trx);
          }
        });
      // Two first lookups of one case at once (several callers, or processes on PostgreSQL) both insert
      // it; the loser rolled back whole and, run again, updates the winner's row instead.
      await once().catch((err: unknown) => {
        if (isUniqueViolation(err)) return once();
        throw err;
      });
    }
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
    await inBatches(lacking, 8, async (c) => this.applyDetails(c.row.numero_cnj, await this.fetchParties(c.row.numero_cnj, signal)));
    return this.#d.store.many(cases.map((c) => c.row.numero_cnj));
  }

  /**
   * A case's parties, lawyers and value (issue 32): the case-details sources first (the operator's
   * provider for the courts it covers, then the court's consultation); where none knows the case or the
   * court's consultation failed, the addressees of its DJEN communications (`fonte: DJEN`, no document,
   * no value). A provider's failure stays the answer (the job retries: the operator's source recovers);
   * a consultation's is thrown only when DJEN has nothing either. Null when nobody knows the case.
   */
  async fetchParties(numeroCnj: string, signal?: AbortSignal): Promise<CaseDetailsRecord | null> {
    let failure: SourceError | null = null;
    const details = this.#d.sources.details;
    if (details) {
      try {
        const found = await details.fetchDetails(numeroCnj, signal);
        if (found) return { ...found, fonte: found.fonte ?? details.info.name };
      } catch (err) {
        if (!(err instanceof SourceError) || !isConsultaSource(err.source)) throw err;
        failure = err;
      }
    }
    try {
      const fromDjen = await fetchAddressees(this.#d.sources.publications, numeroCnj, signal);
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
    const apply = async (t: Transaction<DB>) => {
      if (details) return this.#d.store.saveDetails(details, t, opts);
      const now = iso(this.#d.clock.now());
      await t
        .updateTable('cases')
        .set(opts.documents ? { detalhes_em: now, documentos_em: now } : { detalhes_em: now })
        .where('numero_cnj', '=', numeroCnj)
        .execute();
      return 0;
    };
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

function hasDataJudIndex(numero: string): boolean {
  if (!isValidCnj(numero)) return false;
  const cnj = parseCnj(numero);
  return Boolean(courtByJTr(cnj.segment, cnj.tribunal)?.datajudAlias);
}

async function inBatches<T>(items: T[], size: number, fn: (item: T) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(fn));
}
