/**
 * The asynchronous OAB publication search (spec §4.4): POST answers at once with a numeric id and its
 * `statusUrl`; a job reads the OAB's whole DJEN history at the court (history.ts: year windows, split
 * when capped), ingests it, and ends SUCESSO with the processes found (`resposta[].processos`, kept for
 * compatibility, §9.3) or ERRO. Charged once, in the transaction that marks it SUCESSO; ERRO is free.
 * `permitir_parcial`: a search that could not read everything (DJEN failed midway, or capped a single
 * day) ends SUCESSO with `parcial: true` and what it read, instead of ERRO. `enviar_callback`: the
 * account webhook receives `resultado_busca_oab_async` when it ends, either way.
 */
import { chargeDeferred, type DeferredCharge } from '../../platform/billing/deferred.ts';
import { defineJob, jobHandler } from '../../platform/jobs/job-type.ts';
import { brasiliaDayBefore } from '../../platform/format.ts';
import { iso } from '../../platform/clock.ts';
import type { Transaction, Updateable } from 'kysely';
import type { DB, OabSearchesTable as Table } from '../../platform/db/schema.ts';
import { type ApiError, isApiError } from '../../platform/errors.ts';
import { toApiError } from '../../platform/http/error-handler.ts';
import { formatCnj } from '../../platform/identifiers/cnj.ts';
import type { Oab } from '../../platform/identifiers/oab.ts';
import type { JobHandler } from '../../platform/jobs/worker.ts';
import type { Services } from '../../platform/services.ts';
import { eventOrigin } from '../../platform/ports/case-metadata.ts';
import type { PublicationRecord } from '../../platform/ports/publications.ts';
import { fetchHistory, HISTORY_START, parseOabKey, type PublicationIngest } from '../publications/parts.ts';
import {
  endOabSearch,
  findOabSearch as findSearchOf,
  insertOabSearch,
  oabSearchById,
  type OabSearchRow as OabSearchesTable,
  TERMINAL,
  updateOabSearch,
} from './oab-search-store.ts';

export const OAB_SEARCH_JOB = 'advogados.oab.busca';
/** One asynchronous search of an OAB's publications; DJEN's budget makes failures wait minutes. */
export const OAB_SEARCH = defineJob<{ id: number }>({ kind: OAB_SEARCH_JOB, maxAttempts: 4, retryDelayMs: (attempt) => 60_000 * 2 ** (attempt - 1) });
export const OAB_SEARCH_QUERY_TYPE = 'advogados.oab_monitorar';
/** A search is charged when it ends in SUCESSO, as `oab-busca:<id>` (its id is the table's number; billing/deferred.ts). */
const OAB_SEARCH_CHARGE: DeferredCharge<OabSearchesTable> = {
  queryType: OAB_SEARCH_QUERY_TYPE,
  requestPath: () => '/v1/advogados/oab/monitorar',
  idPrefix: 'oab-busca',
};

export interface FoundProcess {
  numeroCnj: string;
  numeroCnjFormatado: string;
  tribunal: string;
  publicacoes: number;
  primeiraPublicacao: string;
  ultimaPublicacao: string;
  tiposComunicacao: string[];
}

export async function createOabSearch(
  s: Services,
  r: { accountId: string; tribunal: string; oab: Oab; permitirParcial: boolean; enviarCallback: boolean; requestId: string; priceCentavos: number },
): Promise<OabSearchesTable> {
  return s.db.transaction().execute(async (trx) => {
    const row = await insertOabSearch(trx, {
      account_id: r.accountId,
      tribunal: r.tribunal,
      oab: r.oab.canonical,
      permitir_parcial: r.permitirParcial ? 1 : 0,
      enviar_callback: r.enviarCallback ? 1 : 0,
      preco_centavos: r.priceCentavos,
      request_id: r.requestId,
      criado_em: iso(s.clock.now()),
    });
    await s.jobs.add(OAB_SEARCH, { id: Number(row.id) }, trx);
    return row;
  });
}

export function findOabSearch(s: Services, accountId: string, id: number): Promise<OabSearchesTable | undefined> {
  return findSearchOf(s.db, accountId, id);
}

/** Processes of the items, grouped by CNJ number (publications without a valid number are not a process). */
export class ProcessTally {
  readonly #byCnj = new Map<string, FoundProcess>();
  publicacoes = 0;

  add(items: readonly PublicationRecord[]): void {
    for (const p of items) {
      this.publicacoes++;
      if (!p.numeroCnj) continue;
      const f = this.#byCnj.get(p.numeroCnj);
      if (!f) {
        this.#byCnj.set(p.numeroCnj, {
          numeroCnj: p.numeroCnj,
          numeroCnjFormatado: formatCnj(p.numeroCnj),
          tribunal: p.tribunal,
          publicacoes: 1,
          primeiraPublicacao: p.dataDisponibilizacao,
          ultimaPublicacao: p.dataDisponibilizacao,
          tiposComunicacao: [p.tipoComunicacao],
        });
        continue;
      }
      f.publicacoes++;
      if (p.dataDisponibilizacao < f.primeiraPublicacao) f.primeiraPublicacao = p.dataDisponibilizacao;
      if (p.dataDisponibilizacao > f.ultimaPublicacao) f.ultimaPublicacao = p.dataDisponibilizacao;
      if (!f.tiposComunicacao.includes(p.tipoComunicacao)) f.tiposComunicacao.push(p.tipoComunicacao);
    }
  }

  processes(): FoundProcess[] {
    return [...this.#byCnj.values()].sort((a, b) =>
      a.ultimaPublicacao < b.ultimaPublicacao ? 1 : a.ultimaPublicacao > b.ultimaPublicacao ? -1 : a.numeroCnj < b.numeroCnj ? -1 : 1,
    );
  }
}

