/**
 * Judicial-publication monitors (spec §4.8): follow a term, an OAB or a case number in the national
 * gazette (DJEN), optionally in some courts only. Creation is charged (`monitor.publicacoes`, per
 * 30-day period); reading, listing and deactivating are free. The publication cycle
 * (publications/cycle.ts) asks DJEN for them and the ingest emits the events.
 */
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../platform/errors.ts';
import { decodeCursor, page, pageWindow } from '../../platform/http/pagination.ts';
import { listData, listSchema } from '../../platform/http/list.ts';
import { defineRoute } from '../../platform/http/route.ts';
import type { Services } from '../../platform/services.ts';
import { periodDebit } from '../../platform/monitoring/renewal.ts';
import {
  courtFilter, findMonitor, listMonitors, MONITOR_QUERY_TYPES, monitorView, type MonitorPosition,
} from '../publications/monitors.ts';
import { createMonitor, creationStatus, removeMonitor } from '../../platform/monitoring/lifecycle.ts';
import { webhookUrlOf } from '../../platform/monitoring/webhook-url.ts';
import { PUBLICATION_MONITORS } from '../publications/monitor-lifecycle.ts';
import { sourceFilter } from '../publications/monitor-sources.ts';
import { targetOf } from './input.ts';
import { CreatePublicationMonitorBody, ListPublicationMonitorsQuery, PublicationMonitorParams, PublicationMonitorView } from './schemas.ts';

const TAG = 'Monitoramento';
const PATH = '/v1/monitoramentos/publicacoes';
const QUERY_TYPE = MONITOR_QUERY_TYPES.PUBLICACOES;

const RULES = 'Checked every TRAMITA_MONITOR_INTERVAL_MS against DJEN (the first time for the last 30 days, then from 3 days before the previous check: DJEN publishes late). '
  + 'Each new publication it matches (the term anywhere in the text, parties or lawyers, accents and case ignored; the OAB in any spelling the court printed; the case by number), '
  + 'dated from its `desde` (the creation day) on, emits one event to `webhook_url` when set, else to the account webhook, and to GET /v1/eventos: '
  + '`publicacao_judicial_nova` for TERMO and OAB monitors, `diario_movimentacao_nova` for PROCESSO monitors (spec §6.4). Older publications are history: no event. '
  + 'Price: `monitor.publicacoes`, charged at creation and every 30 days while ATIVO; a renewal the balance does not cover suspends it (SUSPENSO) until it is created again.';

export function publicationMonitorRoutes(app: FastifyInstance, s: Services): void {
  defineRoute(app, {
    method: 'POST', url: PATH,
    meta: { class: 'monitor', auth: true, charge: QUERY_TYPE, chargeWay: 'in-handler', success: [200, 201], tag: TAG, summary: 'Create a judicial-publication monitor',
      description: 'Body: `tipo` (TERMO, OAB or PROCESSO; inferred when absent) and its value: `termo` (3–200 characters), `oab` or `oab_estado` + `oab_numero`, or `numero_cnj` '
        + '(two at once: 400 INVALID_PARAMETER); `tribunais` (court siglas; 422 UNKNOWN_COURT otherwise); `fontes` (DJEN, STF, TSE, TRE-<UF>: the gazettes watched; absent: all); `webhook_url` (HTTPS; INVALID_WEBHOOK_URL otherwise). '
        + '201 with the new monitor, charged. The account\'s live monitor of the same target is returned instead (200, free, `reused: true`, a given `webhook_url` / `tribunais` / `fontes` applied); '
        + `a SUSPENSO one is reactivated (200, charged, a new period). ${RULES}` },
    schema: { body: CreatePublicationMonitorBody, data: PublicationMonitorView },
    handler: async (req, op) => {
      const account = req.auth!.account;
      const target = targetOf(req.body);
      const tribunais = courtFilter(req.body.tribunais);
      const fontes = sourceFilter(req.body.fontes);
      const webhookUrl = await webhookUrlOf(s, account.id, req.body.webhook_url);
      const ask = { accountId: account.id, origem: 'PUBLICACOES', target, tribunais, fontes, webhookUrl, priceCentavos: op.priceCentavos } as const;
      const creation = await createMonitor(s, PUBLICATION_MONITORS, ask, (trx, c) => op.chargeIn(trx, { debits: [periodDebit(c.monitor)], status: creationStatus(c) }));
      const data = { ...monitorView(creation.monitor), reused: creation.kind === 'existing' };
      return { status: creationStatus(creation), data };
    },
  });

  defineRoute(app, {
    method: 'GET', url: PATH,
    meta: { class: 'monitor', auth: true, tag: TAG, summary: 'List judicial-publication monitors, newest first',
      description: 'Free. ATIVO and SUSPENSO monitors unless `status` asks for one status (REMOVIDO included). Cursor pagination: `limit` 1–100 (default 20), `cursor` = `meta.pagination.nextCursor`.' },
    schema: { querystring: ListPublicationMonitorsQuery, data: listSchema('items', PublicationMonitorView) },
    handler: async (req) => {
      const listing = `monitoramentos.publicacoes:${req.query.status ?? 'vivos'}`;
      const w = pageWindow(req.query);
      const before = decodeCursor<MonitorPosition>(listing, req.query.cursor, ['criadoEm', 'id']);
      const rows = await listMonitors(s.db, req.auth!.account.id, 'PUBLICACOES', { status: req.query.status, limit: w.read, before });
      const { items, pagination } = page(rows, w, listing, (r) => ({ criadoEm: r.criado_em, id: r.id }));
      return { data: listData(req, s.config, 'items', items.map(monitorView), pagination), meta: { pagination } };
    },
  });

  defineRoute(app, {
    method: 'GET', url: `${PATH}/:id`,
    meta: { class: 'monitor', auth: true, tag: TAG, summary: 'Read a judicial-publication monitor',
      description: 'Free. Its target, courts, status, publications matched, next check and charge, and the last error. Another account\'s id is 404 NOT_FOUND.' },
    schema: { params: PublicationMonitorParams, data: PublicationMonitorView },
    handler: async (req) => ({ data: monitorView(await own(s, req.auth!.account.id, req.params.id)) }),
  });

  defineRoute(app, {
    method: 'DELETE', url: `${PATH}/:id`,
    meta: { class: 'monitor', auth: true, tag: TAG, summary: 'Deactivate a judicial-publication monitor',
      description: 'Free. Status REMOVIDO: checks, charges and events stop at once; the monitor stays readable (spec §3.2: no physical deletion). '
        + 'Deactivating it again returns it unchanged. Another account\'s id is 404 NOT_FOUND.' },
    schema: { params: PublicationMonitorParams, data: PublicationMonitorView },
    handler: async (req) => ({ data: monitorView(await removeMonitor(s, PUBLICATION_MONITORS, await own(s, req.auth!.account.id, req.params.id))) }),
  });
}

async function own(s: Services, accountId: string, id: string) {
  const monitor = await findMonitor(s.db, accountId, 'PUBLICACOES', id);
  if (!monitor) throw new ApiError('NOT_FOUND', `No publication monitor "${id}" in this account.`);
  return monitor;
}
