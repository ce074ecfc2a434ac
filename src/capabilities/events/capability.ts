/** The pull feed of events and its acknowledgement. */
import type { Capability } from '../../platform/capability.ts';
import type { Services } from '../../platform/services.ts';
import { eventRoutes } from './routes.ts';

export function eventsCapability(s: Services): Capability {
  return { name: 'events', routes: (app) => eventRoutes(app, s), jobs: [], schedules: [] };
}
