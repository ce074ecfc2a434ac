/**
 * Asynchronous refresh of a case (spec §4.3): POST creates a refresh for the account (or returns the one
 * already live, uncharged), one durable job per case does the work for every account waiting on it, and
 * each account is charged once, in the transaction that marks its refresh done. A failed refresh is
 * never charged. Public documents become listable when a refresh completes.
 */
import { jobHandler } from '../../platform/jobs/job-type.ts';
import type { Kysely } from 'kysely';
import { iso, type Clock } from '../../platform/clock.ts';
import { chargeDeferred, type DeferredCharge } from '../../platform/billing/deferred.ts';
import type { Ledger } from '../../platform/billing/ledger.ts';
import type { CaseRefreshesTable, DB } from '../../platform/db/schema.ts';
import type { EventLog } from '../../platform/events/log.ts';
import { ApiError, isApiError } from '../../platform/errors.ts';
import { toApiError } from '../../platform/http/error-handler.ts';
import { newId } from '../../platform/ids.ts';
import type { JobHandler } from '../../platform/jobs/worker.ts';
import type { Sources } from '../../platform/ports/sources.ts';
import { auxiliaryFailed } from '../../platform/observability/auxiliary.ts';
import type { Logger } from 'pino';
import { cnjCourtSigla, parseCnj } from '../../platform/identifiers/cnj.ts';
import { courtBySigla } from '../../platform/courts/table.ts';
import type { CaseDetailsRecord } from '../../platform/ports/case-details.ts';
import { caseOfConsultation } from './consultation-case.ts';
import type { CaseService } from './service.ts';
import { grausOf } from './main-instance.ts';
import type { CaseStore } from './store.ts';
import { ENRICH, REFRESH } from './refresh-jobs.ts';
import { insertRefresh, liveRefresh, liveRefreshesOf, updateLiveRefresh, updateLiveRefreshes, updateRefresh } from './refresh-store.ts';

export { ENRICH, ENRICH_JOB, enrichRetryDelayMs, REFRESH, REFRESH_JOB } from './refresh-jobs.ts';
export { latestRefresh } from './refresh-store.ts';

export const REFRESH_QUERY_TYPE = 'processo.atualizacao';
/** A refresh is charged when it completes, under its own id (billing/deferred.ts). */
const REFRESH_CHARGE: DeferredCharge<CaseRefreshesTable> = {
  queryType: REFRESH_QUERY_TYPE,
  requestPath: (r) => `/v1/processos/cnj/${r.numero_cnj}/solicitar-atualizacao`,
};

export interface RefreshDeps {
  db: Kysely<DB>;
  clock: Clock;
  ledger: Ledger;
  events: EventLog;
  store: CaseStore;
  service: CaseService;
  sources: Sources;
  enqueue: (numeroCnj: string, trx: Kysely<DB>) => Promise<unknown>;
}

/** The live refresh of this account and case, or a new one with its job. `created` says which. */
export async function requestRefresh(
  d: RefreshDeps,
  r: { accountId: string; numeroCnj: string; requestId: string; priceCentavos: number },
): Promise<{ refresh: CaseRefreshesTable; created: boolean }> {
  return d.db.transaction().execute(async (trx) => {
    const live = await liveRefresh(trx, r.accountId, r.numeroCnj);
    if (live) return { refresh: live, created: false };
    const refresh: CaseRefreshesTable = {
      id: newId('atu'),
      account_id: r.accountId,
      numero_cnj: r.numeroCnj,
      status: 'PENDENTE',
      request_id: r.requestId,
      preco_centavos: r.priceCentavos,
      novas_movimentacoes: null,
      erro_codigo: null,
      erro_mensagem: null,
      solicitado_em: iso(d.clock.now()),
      iniciado_em: null,
      concluido_em: null,
    };
    await insertRefresh(trx, refresh);
    // Deduplicated per case: accounts asking for the same case share one upstream round trip.
    await d.enqueue(r.numeroCnj, trx);
    return { refresh, created: true };
  });
}

