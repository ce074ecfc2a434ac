/** Courts and their coverage (spec §4.7). */
import type { Capability } from '../../platform/capability.ts';
import type { Services } from '../../platform/services.ts';
import { courtRoutes } from './routes.ts';

export function courtsCapability(s: Services): Capability {
  return { name: 'courts', routes: (app) => courtRoutes(app, s), jobs: [], schedules: [] };
}
