/**
 * Intimações (spec §4.5, flow 3 of §4.10): monitors by OAB (`/v1/intimacoes/oab`: create charged per
 * OAB, update, remove, list), then the intimações of the monitored OABs from the store
 * (`/v1/intimacoes`, charged per page), what each monitor matched (`/historico`) and a publication's
 * content with its links (`/publicacoes/{diarioId}`). The publication cycle (publications/cycle.ts)
 * polls DJEN for the monitored OABs and the ingest emits `diario_movimentacao_nova` for each new one.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { toBrl } from '../../platform/billing/prices.ts';
import { ApiError } from '../../platform/errors.ts';
import { listPage } from '../../platform/http/listing.ts';
import { listData, listSchema } from '../../platform/http/list.ts';
import { Nullable } from '../../platform/http/nullable.ts';
import { defineRoute } from '../../platform/http/route.ts';
import type { Oab } from '../../platform/identifiers/oab.ts';
import type { Services } from '../../platform/services.ts';
import { periodDebit } from '../../platform/monitoring/renewal.ts';
import {
  courtFilter,
  deactivated,
  findOfTarget,
  liveMonitorsOf,
  MONITOR_QUERY_TYPES,
  MONITOR_READS,
  PUBLICATION_MONITORS,
  type PublicationMonitorRow,
} from '../publication-monitors/parts.ts';
import { createMonitorIn, removeMonitor, updateMonitor, type Creation } from '../../platform/monitoring/lifecycle.ts';
import { webhookUrlOf } from '../../platform/monitoring/webhook-url.ts';
import { monitorPage } from '../../platform/monitoring/paid-monitor-routes.ts';
import { oabOfRequest } from '../../platform/http/oab-params.ts';
import { findPublication, storedPublication, type PublicationParts } from '../publications/parts.ts';
import { dayRange, requestedOabs } from './input.ts';
import {
  CreatedIntimationMonitors,
  CreateIntimationBody,
  HistoryQuery,
  Intimation,
  IntimationMatch,
  IntimationMonitor,
  IntimationsQuery,
  ListIntimationMonitorsQuery,
  OneOabQuery,
  OptionalOabQuery,
  PublicationParams,
  UpdateIntimationBody,
  OabPair,
} from './schemas.ts';
import { CreatedIntimationMonitorShape, CreationChargeShape, intimationItem, intimationView, oabPair } from './present.ts';
import { deliveriesOf, intimationsOf, matchesOf, type DayPosition, type MatchPosition } from './store.ts';
import { listingTag } from './listing.ts';

const TAG = 'Intimações';
const PATH = '/v1/intimacoes/oab';
const QUERY_TYPE = MONITOR_QUERY_TYPES.INTIMACOES;
const CONSULTA = 'intimacoes.consulta';

const OAB_FORMS = 'OAB as `oab_estado` + `oab_numero`, or `oab` (`SP123456`, `123.456/SP`, `OAB/SP 123456`)';
const RULES =
  'Each OAB is followed in every court (or in `tribunais` only) from the next cycle on: DJEN is asked every TRAMITA_MONITOR_INTERVAL_MS, ' +
  'the first time for the last 30 days (so `GET /v1/intimacoes` has the recent history at once), then from 3 days before ' +
  'the previous check (DJEN publishes late). ' +
  "Each new publication naming the OAB, in any spelling the court printed, dated from the monitor's `desde` (its creation day) on, emits " +
  '`diario_movimentacao_nova` ' +
  'to `webhook_url` when set, else to the account webhook, and to GET /v1/eventos; older ones are history (listed, no event). ' +
  'Price: `intimacoes.monitor_oab` per OAB, charged at creation and every 30 days while ATIVO; a renewal the balance does not cover suspends it (SUSPENSO) ' +
  'until it is created again.';

const matchListing = (oabs: readonly string[] | undefined, range: { desde?: string; ate?: string }) =>
  `intimacoes.historico:${listingTag([...(oabs ?? []), range.desde ?? '', range.ate ?? ''])}`;

export function intimationRoutes(app: FastifyInstance, s: Services, pub: PublicationParts): void {
  defineRoute(app, {
    method: 'POST',
    url: PATH,
    meta: {
      class: 'monitor',
      auth: true,
      charge: QUERY_TYPE,
      chargeWay: 'in-handler',
      success: [200, 201],
      tag: TAG,
      summary: 'Create intimação monitors by OAB',
      description:
        `Body: ${OAB_FORMS}, and/or \`oabs\` (a list of up to 100, also \`SP:123456\`); \`webhook_url\` (HTTPS; INVALID_WEBHOOK_URL otherwise); ` +
        `\`tribunais\` (court siglas; UNKNOWN_COURT otherwise). ` +
        'One monitor and one charge per OAB, all in one transaction (a balance short of the total creates none: 403 INSUFFICIENT_CREDITS). ' +
        'An OAB the account already monitors is returned with `reused: true` and not charged again (a given `webhook_url` / `tribunais` is applied); a ' +
        'SUSPENSO one is reactivated and charged a new period. ' +
        `201 when any monitor was created or reactivated, else 200. \`data.cobranca\` details the charge; \`meta.creditsCharged\` is its total. ${RULES}`,
    },
    schema: { body: CreateIntimationBody, data: CreatedIntimationMonitors },
    handler: async (req, op) => {
      const account = req.auth!.account;
      const oabs = requestedOabs(req.body, 'body');
      const tribunais = courtFilter(req.body.tribunais);
      const webhookUrl = await webhookUrlOf(s, account.id, req.body.webhook_url);
      const priceCentavos = op.priceCentavos;
      const creations = await s.db.transaction().execute(async (trx) => {
        const creations: Creation<PublicationMonitorRow>[] = [];
        for (const oab of oabs) {
          creations.push(
            await createMonitorIn(s, trx, PUBLICATION_MONITORS, {
              accountId: account.id,
              origem: 'INTIMACOES',
              target: oabTarget(oab),
              webhookUrl,
              tribunais,
              priceCentavos,
            }),
          );
        }
        // One search log with the total, one ledger row per monitor billed; a short balance creates none.
        const billed = creations.filter((c) => c.kind !== 'existing').map((c) => c.monitor);
        if (billed.length > 0) await op.chargeIn(trx, { debits: billed.map(periodDebit), status: 201 });
        return creations;
      });
      const billed = creations.filter((c) => c.kind !== 'existing');
      const callback = await callbackOf(s, account.id, webhookUrl ?? null);
      const total = toBrl(billed.reduce((n, c) => n + c.monitor.preco_centavos, 0));
      const data = {
        monitoramentos: creations.map((c) =>
          CreatedIntimationMonitorShape.present({
            ...intimationView(c.monitor),
            callbackEnabled: c.monitor.webhook_url !== null || callback.enabled,
            reused: c.kind === 'existing',
          }),
        ),
        ...CreationChargeShape.present({ cobranca: { oabsCobradas: billed.map((c) => c.monitor.valor), precoPorOab: toBrl(priceCentavos), total } }),
        reutilizados: creations.filter((c) => c.kind === 'existing').map((c) => c.monitor.valor),
        callback,
        oabs: oabs.map((o) => oabPair(o.canonical)),
      };
      return { status: billed.length > 0 ? 201 : 200, data };
    },
  });

  defineRoute(app, {
    method: 'PUT',
    url: PATH,
    meta: {
      class: 'monitor',
      auth: true,
      tag: TAG,
      summary: 'Update an intimação monitor',
      description:
        `Free. Body (or query, as integrators send it): ${OAB_FORMS}; \`webhook_url\` (HTTPS; null removes it: the account webhook then), \`tribunais\` ` +
        `(siglas; empty or null: every court). Fields left out keep their value. ` +
        '404 NOT_FOUND when the account has no monitor of this OAB; 422 MONITOR_DEACTIVATED when it was removed (create it again instead).',
    },
    schema: { querystring: OptionalOabQuery, body: UpdateIntimationBody, data: IntimationMonitor },
    handler: async (req) => {
      const accountId = req.auth!.account.id;
      // Integrators send the OAB in the query and in the body (conventions §4.12); either names it.
      const inQuery = req.query.oab !== undefined || req.query.oab_estado !== undefined || req.query.oab_numero !== undefined;
      const inBody = req.body.oab !== undefined || req.body.oab_estado !== undefined || req.body.oab_numero !== undefined;
      const oab = inBody || !inQuery ? oabOfRequest(req.body, 'body') : oabOfRequest(req.query, 'query');
      if (inBody && inQuery && oabOfRequest(req.query, 'query').canonical !== oab.canonical) {
        throw new ApiError('INVALID_PARAMETER', 'The OAB in the query and the one in the body differ.', { field: 'oab_numero', in: 'query' });
      }
      const monitor = await ownMonitor(s, accountId, oab, 'update');
      const changes = { tribunais: courtFilter(req.body.tribunais), webhookUrl: await webhookUrlOf(s, accountId, req.body.webhook_url) };
      return { data: intimationView(await updateMonitor(s, PUBLICATION_MONITORS, monitor, changes)) };
    },
  });

  defineRoute(app, {
    method: 'DELETE',
    url: PATH,
    meta: {
      class: 'monitor',
      auth: true,
      tag: TAG,
      summary: 'Remove an intimação monitor',
      description:
        `Free. Query: ${OAB_FORMS}. Status REMOVIDO: checks, charges and events stop at once; the monitor and its ` +
        `history stay readable (no physical deletion). ` +
        'Removing it again returns it unchanged; 404 NOT_FOUND when the account never monitored this OAB.',
    },
    schema: { querystring: OneOabQuery, data: IntimationMonitor },
    handler: async (req) => {
      const monitor = await ownMonitor(s, req.auth!.account.id, oabOfRequest(req.query, 'query'), 'remove');
      return { data: intimationView(await removeMonitor(s, PUBLICATION_MONITORS, monitor)) };
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: PATH,
    meta: {
      class: 'monitor',
      auth: true,
      tag: TAG,
      summary: 'List intimação monitors, newest first',
      description:
        `Free. ATIVO and SUSPENSO monitors unless \`status\` asks for one status (REMOVIDO included), newest first, \`limit\` 1–100 with ` +
        `\`cursor\` or \`page\`. With one OAB (${OAB_FORMS}): that OAB's monitor alone, 404 ` +
        `NOT_FOUND when the account never monitored it.`,
    },
    schema: { querystring: ListIntimationMonitorsQuery, data: listSchema('items', IntimationMonitor) },
    handler: async (req) => {
      const q = req.query;
      if (q.oab !== undefined || q.oab_estado !== undefined || q.oab_numero !== undefined) {
        // One OAB (what integrators ask, conventions §4.12): its monitor, live or removed; 404 when never monitored.
        const monitor = await ownMonitor(s, req.auth!.account.id, oabOfRequest(q, 'query'), 'remove');
        const pagination = { limit: 1, nextCursor: null, page: 1 };
        return { data: listData(req, s.config, 'items', [intimationView(monitor)], pagination, 1), meta: { pagination } };
      }
      return monitorPage(s, req, 'intimacoes.oab', MONITOR_READS.INTIMACOES.list, intimationView);
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/v1/intimacoes',
    meta: {
      class: 'search',
      auth: true,
      charge: CONSULTA,
      tag: TAG,
      summary: 'Intimações of monitored OABs',
      description:
        `Query: ${OAB_FORMS}, repeatable, or \`oabs=SP:123456,RJ:98765\` (up to 100); \`data_inicio\` / \`data_fim\` (yyyy-mm-dd, inclusive), ` +
        `\`tipo_comunicacao\`, \`limit\` 1–100, \`cursor\`. ` +
        'The stored DJEN publications naming those OABs, newest first, each with `diarioId` for GET /v1/intimacoes/publicacoes/{diarioId}. ' +
        'Only OABs with a live intimação monitor of the account are read; the others are listed in `meta.missingMonitorings` ' +
        '(none monitored: 422 MONITOR_REQUIRED). ' +
        'One flat charge (`intimacoes.consulta`) per page; an empty page is free.',
    },
    schema: {
      querystring: IntimationsQuery,
      data: listSchema('intimacoes', Intimation, {
        oabs: Type.Array(OabPair),
        missingMonitorings: Type.Array(OabPair, { description: 'OABs asked for without a live intimação monitor: nothing is read for them.' }),
        filters: Type.Object({ desde: Nullable(Type.String()), ate: Nullable(Type.String()) }),
      }),
    },
    handler: async (req) => {
      const oabs = requestedOabs(req.query, 'query').map((o) => o.canonical);
      const range = dayRange(req.query);
      const monitored = new Set((await liveMonitorsOf(s.db, req.auth!.account.id, 'INTIMACOES', 'OAB', oabs)).map((m) => m.valor));
      const missingMonitorings = oabs.filter((o) => !monitored.has(o));
      if (monitored.size === 0) {
        throw new ApiError('MONITOR_REQUIRED', 'None of these OABs has an intimação monitor in this account: create one with POST /v1/intimacoes/oab first.', {
          missingMonitorings,
        });
      }
      const read = oabs.filter((o) => monitored.has(o));
      const tipoComunicacao = req.query.tipo_comunicacao;
      const listing = `intimacoes:${listingTag([...read, range.desde ?? '', range.ate ?? '', tipoComunicacao ?? ''])}`;
      const shown = await listPage(req, s.config, {
        listing,
        keys: ['data', 'id'],
        read: (limit, before?: DayPosition) => intimationsOf(s.db, read, { ...range, tipoComunicacao, limit, before }),
        position: (r) => ({ data: r.data_disponibilizacao, id: r.id }),
        name: 'intimacoes',
        view: (rows) => rows.map((r) => intimationItem(storedPublication(r), pub.links, read)),
      });
      const data = {
        oabs: read.map(oabPair),
        missingMonitorings: missingMonitorings.map(oabPair),
        filters: { desde: range.desde ?? null, ate: range.ate ?? null },
        ...shown.data,
      };
      return { data, meta: { pagination: shown.pagination, oabs: read, missingMonitorings }, empty: shown.rows.length === 0 };
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/v1/intimacoes/historico',
    meta: {
      class: 'monitor',
      auth: true,
      tag: TAG,
      summary: "What the account's intimação monitors matched",
      description:
        'Free. Every publication an intimação monitor of the account matched, newest match first: the monitor, the OAB, whether it was news ' +
        '(`notificado`: an event was emitted, with `eventoId`) and its webhook delivery, and the publication itself. ' +
        `Filters: ${OAB_FORMS} (repeatable, or \`oabs\`), \`data_inicio\` / \`data_fim\` (the publication's day, inclusive). Cursor pagination.`,
    },
    schema: { querystring: HistoryQuery, data: listSchema('items', IntimationMatch) },
    handler: async (req) => {
      const q = req.query;
      const named = q.oab !== undefined || q.oabs !== undefined || q.oab_estado !== undefined || q.oab_numero !== undefined;
      const oabs = named ? requestedOabs(q, 'query').map((o) => o.canonical) : undefined;
      const range = dayRange(q);
      const listing = matchListing(oabs, range);
      const { data, pagination } = await listPage(req, s.config, {
        listing,
        keys: ['c', 'p', 'm'],
        read: (limit, before?: MatchPosition) => matchesOf(s.db, req.auth!.account.id, { ...range, oabs, limit, before }),
        position: (r) => ({ c: r.criado_em, p: r.publicacao_id, m: r.monitor_id }),
        name: 'items',
        view: async (rows) => {
          const deliveries = await deliveriesOf(
            s.db,
            rows.filter((r) => r.evento_id).map((r) => ({ eventId: r.evento_id!, monitorId: r.monitor_id })),
          );
          return rows.map((r) => ({
            monitoramentoId: r.monitor_id,
            oab: r.oab,
            correspondidoEm: r.criado_em,
            notificado: r.evento_id !== null,
            eventoId: r.evento_id,
            entrega: (r.evento_id && deliveries.get(`${r.evento_id}|${r.monitor_id}`)) || null,
            publicacao: intimationItem(storedPublication(r.publication), pub.links, [r.oab]),
          }));
        },
      });
      return { data, meta: { pagination } };
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/v1/intimacoes/publicacoes/:diarioId',
    meta: {
      class: 'lookup',
      auth: true,
      async: true,
      tag: TAG,
      summary: 'Content of a publication',
      description:
        "Free. The publication's full text as plain text, its parties and lawyers, and three links kept apart: `link_publicacao_tribunal` (the act in the " +
        "court's own system, opens in a browser; may be null), " +
        "`certidao` (DJEN's public certidão de publicação, PDF) and `link_api` (this resource). A publication not stored yet is fetched from DJEN (and " +
        'stored); none there: 404 PUBLICATION_NOT_FOUND. ' +
        'A DJEN failure is 503 SOURCE_UNAVAILABLE / 504 SOURCE_TIMEOUT, never a 404.',
    },
    schema: { params: PublicationParams, data: Intimation },
    handler: async (req) => {
      const id = req.params.diarioId;
      const stored = await findPublication(s.db, id);
      if (stored) return { data: intimationItem(stored, pub.links) };
      // DJEN ids are numbers: anything else cannot be there, and is not worth a request of its budget.
      const fetched = /^\d{1,20}$/.test(id) ? await s.sources.publications.fetchOne(id) : null;
      if (!fetched) throw new ApiError('PUBLICATION_NOT_FOUND', `No publication "${id}" in the store or at DJEN.`, { diarioId: id });
      await pub.ingest.ingest([fetched], s.sources.publications.info);
      return { data: intimationItem(fetched, pub.links) };
    },
  });
}

function oabTarget(oab: Oab) {
  return { tipo: 'OAB' as const, valor: oab.canonical, termo: oab.canonical };
}

/** Whether this request's monitors will call back: their own `webhook_url` (MONITOR), else the account's active webhook (CONTA). */
async function callbackOf(s: Services, accountId: string, webhookUrl: string | null): Promise<{ enabled: boolean; mode: 'MONITOR' | 'CONTA' | null }> {
  if (webhookUrl) return { enabled: true, mode: 'MONITOR' };
  const config = await s.webhooks.configs.get(accountId);
  return config?.url && config.ativo ? { enabled: true, mode: 'CONTA' } : { enabled: false, mode: null };
}

/** The account's monitor of this OAB for an update (404, or 422 once removed) or a removal (the removed one again). */
async function ownMonitor(s: Services, accountId: string, oab: Oab, purpose: 'update' | 'remove'): Promise<PublicationMonitorRow> {
  const target = oabTarget(oab);
  const live = await findOfTarget(s.db, accountId, 'INTIMACOES', target, 'live');
  if (live) return live;
  const removed = await findOfTarget(s.db, accountId, 'INTIMACOES', target, 'removed');
  if (removed && purpose === 'update') throw deactivated(removed);
  if (removed) return removed;
  throw new ApiError('NOT_FOUND', `No intimação monitor of OAB ${oab.canonical} in this account.`, { oab: oab.canonical });
}
