/**
 * AI case summaries (spec §4.3): request one (a background job writes it and charges it once, when it
 * is FINALIZADO), follow its status (free), read it (the latest finished one, or the execution
 * `request_id` names). A summary is informational only (spec §1 rule 5): every text says so.
 */
import { askedCallback } from '../../platform/http/callback-flag.ts';
import type { FastifyInstance } from 'fastify';
import { iso } from '../../platform/clock.ts';
import { ApiError } from '../../platform/errors.ts';
import { defineRoute, type RouteRequest } from '../../platform/http/route.ts';
import { absoluteUrl } from '../../platform/http/absolute-url.ts';
import { parseCnjWithCourt } from '../../platform/identifiers/cnj.ts';
import type { Services } from '../../platform/services.ts';
import { CnjParams, type CaseParts } from '../processes/parts.ts';
import { factsFingerprint, gatherFacts } from './gather.ts';
import { SUMMARY, SUMMARY_QUERY_TYPE, SUMMARY_READ_QUERY_TYPE } from './job.ts';
import { SUMMARY_DISCLAIMER } from './offline.ts';
import { executionView, requestPath, statusPath } from './present.ts';
import { RequestIdQuery, Summary, SummaryExecution, SummaryRequestBody } from './schemas.ts';
import type { SummaryStore } from './store.ts';

const TAG = 'Resumos IA';

