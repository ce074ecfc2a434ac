/** The electoral bulletin board (spec §4.6): searched and downloaded live through the operator's provider; no jobs, nothing stored. */
import type { Capability } from '../../platform/capability.ts';
import type { Services } from '../../platform/services.ts';
import { muralRoutes } from './routes.ts';

export function muralCapability(s: Services): Capability {
  return { name: 'mural', routes: (app) => muralRoutes(app, s), jobs: [], schedules: [] };
}
