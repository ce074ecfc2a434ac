/**
 * The account webhook (spec §2.4, §6): its configuration, the secret (shown once, regenerable), a free
 * signed test delivery, the delivery history with every attempt, and resend. Deliveries themselves
 * are made by the `webhooks.entregar` job (platform/webhooks/deliver-job.ts).
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { WebhookAttemptsTable, WebhookConfigsTable, WebhookDeliveriesTable } from '../../platform/db/schema.ts';
import { EVENT_NAMES } from '../../platform/events/kinds.ts';
import { ApiError } from '../../platform/errors.ts';
import { listSchema } from '../../platform/http/list.ts';
import { listPage } from '../../platform/http/listing.ts';
import { defineRoute } from '../../platform/http/route.ts';
import type { Services } from '../../platform/services.ts';
import { enabledKinds } from '../../platform/webhooks/planner.ts';
import type { EndpointHealthView } from '../../platform/webhooks/endpoint-health.ts';
import { reenableEndpoint, resendDelivery, sendTestDelivery, updateWebhook } from './actions.ts';
import {
  Delivery,
  DeliveryParams,
  DeliveryQuery,
  Endpoints,
  Reenabled,
  ReenableBody,
  Secret,
  TestResult,
  WebhookConfig,
  WebhookConfigBody,
} from './schemas.ts';

const TAG = 'Webhooks';

export function configView(c: WebhookConfigsTable, secret?: string) {
  return {
    url: c.url,
    formato: c.formato,
    ativo: c.ativo === 1,
    eventos: enabledKinds(c),
    eventosDisponiveis: EVENT_NAMES,
    nomesLegados: c.nomes_legados === 1,
    tokenConfigurado: c.token_sealed !== null,
    segredoPrefixo: c.secret_prefix,
    segredo: secret ?? null,
    atualizadoEm: c.updated_at,
  };
}

export function deliveryView(d: WebhookDeliveriesTable, attempts: WebhookAttemptsTable[]) {
  return {
    id: d.id,
    eventoId: d.event_id,
    evento: d.event_name,
    status: d.status,
    destino: d.monitor_id ? ('monitor' as const) : ('conta' as const),
    monitor: d.monitor_id ? { tipo: d.monitor_type!, id: d.monitor_id } : null,
    url: d.url,
    tentativas: d.attempts,
    maxTentativas: d.max_attempts,
    ultimoStatusHttp: d.last_status_code,
    ultimoErro: d.last_error,
    proximaTentativaEm: d.next_attempt_at,
    reenvioDe: d.resent_from,
    criadaEm: d.created_at,
    entregueEm: d.delivered_at,
    historico: attempts.map((a) => ({
      tentativa: a.attempt,
      url: a.url,
      iniciadaEm: a.started_at,
      statusHttp: a.status_code,
      latenciaMs: a.latency_ms,
      erro: a.error,
      respostaTrecho: a.response_excerpt,
      proximaTentativaEm: a.next_attempt_at,
    })),
  };
}

/** A failing or disabled endpoint; `disableAfterMs` 0 never disables. */
export function endpointView(e: EndpointHealthView, accountUrl: string | null, disableAfterMs: number) {
  return {
    url: e.url,
    destino: e.url === accountUrl ? ('conta' as const) : ('monitor' as const),
    situacao: e.disabled_at ? ('DESATIVADO' as const) : ('FALHANDO' as const),
    falhandoDesde: e.failing_since,
    ultimaFalhaEm: e.last_failure_at,
    ultimoErro: e.last_error,
    desativadoEm: e.disabled_at,
    desativarEm: e.disabled_at || disableAfterMs === 0 ? null : new Date(Date.parse(e.failing_since) + disableAfterMs).toISOString(),
    entregasRetidas: e.held,
  };
}

