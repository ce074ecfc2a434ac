/** The account webhook (spec §6): configuration, secret, test delivery, history, resend. Deliveries run as a platform job. */
import type { Capability } from '../../platform/capability.ts';
import type { Services } from '../../platform/services.ts';
import { webhookRoutes } from './routes.ts';

export function webhooksCapability(s: Services): Capability {
  return { name: 'webhooks', routes: (app) => webhookRoutes(app, s), jobs: [], schedules: [] };
}