export function oabSearchJob(s: Services, ingest: PublicationIngest): JobHandler {
  return jobHandler(OAB_SEARCH, {
    async run({ id }, { job }) {
      const search = await oabSearchById(s.db, id);
      if (!search || (TERMINAL as readonly string[]).includes(search.status)) return;
      await updateOabSearch(s.db, id, { status: 'PROCESSANDO', iniciado_em: search.iniciado_em ?? iso(s.clock.now()) });
      const tally = new ProcessTally();
      let failure: ApiError | null = null;
      let complete = false;
      try {
        const source = s.sources.publications;
        const r = await fetchHistory(
          source,
          { oab: parseOabKey(search.oab), tribunal: search.tribunal },
          { desde: HISTORY_START, ate: brasiliaDayBefore(s.clock.now()) },
          async (items) => {
            tally.add(items);
            await ingest.ingest(items, source.info);
            await updateOabSearch(s.db, id, { publicacoes: tally.publicacoes });
          },
        );
        complete = r.complete;
        await updateOabSearch(s.db, id, { paginas: r.requests });
      } catch (err) {
        failure = toApiError(err);
        // A source that may recover gets the job's retries first, unless partial results are welcome.
        if (!search.permitir_parcial && job.attempts < job.max_attempts && !isApiError(err)) throw err;
      }
      if (failure && !search.permitir_parcial) return finish(s, search, { status: 'ERRO', erro_codigo: failure.code, erro_mensagem: failure.message });
      const processos = tally.processes();
      await finish(s, search, {
        status: 'SUCESSO',
        parcial: complete ? 0 : 1,
        publicacoes: tally.publicacoes,
        resultado: JSON.stringify(processos),
        erro_codigo: failure?.code ?? null,
        erro_mensagem: failure?.message ?? null,
      });
    },
  });
}

/** The terminal state, its charge (SUCESSO only) and its callback, in one transaction. */
async function finish(s: Services, search: OabSearchesTable, set: Updateable<Table>): Promise<void> {
  const now = iso(s.clock.now());
  try {
    await s.db.transaction().execute(async (trx) => {
      if (!(await endOabSearch(trx, Number(search.id), { ...set, concluido_em: now }))) return;
      if (set.status === 'SUCESSO') await chargeDeferred(s.ledger, trx, OAB_SEARCH_CHARGE, search);
      if (search.enviar_callback) await callback(s, trx, { ...search, ...set, concluido_em: now } as OabSearchesTable);
    });
  } catch (err) {
    if (!isApiError(err) || err.code !== 'INSUFFICIENT_CREDITS') throw err;
    await finish(s, search, {
      status: 'ERRO',
      erro_codigo: err.code,
      erro_mensagem: 'The balance no longer covered the search when it completed; nothing was charged.',
    });
  }
}

async function callback(s: Services, trx: Transaction<DB>, search: OabSearchesTable): Promise<void> {
  await s.events.record(trx, {
    kind: 'resultado_busca_oab_async',
    numeroCnj: null,
    tribunal: search.tribunal,
    source: eventOrigin(s.sources.publications.info),
    accountId: search.account_id,
    data: {
      id: Number(search.id),
      status: search.status,
      tribunal: search.tribunal,
      oab: search.oab,
      parcial: search.parcial === 1,
      processos: search.resultado ? (JSON.parse(search.resultado) as FoundProcess[]).length : 0,
      statusPath: `/v1/advogados/oab/monitoramentos/${search.id}`,
      erro: search.erro_codigo ? { code: search.erro_codigo, message: search.erro_mensagem } : null,
    },
  });
}

export function oabSearchView(search: OabSearchesTable, statusUrl: string) {
  const processos = search.resultado ? (JSON.parse(search.resultado) as FoundProcess[]) : [];
  const oab = parseOabKey(search.oab);
  return {
    id: Number(search.id),
    status: search.status,
    statusUrl,
    tribunal: search.tribunal,
    oab: { estado: oab.uf, numero: oab.numero, oab: search.oab },
    permitirParcial: search.permitir_parcial === 1,
    enviarCallback: search.enviar_callback === 1,
    progresso: { publicacoesLidas: search.publicacoes, requisicoes: search.paginas },
    parcial: search.parcial === 1,
    quantidadeProcessos: processos.length,
    resposta: search.status === 'SUCESSO' ? [{ tribunal: search.tribunal, oab: search.oab, processos }] : [],
    erro: search.erro_codigo ? { code: search.erro_codigo, message: search.erro_mensagem } : null,
    criadoEm: search.criado_em,
    iniciadoEm: search.iniciado_em,
    concluidoEm: search.concluido_em,
  };
}
