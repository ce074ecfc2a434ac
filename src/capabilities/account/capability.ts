/** The account (spec §4.1, §8): balance, statement, prices, integrator view. */
import type { Capability } from '../../platform/capability.ts';
import type { Services } from '../../platform/services.ts';
import { accountRoutes } from './routes.ts';

export function accountCapability(s: Services): Capability {
  return { name: 'account', routes: (app) => accountRoutes(app, s), jobs: [], schedules: [] };
}
