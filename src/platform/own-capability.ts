/**
 * The platform's own share, in the shape of every capability (capability.ts): the status URL of
 * pending operations, housekeeping, and the delivery of webhooks that every capability's events
 * produce.
 */
import type { Capability } from './capability.ts';
import { pollRoute } from './async/poll-route.ts';
import { MAINTENANCE, maintenanceJob } from './maintenance.ts';
import type { Services } from './services.ts';
import { deliveryJob } from './webhooks/deliver-job.ts';

export function platformCapability(s: Services): Capability {
  return { name: 'platform', routes: (app) => pollRoute(app, s), jobs: [maintenanceJob(s), deliveryJob(s)], schedules: [MAINTENANCE] };
}