export function refreshJob(d: RefreshDeps): JobHandler {
  return jobHandler(REFRESH, {
    async run({ numeroCnj }, { job, log }) {
      await updateLiveRefreshes(d.db, numeroCnj, { status: 'PROCESSANDO', iniciado_em: iso(d.clock.now()) });
      let newMovements: number;
      try {
        newMovements = await fetchAndSave(d, numeroCnj, log);
      } catch (err) {
        const error = toApiError(err);
        // A missing case will not appear by retrying; a failing source may recover.
        const final = error.code === 'CASE_NOT_FOUND' || error.code === 'COURT_NOT_COVERED' || job.attempts >= job.max_attempts;
        if (!final) throw err;
        if (error.code === 'INTERNAL_ERROR') log.error({ err, numeroCnj }, 'refresh failed');
        await updateLiveRefreshes(d.db, numeroCnj, { status: 'ERRO', erro_codigo: error.code, erro_mensagem: error.message, concluido_em: iso(d.clock.now()) });
        return;
      }
      await settleAll(d, numeroCnj, newMovements);
    },
  });
}

/**
 * Asks DataJud (the main work) and the case-details sources (the court's page where its consultation is
 * enabled, the provider, DJEN: parties, lawyers, value, documents, the page's movements with their
 * texts) at once, and saves what came; returns the number of new movements from either source, each
 * announced as `nova_movimentacao` (issue 43 item 4). Only the main work's failure fails the refresh
 * (the job retries it whole). When the details sources fail, DataJud's movements are stored and
 * announced all the same, the refresh completes, and the details are asked again by a job of their own
 * (DESIGN.md §5, issue 43 item 5: DJEN answers 403 outside Brazil and is sometimes down). A case DataJud
 * does not know is refreshed from its court's page alone, which is then the main work.
 */
async function fetchAndSave(d: RefreshDeps, numeroCnj: string, log: Logger): Promise<number> {
  const indexed = Boolean(courtBySigla(courtSiglaOf(numeroCnj) ?? '')?.datajudAlias);
  const asked = indexed ? d.sources.cases.fetchCase(numeroCnj) : Promise.resolve(null);
  // The court's page waits for DataJud's instances only to know whether to read the appeal's page too (issue 52 item 3).
  const instancias = asked.then(
    (r) => (r ? grausOf(r) : []),
    () => [],
  );
  // A refresh reads every page of a PJe page's documents grid (issue 53).
  const [main, details] = await Promise.allSettled([asked, d.service.fetchParties(numeroCnj, undefined, { instancias, documents: true })]);
  if (main.status === 'rejected') throw main.reason;
  const { record, source, aux } = main.value ? { record: main.value, source: d.sources.cases.info, aux: details } : await fromPage(d, numeroCnj, details);
  const news = await d.db.transaction().execute(async (trx) => {
    const fromDataJud = (await d.store.saveCase(record, source, trx)).newMovements.length;
    if (aux.status === 'rejected') {
      await d.service.scheduleDetails(numeroCnj, trx, { documents: true, afterFailure: true });
      return fromDataJud;
    }
    return fromDataJud + (await d.service.applyDetails(numeroCnj, aux.value, { documents: true }, trx));
  });
  if (aux.status === 'rejected')
    auxiliaryFailed(log, { tribunal: record.tribunal, step: 'partes', err: aux.reason, retry: 'the parties are asked again by their own job' });
  return news;
}

/**
 * A case DataJud does not know (not yet indexed, or a court without an index): its court's page when
 * that court's consultation is enabled (issue 31), else not found; the page is then the main work. What
 * the parallel ask brought is used when it is the page; when the page failed and DJEN answered for the
 * parties, the page is asked alone, and its failure is the refresh's (retried).
 */
