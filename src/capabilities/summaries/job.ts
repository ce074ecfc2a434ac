/**
 * The job that writes one summary execution (`resumos.gerar`):
 * 1. the case must be fresh: a stored case older than TRAMITA_CASE_FRESH_MINUTES is refreshed first
 *    through the refresh path of the case capability (a refresh of the account, charged as a refresh is
 *    when it completes), and the job waits for it, without spending attempts;
 * 2. the parties and the case value come first from the case-details provider when the stored case
 *    has never had them (the enrichment job may not have run yet): a summary without them is poorer;
 * 3. the facts are gathered and written by the configured writer (a model, or the offline writer);
 * 4. FINALIZADO commits with its one charge and, with `enviar_callback`, its event. A failure is ERRO
 *    and free: a model that may recover (5xx, 429, timeout) gets the job's retries first.
 */
import { defineJob, jobHandler } from '../../platform/jobs/job-type.ts';
import { addMs, iso, type Clock } from '../../platform/clock.ts';
import type { Kysely, Transaction, Updateable } from 'kysely';
import { chargeDeferred, type DeferredCharge } from '../../platform/billing/deferred.ts';
import type { Ledger } from '../../platform/billing/ledger.ts';
import type { AccountStore } from '../../platform/accounts/store.ts';
import type { PriceTable } from '../../platform/billing/prices.ts';
import type { CaseSummariesTable, DB } from '../../platform/db/schema.ts';
import type { EventLog } from '../../platform/events/log.ts';
import { ApiError, isApiError } from '../../platform/errors.ts';
import { toApiError } from '../../platform/http/error-handler.ts';
import { formatCnj } from '../../platform/identifiers/cnj.ts';
import type { JobHandler } from '../../platform/jobs/worker.ts';
import { SourceError, TRANSIENT_FAILURES } from '../../platform/ports/source-error.ts';
import { REFRESH_QUERY_TYPE, refreshOutcome, requestRefresh, type CaseParts } from '../processes/parts.ts';
import { factsFingerprint, gatherFacts } from './gather.ts';
import { requestPath, statusPath, summaryPath } from './present.ts';
import { LIVE, type SummaryStore } from './store.ts';
import type { SummaryWriter } from './writers.ts';

export const SUMMARY_JOB = 'resumos.gerar';
export const SUMMARY_QUERY_TYPE = 'resumo_ia.solicitacao';
export const SUMMARY_READ_QUERY_TYPE = 'resumo_ia.consulta';
/** A summary is charged when it is FINALIZADO, under its own id (billing/deferred.ts). */
const SUMMARY_CHARGE: DeferredCharge<CaseSummariesTable> = { queryType: SUMMARY_QUERY_TYPE, requestPath: (s) => requestPath(s.numero_cnj) };
/** One AI summary to write; its backoff scales with TRAMITA_DEV_TIME_SCALE, so the handler gives it. */
export const SUMMARY = defineJob<{ id: string }>({ kind: SUMMARY_JOB, maxAttempts: 4 });
/** How often a job waiting on its case's refresh looks again, and how long it waits at most. */
const REFRESH_POLL_MS = 1_000;
const REFRESH_WAIT_MS = 15 * 60_000;

export interface SummaryDeps {
  db: Kysely<DB>;
  clock: Clock;
  ledger: Ledger;
  events: EventLog;
  prices: PriceTable;
  store: SummaryStore;
  /** The account's plan prices the refresh a summary asks for. */
  accounts: Pick<AccountStore, 'get'>;
  cases: CaseParts;
  writer: SummaryWriter;
  freshMinutes: number;
  /** TRAMITA_DEV_TIME_SCALE: divides the retry delays and the refresh polling (1 in production). */
  timeScale: number;
}

export function summaryJob(d: SummaryDeps): JobHandler {
  return jobHandler(SUMMARY, {
    retryDelayMs: (attempt) => (20_000 * 3 ** (attempt - 1)) / d.timeScale,
    async run({ id }, { job, log }) {
      const summary = await d.store.get(id);
      if (!summary || !(LIVE as readonly string[]).includes(summary.status)) return;
      const now = d.clock.now();
      if (summary.status === 'PENDENTE') await d.store.update(summary.id, { status: 'PROCESSANDO', iniciado_em: iso(now) });
      const waiting = await awaitFreshCase(d, summary, now);
      if (waiting === 'ended') return;
      if (waiting) return waiting;
      await d.store.update(summary.id, { etapa: 'escrevendo' });
      try {
        await ensureDetails(d, summary.numero_cnj);
        const facts = await gatherFacts(d.db, d.cases, summary.numero_cnj, iso(now).slice(0, 10));
        if (!facts) return finish(d, summary, failed(new ApiError('CASE_NOT_FOUND', `Case ${formatCnj(summary.numero_cnj)} is not in the store.`)));
        const w = await d.writer.write(facts);
        return finish(d, summary, {
          status: 'FINALIZADO',
          metodo: w.metodo,
          modelo: w.modelo,
          conteudo: w.texto,
          entrada_hash: factsFingerprint(facts),
          aviso: w.aviso,
          tokens_entrada: w.tokensEntrada,
          tokens_saida: w.tokensSaida,
        });
      } catch (err) {
        if (err instanceof SourceError && TRANSIENT_FAILURES.has(err.failure) && job.attempts < job.max_attempts) throw err;
        const error = toApiError(err);
        if (error.code === 'INTERNAL_ERROR') log.error({ err, summary: summary.id }, 'summary failed');
        else log.warn({ summary: summary.id, code: error.code, failure: err instanceof SourceError ? err.failure : undefined }, 'summary ended in ERRO');
        return finish(d, summary, failed(error));
      }
    },
    // Every attempt was cut (the process died or hung while writing): the execution ends, free.
    async exhausted({ id }) {
      const summary = await d.store.get(id);
      if (summary)
        await finish(
          d,
          summary,
          failed(
            new ApiError('OPERATION_INTERRUPTED', 'The server stopped while writing the summary, at every attempt; nothing was charged. Request it again.'),
          ),
        );
    },
  });
}