export function summaryRoutes(app: FastifyInstance, s: Services, cases: CaseParts, store: SummaryStore): void {
  const cnjOf = (req: RouteRequest<{ params: typeof CnjParams }>) => parseCnjWithCourt(req.params.cnj, 'cnj');

  defineRoute(app, {
    method: 'POST',
    url: '/v1/processos/cnj/:cnj/resumo-ia/solicitar-atualizacao',
    meta: {
      class: 'async',
      auth: true,
      charge: SUMMARY_QUERY_TYPE,
      chargeWay: 'deferred',
      tag: TAG,
      summary: 'Request an AI summary of a case',
      description:
        'Answers at once (200: the request is recorded; a 202 would tell integrators of the commercial service to poll /v1/requests) with ' +
        '`providerRequestId` and `statusUrl` (also in `Location`); a background job writes the ' +
        'summary from the case data Tramita holds ' +
        '(refreshing the case first, as a charged refresh, when it is older than TRAMITA_CASE_FRESH_MINUTES). ' +
        `Charged the plan's \`${SUMMARY_QUERY_TYPE}\` once, when it ends FINALIZADO; ERRO is free; refused at once (403) when the balance cannot cover it. ` +
        'Asking again while one runs for the case returns it, uncharged. Body optional: `enviar_callback` (or `send_callback`) sends `resumo_ia_concluido` ' +
        'to the account webhook when it ends.',
    },
    schema: { params: CnjParams, body: SummaryRequestBody, data: SummaryExecution },
    handler: async (req, op) => {
      const cnj = cnjOf(req);
      const accountId = req.auth!.account.id;
      const enviarCallback = await askedCallback(s.webhooks.configs, accountId, req.body);
      // A case never stored is looked up now, so an unknown number is a 404 (uncharged) instead of an ERRO later.
      if (!(await cases.store.get(cnj.digits))) await cases.service.lookup(cnj);
      const { summary, created } = await s.db.transaction().execute(async (trx) => {
        const live = await store.live(accountId, cnj.digits, trx);
        if (live) return { summary: live, created: false };
        const row = await store.create(trx, { accountId, numeroCnj: cnj.digits, requestId: req.id, priceCentavos: op.priceCentavos, enviarCallback });
        await s.jobs.add(SUMMARY, { id: row.id }, trx);
        return { summary: row, created: true };
      });
      const view = executionView(s.config, summary);
      return { status: 200, data: view, meta: { reaproveitado: !created }, headers: { location: view.statusUrl } };
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/v1/processos/cnj/:cnj/resumo-ia/status',
    meta: {
      class: 'lookup',
      auth: true,
      tag: TAG,
      summary: 'Progress of an AI summary request',
      description:
        'Free (spec §8). `request_id` is the `providerRequestId`; omitted, the latest execution of the account for the case. `PENDENTE` → `PROCESSANDO` → ' +
        "`FINALIZADO` or `ERRO` (with `erro`): poll a finite number of times and stop there. Another account's execution is 404 " +
        'NOT_FOUND.',
    },
    schema: { params: CnjParams, querystring: RequestIdQuery, data: SummaryExecution },
    handler: async (req) => {
      const cnj = cnjOf(req);
      const summary = await store.find(req.auth!.account.id, cnj.digits, req.query.request_id);
      if (!summary)
        throw new ApiError(
          'NOT_FOUND',
          req.query.request_id
            ? `No summary request ${req.query.request_id} for ${cnj.masked} in this account.`
            : `No summary of ${cnj.masked} was requested with this account.`,
        );
      return { data: executionView(s.config, summary) };
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/v1/processos/cnj/:cnj/resumo-ia',
    meta: {
      class: 'lookup',
      auth: true,
      charge: SUMMARY_READ_QUERY_TYPE,
      tag: TAG,
      summary: 'The AI summary of a case',
      description:
        'The latest finished summary of the account for the case, or the execution `request_id` names. ' +
        '`desatualizado: true` when the case changed since it was written. With none (or outdated), `proximaAcao` names ' +
        'the request to make; nothing is invented. ' +
        `Reading a summary is the plan's \`${SUMMARY_READ_QUERY_TYPE}\` (free in the shipped plans: the request pays for the ` +
        `writing); an answer without \`conteudo\` is free.`,
    },
    schema: { params: CnjParams, querystring: RequestIdQuery, data: Summary },
    handler: async (req) => {
      const cnj = cnjOf(req);
      const accountId = req.auth!.account.id;
      const asked = req.query.request_id;
      const summary = asked ? await store.find(accountId, cnj.digits, asked) : await store.latestFinished(accountId, cnj.digits);
      if (asked && !summary) throw new ApiError('NOT_FOUND', `No summary request ${asked} for ${cnj.masked} in this account.`);
      const live = await store.live(accountId, cnj.digits);
      const emAndamento =
        live && live.id !== summary?.id ? { providerRequestId: live.id, statusUrl: absoluteUrl(s.config, statusPath(live.numero_cnj, live.id)) } : null;
      const request = (motivo: string) => ({ method: 'POST', path: requestPath(cnj.digits), motivo });
      const base = {
        numeroCnj: cnj.masked,
        cached: false,
        providerRequestId: summary?.id ?? null,
        status: summary?.status ?? null,
        metodo: summary?.metodo ?? null,
        modelo: summary?.modelo ?? null,
        aviso: summary?.aviso ?? null,
        avisoLegal: SUMMARY_DISCLAIMER,
        erro: summary?.erro_codigo ? { codigo: summary.erro_codigo, mensagem: summary.erro_mensagem } : null,
        emAndamento,
      };
      if (summary?.status !== 'FINALIZADO' || summary.conteudo === null) {
        const state = summary?.status === 'ERRO' ? 'error' : summary || live ? 'processing' : 'none';
        const proximaAcao =
          state === 'processing'
            ? null
            : request(state === 'error' ? 'A execução pedida terminou em ERRO: peça um novo resumo.' : 'Não há resumo deste processo: peça um.');
        return { data: { ...base, conteudo: null, atualizadoEm: null, state, desatualizado: false, proximaAcao }, empty: true };
      }
      const facts = await gatherFacts(s.db, cases, cnj.digits, iso(s.clock.now()).slice(0, 10));
      const desatualizado = facts !== null && summary.entrada_hash !== factsFingerprint(facts);
      return {
        data: {
          ...base,
          conteudo: summary.conteudo,
          atualizadoEm: summary.concluido_em,
          cached: true,
          state: 'success',
          desatualizado,
          proximaAcao: desatualizado && !live ? request('O processo mudou desde que este resumo foi escrito: peça um novo para incluir as mudanças.') : null,
        },
      };
    },
  });
}