export function webhookRoutes(app: FastifyInstance, s: Services): void {
  const { configs, deliveries } = s.webhooks;
  const withAttempts = async (d: WebhookDeliveriesTable) => deliveryView(d, (await deliveries.attempts([d.id])).get(d.id)!);
  const ownDelivery = async (accountId: string, id: string) => {
    const d = await deliveries.get(id, accountId);
    if (!d) throw new ApiError('NOT_FOUND', `No delivery "${id}" in this account.`);
    return d;
  };

  defineRoute(app, {
    method: 'GET',
    url: '/v1/conta/webhook',
    meta: {
      class: 'account',
      auth: true,
      tag: TAG,
      summary: 'The account webhook configuration',
      description:
        'Free. The first read creates the configuration (no URL, active, every event, NORMALIZED) with a new HMAC secret, shown in `segredo` in that ' +
        'response only; afterwards only `segredoPrefixo`. The bearer token is never shown back.',
    },
    schema: { data: WebhookConfig },
    handler: async (req) => {
      const { config, secret } = await configs.ensure(req.auth!.account.id);
      return { data: configView(config, secret) };
    },
  });

  defineRoute(app, {
    method: 'PUT',
    url: '/v1/conta/webhook',
    meta: {
      class: 'account',
      auth: true,
      tag: TAG,
      summary: 'Set the account webhook',
      description:
        'Free. Fields left out keep their value; `null` clears `url`, `token` or `eventos` (null = every kind). The URL must be HTTPS and reach a public ' +
        'address (400 INVALID_WEBHOOK_URL); it is checked again at every connection. `ativo: false` stops every delivery of the ' +
        "account (to the account URL and to monitors' `webhook_url`); events stay readable in GET /v1/eventos.",
    },
    schema: { body: WebhookConfigBody, data: WebhookConfig },
    handler: async (req) => {
      const b = req.body;
      const { config, secret } = await updateWebhook(s, req.auth!.account.id, {
        url: b.url,
        token: b.token,
        formato: b.formato,
        ativo: b.ativo,
        eventos: b.eventos,
        nomesLegados: b.nomes_legados,
      });
      return { data: configView(config, secret) };
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/v1/conta/webhook/segredo',
    meta: {
      class: 'account',
      auth: true,
      tag: TAG,
      summary: 'Regenerate the HMAC secret',
      description: 'Free. Returns the new secret once; the old one stops signing at once, including retries of pending deliveries.',
    },
    schema: { body: Type.Optional(Type.Object({}, { additionalProperties: false })), data: Secret },
    handler: async (req) => {
      const { config, secret } = await configs.regenerateSecret(req.auth!.account.id);
      return { data: { segredo: secret, segredoPrefixo: config.secret_prefix } };
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/v1/conta/webhook/teste',
    meta: {
      class: 'account',
      auth: true,
      tag: TAG,
      summary: 'Send a signed test delivery now',
      description:
        'Free. One attempt to the account URL, made during this request (even while the webhook is inactive), recorded in the history; event `teste`. 422 ' +
        'WEBHOOK_NOT_CONFIGURED without a URL.',
    },
    schema: { body: Type.Optional(Type.Object({}, { additionalProperties: false })), data: TestResult },
    handler: async (req) => {
      const { deliveryId, delivered } = await sendTestDelivery(s, req.auth!.account.id);
      return { data: { entregue: delivered, entrega: await withAttempts((await deliveries.get(deliveryId))!) } };
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/v1/conta/webhook/destinos',
    meta: {
      class: 'account',
      auth: true,
      tag: TAG,
      summary: 'Failing and disabled endpoints',
      description:
        "Free. The account's endpoints (its URL, monitors' `webhook_url`) whose last attempt failed: FALHANDO since the first failure after the last " +
        'success, DESATIVADO once every attempt has failed for TRAMITA_WEBHOOK_DISABLE_AFTER_HOURS (default 120 h). A disabled endpoint gets no ' +
        'attempt; its deliveries are kept as RETIDA until POST /v1/conta/webhook/destinos/reativar. Healthy endpoints are not listed.',
    },
    schema: { data: Endpoints },
    handler: async (req) => {
      const accountId = req.auth!.account.id;
      const accountUrl = (await configs.get(accountId))?.url ?? null;
      const rows = await s.webhooks.endpoints.list(accountId);
      const period = s.config.webhookDisableAfterHours * 3_600_000;
      return { data: { destinos: rows.map((e) => endpointView(e, accountUrl, period)) } };
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/v1/conta/webhook/destinos/reativar',
    meta: {
      class: 'account',
      auth: true,
      tag: TAG,
      summary: 'Re-enable a disabled endpoint',
      description:
        'Free. The endpoint gets attempts again, its failure history forgotten. `reenviar: true` sends again every delivery kept (RETIDA) while it ' +
        'was disabled, each with a whole retry ladder and its own X-Service-Delivery-Id unchanged; otherwise they end DESCARTADA (each can ' +
        'still be resent). Idempotent: an endpoint that is not disabled is left as it is (`reativado: false`).',
    },
    schema: { body: ReenableBody, data: Reenabled },
    handler: async (req) => {
      const { reenabled, resent, discarded } = await reenableEndpoint(s, req.auth!.account.id, req.body.url, req.body.reenviar ?? false);
      return { data: { url: req.body.url, reativado: reenabled, reenviadas: resent, descartadas: discarded } };
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/v1/conta/webhook/entregas',
    meta: {
      class: 'account',
      auth: true,
      tag: TAG,
      summary: 'Delivery history, newest first',
      description:
        'Free. Every delivery with each attempt (time, HTTP status, latency, the first KiB of the answer, the next attempt). ' +
        'Filters: `status`, `evento`. Cursor pagination.',
    },
    schema: { querystring: DeliveryQuery, data: listSchema('items', Delivery) },
    handler: async (req) => {
      const { data, pagination } = await listPage(req, s.config, {
        listing: `entregas:${req.query.status ?? ''}:${req.query.evento ?? ''}`,
        keys: ['id'],
        read: (limit, after?: { id: string }) =>
          deliveries.list(req.auth!.account.id, { status: req.query.status, event: req.query.evento, before: after?.id, limit }),
        position: (d) => ({ id: d.id }),
        name: 'items',
        view: async (items) => {
          const attempts = await deliveries.attempts(items.map((d) => d.id));
          return items.map((d) => deliveryView(d, attempts.get(d.id)!));
        },
      });
      return { data, meta: { pagination } };
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/v1/conta/webhook/entregas/:id',
    meta: { class: 'account', auth: true, tag: TAG, summary: 'One delivery with its attempts', description: "Free. Another account's delivery is 404." },
    schema: { params: DeliveryParams, data: Delivery },
    handler: async (req) => ({ data: await withAttempts(await ownDelivery(req.auth!.account.id, req.params.id)) }),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/v1/conta/webhook/entregas/:id/reenviar',
    meta: {
      class: 'account',
      auth: true,
      tag: TAG,
      summary: 'Resend a delivery',
      success: [201],
      description:
        "Free. A new delivery (its own X-Service-Delivery-Id, `reenvioDe` = the original) of the same bytes: the payload `id` stays the event's, so " +
        'receivers that deduplicate by `id` see one event. It has the full retry ladder. 422 WEBHOOK_NOT_CONFIGURED when it would go ' +
        'to the account URL and there is none.',
    },
    schema: { params: DeliveryParams, body: Type.Optional(Type.Object({}, { additionalProperties: false })), data: Delivery },
    handler: async (req) => {
      const id = await resendDelivery(s, req.auth!.account.id, req.params.id);
      return { status: 201, data: await withAttempts((await deliveries.get(id))!) };
    },
  });
}