function failed(error: ApiError): Updateable<CaseSummariesTable> {
  return { status: 'ERRO', erro_codigo: error.code, erro_mensagem: error.message };
}

/**
 * A Date to look again while the case's refresh runs; `ended` when the refresh failed (which ends the
 * execution); undefined once the stored case is fresh enough to be summarised.
 */
async function awaitFreshCase(d: SummaryDeps, summary: CaseSummariesTable, now: Date): Promise<Date | 'ended' | undefined> {
  if (summary.refresh_id) {
    const refresh = await refreshOutcome(d.db, summary.refresh_id);
    if (refresh?.status === 'ERRO') {
      await finish(d, summary, {
        status: 'ERRO',
        erro_codigo: refresh.erro_codigo,
        erro_mensagem: `The case could not be refreshed before summarising it: ${refresh.erro_mensagem ?? refresh.erro_codigo}`,
      });
      return 'ended';
    }
    if (refresh && refresh.status !== 'CONCLUIDA') {
      if (Date.parse(summary.iniciado_em ?? summary.criado_em) < addMs(now, -REFRESH_WAIT_MS).getTime()) {
        await finish(
          d,
          summary,
          failed(new ApiError('SOURCE_TIMEOUT', "The case's refresh did not complete in 15 minutes; the summary was not written and nothing was charged.")),
        );
        return 'ended';
      }
      return addMs(now, REFRESH_POLL_MS / d.timeScale);
    }
    return undefined;
  }
  const stored = await d.cases.store.get(summary.numero_cnj);
  const freshSince = addMs(now, -d.freshMinutes * 60_000).getTime();
  if (!stored || Date.parse(stored.row.consultado_em) >= freshSince) return undefined;
  const refreshPrice = await priceOfRefresh(d, summary.account_id);
  if (refreshPrice === null) return undefined; // the plan has no refresh: the stored case is what there is
  const { refresh } = await requestRefresh(d.cases, {
    accountId: summary.account_id,
    numeroCnj: summary.numero_cnj,
    requestId: summary.request_id,
    priceCentavos: refreshPrice,
  });
  await d.store.update(summary.id, { refresh_id: refresh.id, etapa: 'atualizando_processo' });
  return addMs(now, REFRESH_POLL_MS / d.timeScale);
}

/** Asks for the parties once for a case never enriched (the provider, the consultation or DJEN); its failure is the job's (retried). */
async function ensureDetails(d: SummaryDeps, numeroCnj: string): Promise<void> {
  const stored = await d.cases.store.get(numeroCnj);
  if (stored && stored.row.detalhes_em === null) await d.cases.service.applyDetails(numeroCnj, await d.cases.service.fetchParties(numeroCnj));
}

async function priceOfRefresh(d: SummaryDeps, accountId: string): Promise<number | null> {
  const account = await d.accounts.get(accountId);
  try {
    return d.prices.priceFor(account?.plan ?? d.prices.defaultPlan, REFRESH_QUERY_TYPE);
  } catch (err) {
    if (isApiError(err) && err.code === 'OPERATION_NOT_ALLOWED') return null;
    throw err;
  }
}

/** The terminal state, its charge (FINALIZADO only) and its callback, in one transaction. */
async function finish(d: SummaryDeps, summary: CaseSummariesTable, set: Updateable<CaseSummariesTable>): Promise<void> {
  const now = iso(d.clock.now());
  const ended = { ...summary, ...set, etapa: 'concluido', concluido_em: now } as CaseSummariesTable;
  try {
    await d.db.transaction().execute(async (trx) => {
      if (!(await d.store.update(summary.id, { ...set, etapa: 'concluido', concluido_em: now }, trx))) return;
      if (ended.status === 'FINALIZADO') await chargeDeferred(d.ledger, trx, SUMMARY_CHARGE, summary);
      if (summary.enviar_callback) await callback(d, trx, ended);
    });
  } catch (err) {
    if (!isApiError(err) || err.code !== 'INSUFFICIENT_CREDITS') throw err;
    await finish(d, summary, {
      status: 'ERRO',
      erro_codigo: err.code,
      erro_mensagem: 'The balance no longer covered the summary when it was written; nothing was charged.',
    });
  }
}

async function callback(d: SummaryDeps, trx: Transaction<DB>, s: CaseSummariesTable): Promise<void> {
  const tribunal = await d.cases.store.tribunalOf(s.numero_cnj, trx);
  await d.events.record(trx, {
    kind: 'resumo_ia_concluido',
    numeroCnj: s.numero_cnj,
    tribunal,
    accountId: s.account_id,
    data: {
      // The digits: EventLog masks them and adds numeroCnjDigitos and processo, as for every event.
      providerRequestId: s.id,
      numeroCnj: s.numero_cnj,
      tribunal,
      status: s.status,
      metodo: s.metodo,
      modelo: s.modelo,
      concluidoEm: s.concluido_em,
      erro: s.erro_codigo ? { codigo: s.erro_codigo, mensagem: s.erro_mensagem } : null,
      resumoPath: summaryPath(s.numero_cnj, s.id),
      statusPath: statusPath(s.numero_cnj, s.id),
    },
  });
}
