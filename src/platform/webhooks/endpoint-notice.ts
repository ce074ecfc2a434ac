/**
 * Telling the account that one of its webhook endpoints was disabled (endpoint-health.ts): a warn line
 * and a metric for the operator, and the event `webhook_desativado` for the account, in its feed
 * (GET /v1/eventos) and delivered to its other endpoints: the account URL and the monitors'
 * `webhook_url`s it was delivered to within the failing period, those not disabled themselves. When
 * the disabled endpoint is the only one, the event's delivery to it is kept with the others and sent
 * if the account re-enables it with `reenviar`. The console shows the endpoint from its row.
 */
import { addMs, iso } from '../clock.ts';
import type { WebhookEndpointsTable } from '../db/schema.ts';
import type { Audience } from '../events/audience.ts';
import { telemetry } from '../observability/telemetry.ts';
import type { Services } from '../services.ts';

export async function announceDisabled(s: Services, endpoint: WebhookEndpointsTable): Promise<void> {
  telemetry.endpointsDisabled.inc();
  // Never the URL in logs: it may carry a token.
  s.log.warn(
    { account: endpoint.account_id, failingSince: endpoint.failing_since, error: endpoint.last_error },
    'webhook endpoint disabled: every delivery failed for TRAMITA_WEBHOOK_DISABLE_AFTER_HOURS',
  );
  const audience = await otherEndpoints(s, endpoint);
  const data = {
    numeroCnj: null,
    tribunal: null,
    url: endpoint.url,
    falhandoDesde: endpoint.failing_since,
    desativadoEm: endpoint.disabled_at,
    ultimoErro: endpoint.last_error,
    mensagem: 'Este destino de webhook falhou em todas as entregas pelo período configurado e foi desativado. Reative-o no console ou pela API.',
  };
  await s.db
    .transaction()
    .execute((trx) => s.events.record(trx, { kind: 'webhook_desativado', numeroCnj: null, tribunal: null, accountId: endpoint.account_id, audience, data }));
}

/** The account's endpoints other than the disabled ones; the account itself (its URL) when there is none left. */
async function otherEndpoints(s: Services, endpoint: WebhookEndpointsTable): Promise<Audience[]> {
  const accountId = endpoint.account_id;
  const disabled = await s.webhooks.endpoints.disabledUrls(accountId);
  const since = iso(addMs(s.clock.now(), -s.config.webhookDisableAfterHours * 3_600_000));
  const used = await s.db
    .selectFrom('webhook_deliveries')
    .select('url')
    .distinct()
    .where('account_id', '=', accountId)
    .where('url', 'is not', null)
    .where('created_at', '>=', since)
    .execute();
  const accountUrl = (await s.webhooks.configs.get(accountId))?.url ?? null;
  const out: Audience[] = accountUrl && !disabled.has(accountUrl) ? [{ accountId }] : [];
  for (const { url } of used) if (url && url !== accountUrl && !disabled.has(url)) out.push({ accountId, webhookUrl: url });
  return out.length > 0 ? out : [{ accountId }];
}