async function fromPage(d: RefreshDeps, numeroCnj: string, details: PromiseSettledResult<CaseDetailsRecord | null>) {
  const consultation = d.sources.details;
  const notFound = () => new ApiError('CASE_NOT_FOUND', `No case ${numeroCnj} at ${d.sources.cases.info.name} nor on its court's consultation.`);
  if (!consultation?.covers?.(numeroCnj)) throw new ApiError('CASE_NOT_FOUND', `No case ${numeroCnj} at ${d.sources.cases.info.name}.`);
  if (details.status === 'rejected') throw details.reason;
  if (details.value === null) throw notFound();
  const page = details.value.consulta ? details.value : await consultation.fetchDetails(numeroCnj, undefined, { documents: true });
  if (!page?.consulta) throw notFound();
  return {
    record: caseOfConsultation(courtSiglaOf(numeroCnj)!, page),
    source: { name: page.consulta.fonte, sandbox: consultation.info.sandbox },
    aux: { status: 'fulfilled', value: page } as PromiseSettledResult<CaseDetailsRecord | null>,
  };
}

/** Completes each waiting account's refresh with its one charge; an account that can no longer pay gets ERRO. */
async function settleAll(d: RefreshDeps, numeroCnj: string, newMovements: number): Promise<void> {
  const waiting = await liveRefreshesOf(d.db, numeroCnj);
  for (const refresh of waiting) {
    try {
      await settleOne(d, refresh, newMovements);
    } catch (err) {
      if (!isApiError(err) || err.code !== 'INSUFFICIENT_CREDITS') throw err;
      await updateRefresh(d.db, refresh.id, {
        status: 'ERRO',
        erro_codigo: err.code,
        erro_mensagem: 'The balance no longer covered the refresh when it completed; nothing was charged.',
        concluido_em: iso(d.clock.now()),
      });
    }
  }
}

async function settleOne(d: RefreshDeps, refresh: CaseRefreshesTable, newMovements: number): Promise<void> {
  await d.db.transaction().execute(async (trx) => {
    const now = iso(d.clock.now());
    const done = await updateLiveRefresh(trx, refresh.id, { status: 'CONCLUIDA', novas_movimentacoes: newMovements, concluido_em: now });
    if (!done) return; // settled by another worker meanwhile
    await chargeDeferred(d.ledger, trx, REFRESH_CHARGE, refresh);
    const tribunal = await d.store.tribunalOf(refresh.numero_cnj, trx);
    await d.events.record(trx, {
      kind: 'atualizacao_processo_concluida',
      numeroCnj: refresh.numero_cnj,
      tribunal,
      accountId: refresh.account_id,
      data: { numeroCnj: refresh.numero_cnj, tribunal, atualizacaoId: refresh.id, novasMovimentacoes: newMovements, concluidaEm: now },
    });
  });
}

/**
 * Fills parties, lawyers and the case value of a case (spec §2.3), DJEN's addressees where no other
 * source answers; with `documents` (what a refresh could not get), its public documents too. A failure
 * of those sources is counted and named (observability/auxiliary.ts), then the job's retries take it.
 */
export function enrichJob(d: Pick<RefreshDeps, 'service'>): JobHandler {
  return jobHandler(ENRICH, {
    async run({ numeroCnj, documents }, { job, log }) {
      let details: Awaited<ReturnType<CaseService['fetchParties']>>;
      try {
        details = await d.service.fetchParties(numeroCnj, undefined, { documents: documents === true });
      } catch (err) {
        const retry = job.attempts >= job.max_attempts ? 'this was the last attempt' : 'the job tries again later';
        auxiliaryFailed(log, { tribunal: courtSiglaOf(numeroCnj), step: 'partes', err, retry });
        throw err;
      }
      await d.service.applyDetails(numeroCnj, details, { documents: documents === true });
    },
  });
}

/** The sigla of a stored case's court, from its number (for log lines). */
function courtSiglaOf(numeroCnj: string): string | null {
  const cnj = parseCnj(numeroCnj);
  return cnjCourtSigla(cnj.segment, cnj.tribunal) ?? null;
}
