/**
 * The account webhook's changes, one function each, shared by the API routes (routes.ts) and the
 * console (capabilities/console): the same validation (INVALID_WEBHOOK_URL, unknown event kinds), the
 * same events and the same deliveries whichever surface asks.
 */
import { iso } from '../../platform/clock.ts';
import type { WebhookConfigsTable } from '../../platform/db/schema.ts';
import { ApiError } from '../../platform/errors.ts';
import { EVENT_NAMES, isEventKind } from '../../platform/events/kinds.ts';
import { eventBody } from '../../platform/events/payload.ts';
import type { Services } from '../../platform/services.ts';
import { attemptDelivery } from '../../platform/webhooks/deliver-job.ts';
import type { WebhookConfigPatch } from '../../platform/webhooks/config-store.ts';
import { checkWebhookUrl } from '../../platform/webhooks/url-guard.ts';

/** Fields left undefined keep their value; null clears `url`, `token` or `eventos` (null = every kind). */
export async function updateWebhook(s: Services, accountId: string, change: WebhookConfigPatch): Promise<{ config: WebhookConfigsTable; secret?: string }> {
  const url =
    change.url === undefined || change.url === null
      ? change.url
      : (await checkWebhookUrl(change.url, { allowPrivate: s.config.webhookAllowPrivate, field: 'url' })).href;
  const unknown = change.eventos?.find((e) => !isEventKind(e));
  if (unknown)
    throw new ApiError('INVALID_PARAMETER', `"${unknown}" is not an event kind. Known: ${EVENT_NAMES.join(', ')}.`, {
      field: 'eventos',
      in: 'body',
      value: unknown,
    });
  return s.webhooks.configs.update(accountId, { ...change, url });
}

/** One signed `teste` delivery to the account URL, attempted now (even while inactive); its delivery id. */
export async function sendTestDelivery(s: Services, accountId: string): Promise<{ deliveryId: string; delivered: boolean }> {
  const { config } = await s.webhooks.configs.ensure(accountId);
  if (!config.url) throw new ApiError('WEBHOOK_NOT_CONFIGURED');
  const deliveryId = await s.db.transaction().execute(async (trx) => {
    const data = { mensagem: 'Entrega de teste do Tramita.', contaId: accountId, numeroCnj: null, tribunal: null };
    const eventId = await s.events.record(trx, { kind: 'teste', numeroCnj: null, tribunal: null, data });
    const body = eventBody(config.formato, { id: eventId, event: 'teste', source: 'tramita', created_at: iso(s.clock.now()), data, raw: null });
    return s.webhooks.planner.create(trx, {
      accountId,
      eventId,
      eventName: 'teste',
      monitorType: null,
      monitorId: null,
      url: null,
      body,
      maxAttempts: 1,
      enqueue: false,
    });
  });
  const result = await attemptDelivery(s, deliveryId, { evenIfInactive: true });
  return { deliveryId, delivered: result?.ok ?? false };
}

/** A new delivery of the same bytes (`reenvioDe` = the original), with the full retry ladder; its id. */
export async function resendDelivery(s: Services, accountId: string, deliveryId: string): Promise<string> {
  const original = await s.webhooks.deliveries.get(deliveryId, accountId);
  if (!original) throw new ApiError('NOT_FOUND', `No delivery "${deliveryId}" in this account.`);
  if (original.url === null && !(await s.webhooks.configs.get(accountId))?.url) throw new ApiError('WEBHOOK_NOT_CONFIGURED');
  return s.db.transaction().execute((trx) =>
    s.webhooks.planner.create(trx, {
      accountId,
      eventId: original.event_id,
      eventName: original.event_name,
      monitorType: original.monitor_type,
      monitorId: original.monitor_id,
      url: original.url,
      body: original.body,
      resentFrom: original.id,
    }),
  );
}

/**
 * Re-enables an endpoint of the account (endpoint health, docs/webhooks.md): when disabled, the
 * deliveries it kept are resent (`resend`) or discarded. Idempotent, as Svix's `disabled: false`: an
 * endpoint that is not disabled (or not the account's) is left as it is, `reenabled: false`.
 */
export async function reenableEndpoint(
  s: Services,
  accountId: string,
  url: string,
  resend: boolean,
): Promise<{ reenabled: boolean; resent: number; discarded: number }> {
  const done = await s.webhooks.endpoints.reenable(accountId, url, resend);
  if (!done) return { reenabled: false, resent: 0, discarded: 0 };
  s.log.info({ account: accountId, resent: done.resent, discarded: done.discarded }, 'webhook endpoint re-enabled by the account');
  return { reenabled: true, ...done };
}
