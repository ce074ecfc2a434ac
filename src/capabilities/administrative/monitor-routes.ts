/**
 * Administrative-process monitors (spec §4.8 `processos-administrativos`, §6 pattern 2): create by
 * NUP (charged), list, read, remove (free). Checks and renewals run in monitor-cycle.ts; news is the
 * `nova_movimentacao_administrativa` event, to `webhook_url` when set, else the account webhook. The
 * routes are platform/monitoring/paid-monitor-routes.ts with the texts and the body's NUP.
 */
import type { FastifyInstance } from 'fastify';
import { parseNup } from '../../platform/identifiers/nup.ts';
import type { Services } from '../../platform/services.ts';
import { paidMonitorRoutes } from '../../platform/monitoring/paid-monitor-routes.ts';
import { ADMIN_MONITOR_QUERY_TYPE, ADMIN_MONITORS } from './monitor-lifecycle.ts';
import { ADMIN_MONITOR_READS } from './monitor-store.ts';
import { adminMonitorView } from './present.ts';
import { AdminMonitor, CreateAdminMonitorBody } from './schemas.ts';
import type { AdministrativeService } from './service.ts';

const TAG = 'Monitoramento';
const PATH = '/v1/monitoramentos/processos-administrativos';

const RULES =
  "Frequency: `HORARIA`, `DIARIA` (default), `SEMANAL`, `MENSAL` (1, 24, 168, 720 × TRAMITA_MONITOR_INTERVAL_MS), within Protocolo Integrado's budget " +
  '(TRAMITA_PROTOCOLO_REQUESTS_PER_MINUTE: one lookup per NUP however many accounts follow it). ' +
  "Price: the plan's `monitor.processo_administrativo` (`preco`), charged at creation and every 30 days while ATIVO; a renewal the balance does not cover " +
  'suspends it (SUSPENSO) until it is created again. ' +
  'Event: `nova_movimentacao_administrativa` with the new tramitações (`novasTramitacoes`, newest first), to `webhook_url` when set, else the account ' +
  'webhook, and to the event feed. ' +
  'A check whose source failed (a captcha page included) emits nothing, sets `ultimoErro` and is tried again at the next cycle.';

export function adminMonitorRoutes(app: FastifyInstance, s: Services, service: AdministrativeService): void {
  paidMonitorRoutes(app, s, {
    lifecycle: ADMIN_MONITORS,
    path: PATH,
    tag: TAG,
    charge: ADMIN_MONITOR_QUERY_TYPE,
    listing: 'monitoramentos.administrativos',
    noun: 'administrative-process monitor',
    names: { one: 'an administrative-process monitor', many: 'administrative-process monitors', removal: 'Deactivate' },
    schemas: { body: CreateAdminMonitorBody, view: AdminMonitor },
    statusFilter: null,
    texts: {
      create:
        `Body: \`nup\` (masked or 17 digits; 400 INVALID_NUP, 422 BODY_NOT_COVERED), \`webhook_url\` (HTTPS; INVALID_WEBHOOK_URL otherwise), \`frequencia\`. ` +
        `201 with the new monitor, checked at the next cycle. ` +
        "The account's live monitor of the same NUP is returned instead (200, free), with a changed `webhook_url` or `frequencia` applied; a SUSPENSO one is " +
        'reactivated (200, charged, a new period). ' +
        RULES,
      remove:
        'Free. Status REMOVIDO: checks, charges and events stop at once; it stays readable (spec §3.2). Removing it again returns it unchanged. Another ' +
        "account's id is 404 NOT_FOUND.",
    },
    target: (body) => {
      const nup = parseNup(body.nup, 'nup');
      service.bodies.of(nup, 'nup');
      return { nup: nup.digits, frequencia: body.frequencia };
    },
    view: adminMonitorView,
    store: ADMIN_MONITOR_READS,
  });
}
