/** The `webhook_url` a monitor's create or change asks for, whatever the monitor kind. */
import type { Services } from '../services.ts';
import { checkWebhookUrl } from '../webhooks/url-guard.ts';

/**
 * A request's `webhook_url`: HTTPS and public (400 INVALID_WEBHOOK_URL), normalized; undefined keeps,
 * null removes. Deliveries are signed with the account's secret, so the account gets one now.
 */
export async function webhookUrlOf(s: Services, accountId: string, raw: string | null | undefined): Promise<string | null | undefined> {
  if (typeof raw !== 'string') return raw;
  const url = (await checkWebhookUrl(raw, { allowPrivate: s.config.webhookAllowPrivate, field: 'webhook_url' })).href;
  await s.webhooks.configs.ensure(accountId);
  return url;
}
