/**
 * Administrative-process monitors (spec §4.8 `processos-administrativos`, §6 pattern 2): create by
 * NUP (charged), list, read, remove (free). Checks and renewals run in monitor-cycle.ts; news is the
 * `nova_movimentacao_administrativa` event, to `webhook_url` when set, else the account webhook.
 */
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../platform/errors.ts';
import { listData, listSchema } from '../../platform/http/list.ts';
import { decodeCursor, page, pageWindow } from '../../platform/http/pagination.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { parseNup } from '../../platform/identifiers/nup.ts';
import { periodDebit } from '../../platform/monitoring/renewal.ts';
import type { Services } from '../../platform/services.ts';
import { webhookUrlOf } from '../../platform/monitoring/webhook-url.ts';
import { createMonitor, creationStatus, removeOwnMonitor } from '../../platform/monitoring/lifecycle.ts';
import { ADMIN_MONITOR_QUERY_TYPE, ADMIN_MONITORS } from './monitor-lifecycle.ts';
import { adminMonitorView, findAdminMonitor, listAdminMonitors } from './monitor-store.ts';
import { AdminMonitor, AdminMonitorParams, CreateAdminMonitorBody, ListAdminMonitorsQuery } from './schemas.ts';
import type { AdministrativeService } from './service.ts';

const TAG = 'Monitoramento';
const PATH = '/v1/monitoramentos/processos-administrativos';

const RULES = 'Frequency: `HORARIA`, `DIARIA` (default), `SEMANAL`, `MENSAL` (1, 24, 168, 720 × TRAMITA_MONITOR_INTERVAL_MS), within Protocolo Integrado\'s budget (TRAMITA_PROTOCOLO_REQUESTS_PER_MINUTE: one lookup per NUP however many accounts follow it). '
  + 'Price: the plan\'s `monitor.processo_administrativo` (`preco`), charged at creation and every 30 days while ATIVO; a renewal the balance does not cover suspends it (SUSPENSO) until it is created again. '
  + 'Event: `nova_movimentacao_administrativa` with the new tramitações (`novasTramitacoes`, newest first), to `webhook_url` when set, else the account webhook, and to the event feed. '
  + 'A check whose source failed (a captcha page included) emits nothing, sets `ultimoErro` and is tried again at the next cycle.';

export function adminMonitorRoutes(app: FastifyInstance, s: Services, service: AdministrativeService): void {
  defineRoute(app, {
    method: 'POST', url: PATH,
    meta: { class: 'monitor', auth: true, charge: ADMIN_MONITOR_QUERY_TYPE, chargeWay: 'in-handler', success: [200, 201], tag: TAG, summary: 'Create an administrative-process monitor',
      description: `Body: \`nup\` (masked or 17 digits; 400 INVALID_NUP, 422 BODY_NOT_COVERED), \`webhook_url\` (HTTPS; INVALID_WEBHOOK_URL otherwise), \`frequencia\`. 201 with the new monitor, checked at the next cycle. `
        + 'The account\'s live monitor of the same NUP is returned instead (200, free), with a changed `webhook_url` or `frequencia` applied; a SUSPENSO one is reactivated (200, charged, a new period). ' + RULES },
    schema: { body: CreateAdminMonitorBody, data: AdminMonitor },
    handler: async (req, op) => {
      const auth = req.auth!;
      const nup = parseNup(req.body.nup, 'nup');
      service.bodies.of(nup, 'nup');
      const webhookUrl = await webhookUrlOf(s, auth.account.id, req.body.webhook_url);
      const ask = { accountId: auth.account.id, nup: nup.digits, webhookUrl, frequencia: req.body.frequencia, priceCentavos: op.priceCentavos };
      const creation = await createMonitor(s, ADMIN_MONITORS, ask, (trx, c) => op.chargeIn(trx, { debits: [periodDebit(c.monitor)], status: creationStatus(c) }));
      const data = adminMonitorView(creation.monitor);
      return { status: creationStatus(creation), data };
    },
  });

  defineRoute(app, {
    method: 'GET', url: PATH,
    meta: { class: 'monitor', auth: true, tag: TAG, summary: 'List administrative-process monitors, newest first',
      description: 'Free. ATIVO and SUSPENSO monitors unless `status` asks for one status (REMOVIDO included). Cursor pagination: `limit` 1–100 (default 20), `cursor` = `meta.pagination.nextCursor`.' },
    schema: { querystring: ListAdminMonitorsQuery, data: listSchema('items', AdminMonitor) },
    handler: async (req) => {
      const listing = `monitoramentos.administrativos:${req.query.status ?? 'vivos'}`;
      const w = pageWindow(req.query);
      const before = decodeCursor<{ criadoEm: string; id: string }>(listing, req.query.cursor, ['criadoEm', 'id']);
      const rows = await listAdminMonitors(s.db, req.auth!.account.id, { status: req.query.status, limit: w.read, before });
      const { items, pagination } = page(rows, w, listing, (r) => ({ criadoEm: r.criado_em, id: r.id }));
      return { data: listData(req, s.config, 'items', items.map(adminMonitorView), pagination), meta: { pagination } };
    },
  });

  defineRoute(app, {
    method: 'GET', url: `${PATH}/:id`,
    meta: { class: 'monitor', auth: true, tag: TAG, summary: 'Read an administrative-process monitor',
      description: 'Free. Its status, situation, counters, next check and charge, and the last error. Another account\'s id is 404 NOT_FOUND.' },
    schema: { params: AdminMonitorParams, data: AdminMonitor },
    handler: async (req) => {
      const m = await findAdminMonitor(s.db, req.auth!.account.id, req.params.id);
      if (!m) throw notFound(req.params.id);
      return { data: adminMonitorView(m) };
    },
  });

  defineRoute(app, {
    method: 'DELETE', url: `${PATH}/:id`,
    meta: { class: 'monitor', auth: true, tag: TAG, summary: 'Deactivate an administrative-process monitor',
      description: 'Free. Status REMOVIDO: checks, charges and events stop at once; it stays readable (spec §3.2). Removing it again returns it unchanged. Another account\'s id is 404 NOT_FOUND.' },
    schema: { params: AdminMonitorParams, data: AdminMonitor },
    handler: async (req) => {
      const m = await removeOwnMonitor(s, ADMIN_MONITORS, req.auth!.account.id, req.params.id);
      if (!m) throw notFound(req.params.id);
      return { data: adminMonitorView(m) };
    },
  });
}

function notFound(id: string): ApiError {
  return new ApiError('NOT_FOUND', `No administrative-process monitor "${id}" in this account.`);
}
