/**
 * New-case radars (spec §4.8): a radar watches a party (CPF/CNPJ, or a name with its spellings) and
 * reports the cases that appear naming it, filtered by court, class and words, as persisted results
 * and events. Only creation is charged (per period of 30 days, renewed by the cycle job); reading,
 * listing, synchronizing, qualifying and archiving are free. Another account's radar is a 404.
 */
import type { FastifyInstance } from 'fastify';
import { iso } from '../../platform/clock.ts';
import type { RadarsTable } from '../../platform/db/schema.ts';
import { ApiError } from '../../platform/errors.ts';
import { listSchema } from '../../platform/http/list.ts';
import { listPage } from '../../platform/http/listing.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { parseCnj } from '../../platform/identifiers/cnj.ts';
import { createRadar } from './create.ts';
import { RADAR_QUERY_TYPE } from './cycle.ts';
import { deactivateRadar, type RadarParts } from './parts.ts';
import { patchRadar } from './patch.ts';
import { radarView, resultView } from './present.ts';
import {
  ArchiveBody,
  ArchiveOutcome,
  CreateRadarBody,
  DayQuery,
  PatchRadarBody,
  QualifyBody,
  Radar,
  RadarListQuery,
  RadarParams,
  RadarResult,
  ResultParams,
  ResultsQuery,
} from './schemas.ts';
import type { ResultPosition } from './store.ts';
import { SYNC_MIN_INTERVAL_MS, synchronize } from './sync.ts';

const TAG = 'Radares';
const BASE = '/v1/monitoramentos/novos-processos';

const CREATE_DESCRIPTION = [
  '`termo` is a CPF/CNPJ (then `tipo` CPF or CNPJ) or a party name of at least 2 words and 5 letters (`tipo` NOME, with up to 20 `variacoes`).',
  'Charged at creation for a first period of 30 days (`preco`), renewed every 30 days by the cycle; a balance that does not cover a renewal suspends the ' +
    'radar (SUSPENSO, no checks) until a later cycle can charge it.',
  'The creation takes the baseline: the cases found now are stored as results with `linhaDeBase: true` and send no event. If the case-details provider fails ' +
    'then, the radar is still created (and charged), with `ultimoErro`, and the next cycle takes the baseline.',
  'Later checks (every `frequencia`: HORARIA, DIARIA, SEMANAL) store each new hit as a result and emit one event to the account (and to `webhook_url` when ' +
    'given, instead of the account URL):',
  '`novo_processo_envolvido` for a CPF/CNPJ radar (the party is identified exactly), `novo_processo` for a name radar ' +
    '(a name alone does not identify a person).',
  'Filters: `tribunais` (siglas), `classes` (names or TPU codes), `termos_obrigatorios` / `termos_proibidos` (whole words in the parties, classes and ' +
    'subjects; accents and case ignored).',
  '422 DETAILS_UNAVAILABLE when no case-details provider is configured.',
].join(' ');

export function radarRoutes(app: FastifyInstance, m: RadarParts): void {
  const s = m.services;
  const own = async (accountId: string, id: string): Promise<RadarsTable> => {
    const radar = await m.store.get(accountId, id);
    if (!radar) throw new ApiError('NOT_FOUND', `No radar "${id}" in this account.`);
    return radar;
  };

  defineRoute(app, {
    method: 'POST',
    url: BASE,
    meta: {
      class: 'monitor',
      auth: true,
      charge: RADAR_QUERY_TYPE,
      chargeWay: 'in-handler',
      success: [201],
      tag: TAG,
      summary: 'Create a new-case radar',
      description: CREATE_DESCRIPTION,
    },
    schema: { body: CreateRadarBody, data: Radar },
    handler: async (req, op) => ({ status: 201, data: radarView(await createRadar(m, req, op, req.body)) }),
  });

  defineRoute(app, {
    method: 'GET',
    url: BASE,
    meta: {
      class: 'monitor',
      auth: true,
      tag: TAG,
      summary: "List the account's radars, newest first",
      description: 'Free. Deactivated radars are listed too (`status: DESATIVADO`). Cursor pagination.',
    },
    schema: { querystring: RadarListQuery, data: listSchema('items', Radar) },
    handler: async (req) => {
      const { data, pagination } = await listPage(req, s.config, {
        listing: 'radares',
        keys: ['c', 'id'],
        read: (limit, after?: { c: string; id: string }) => m.store.list(req.auth!.account.id, limit, after),
        position: (r) => ({ c: r.criado_em, id: r.id }),
        name: 'items',
        view: (items) => items.map(radarView),
      });
      return { data, meta: { pagination } };
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: `${BASE}/resultados`,
    meta: {
      class: 'monitor',
      auth: true,
      tag: TAG,
      summary: "Results of all the account's radars found on one day",
      description:
        'Free. `dia` is the UTC day the results were found (default today); `arquivados=true|false` filters. Newest first, cursor pagination. Results of ' +
        'deactivated radars stay listed.',
    },
    schema: { querystring: DayQuery, data: listSchema('items', RadarResult) },
    handler: async (req) => {
      const dia = req.query.dia ?? iso(s.clock.now()).slice(0, 10);
      if (Number.isNaN(Date.parse(`${dia}T00:00:00Z`)) || iso(new Date(`${dia}T00:00:00Z`)).slice(0, 10) !== dia) {
        throw new ApiError('INVALID_PARAMETER', `"${dia}" is not a calendar day (YYYY-MM-DD).`, { field: 'dia', in: 'query' });
      }
      const filters = { arquivados: req.query.arquivados };
      const listing = `radar-resultados-dia:${dia}:${filters.arquivados ?? ''}`;
      const { data, pagination } = await listPage(req, s.config, {
        listing,
        keys: ['e', 'id'],
        read: (limit, after?: ResultPosition) => m.store.resultsOfDay(req.auth!.account.id, dia, filters, limit, after),
        position: (r) => ({ e: r.encontrado_em, id: r.id }),
        name: 'items',
        view: (items) => items.map(resultView),
      });
      return { data, meta: { pagination, dia } };
    },
  });

  for (const [action, archived] of [
    ['arquivar', true],
    ['desarquivar', false],
  ] as const) {
    defineRoute(app, {
      method: 'POST',
      url: `${BASE}/resultados/${action}`,
      meta: {
        class: 'monitor',
        auth: true,
        tag: TAG,
        summary: archived ? 'Archive radar results' : 'Unarchive radar results',
        description:
          'Free and idempotent. `ids` are result ids (1–500). `alterados` counts the results whose state changed (one already in the asked state is not); ' +
          'ids that are not results of this account are left alone and counted in `naoEncontrados`, so whether ' +
          'they exist in another account is never told.',
      },
      schema: { body: ArchiveBody, data: ArchiveOutcome },
      handler: async (req) => {
        const ids = [...new Set(req.body.ids)];
        const { changed, found } = await m.store.setArchived(req.auth!.account.id, ids, archived, iso(s.clock.now()));
        return { data: { alterados: changed, naoEncontrados: ids.length - found } };
      },
    });
  }

  defineRoute(app, {
    method: 'GET',
    url: `${BASE}/:id`,
    meta: {
      class: 'monitor',
      auth: true,
      tag: TAG,
      summary: 'Read a radar',
      description: 'Free. Status, filters, counts, schedule (`proximaVerificacaoEm`, `proximaCobrancaEm`) and the last error.',
    },
    schema: { params: RadarParams, data: Radar },
    handler: async (req) => ({ data: radarView(await own(req.auth!.account.id, req.params.id)) }),
  });

  defineRoute(app, {
    method: 'PATCH',
    url: `${BASE}/:id`,
    meta: {
      class: 'monitor',
      auth: true,
      tag: TAG,
      summary: 'Refine the filters of a radar',
      description:
        'Free. Fields left out keep their value; `webhook_url: null` removes it. The term cannot change (400 INVALID_PARAMETER on `termo`). A change that ' +
        'widens the filters (a new variation, more courts or classes, fewer required or forbidden words) makes the next check a ' +
        'baseline, due at once: cases the old filters excluded already existed, so they are stored without ' +
        'events. A deactivated radar cannot be changed.',
    },
    schema: { params: RadarParams, body: PatchRadarBody, data: Radar },
    handler: async (req) => ({ data: radarView(await patchRadar(m, await own(req.auth!.account.id, req.params.id), req.body)) }),
  });

  defineRoute(app, {
    method: 'DELETE',
    url: `${BASE}/:id`,
    meta: {
      class: 'monitor',
      auth: true,
      tag: TAG,
      summary: 'Deactivate a radar',
      description:
        'Free. Status DESATIVADO (spec §3.2): checks and charges stop; nothing is physically deleted and the results stay readable, qualifiable and ' +
        'archivable. Deactivating again returns the radar unchanged.',
    },
    schema: { params: RadarParams, data: Radar },
    handler: async (req) => {
      const radar = await deactivateRadar(m, req.auth!.account.id, req.params.id);
      if (!radar) throw new ApiError('NOT_FOUND', `No radar "${req.params.id}" in this account.`);
      return { data: radarView(radar) };
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: `${BASE}/:id/resultados`,
    meta: {
      class: 'monitor',
      auth: true,
      tag: TAG,
      summary: 'Persisted results of a radar, newest first',
      description:
        `Free. Filters \`arquivados=true|false\` and \`qualificacao\`; \`meta.resultadosTotal\` counts every result of the radar. ` +
        `\`sincronizar=true\` checks the radar first (it may query the provider: use it sparingly), at most once per radar ` +
        `every ${SYNC_MIN_INTERVAL_MS / 1000} s: \`meta.sincronizacao\` is \`{executada: true, novos}\`, or \`{executada: false, ` +
        `motivo, proximaPermitidaEm}\` with the stored results. A provider failure during it is 503 SOURCE_UNAVAILABLE (free).`,
    },
    schema: { params: RadarParams, querystring: ResultsQuery, data: listSchema('items', RadarResult) },
    handler: async (req) => {
      const radar = await own(req.auth!.account.id, req.params.id);
      const sincronizacao = req.query.sincronizar ? await synchronize(m, radar) : undefined;
      const filters = { arquivados: req.query.arquivados, qualificacao: req.query.qualificacao };
      const listing = `radar-resultados:${radar.id}:${filters.arquivados ?? ''}:${filters.qualificacao ?? ''}`;
      const resultadosTotal = (await m.store.byId(radar.id))!.resultados_total;
      const { data, pagination } = await listPage(req, s.config, {
        listing,
        keys: ['e', 'id'],
        read: (limit, after?: ResultPosition) => m.store.results(radar.id, filters, limit, after),
        position: (r) => ({ e: r.encontrado_em, id: r.id }),
        name: 'items',
        view: (items) => items.map(resultView),
        total: resultadosTotal,
      });
      return {
        data,
        meta: { pagination, resultadosTotal, ...(sincronizacao ? { sincronizacao } : {}) },
      };
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: `${BASE}/:id/resultados/:numeroCnj/qualificar`,
    meta: {
      class: 'monitor',
      auth: true,
      tag: TAG,
      summary: 'Qualify a radar result',
      description:
        'Free. `qualificacao`: RELEVANTE, IRRELEVANTE or EM_ANALISE, with an optional `nota` (up to 1000 characters; absent or null clears it). Qualifying ' +
        'again replaces it. 404 when the number is not a result of this radar.',
    },
    schema: { params: ResultParams, body: QualifyBody, data: RadarResult },
    handler: async (req) => {
      const radar = await own(req.auth!.account.id, req.params.id);
      const cnj = parseCnj(req.params.numeroCnj, 'numeroCnj');
      const result = await m.store.result(radar.id, cnj.digits);
      if (!result) throw new ApiError('NOT_FOUND', `${cnj.masked} is not a result of radar "${radar.id}".`);
      const updated = await m.store.qualify(result.id, {
        qualificacao: req.body.qualificacao,
        qualificacao_nota: req.body.nota ?? null,
        qualificado_em: iso(s.clock.now()),
      });
      return { data: resultView(updated) };
    },
  });
}
