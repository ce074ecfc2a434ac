/** The /v1 root (catalog) and the OpenAPI document (spec §4.1). */
import type { Capability } from '../../platform/capability.ts';
import type { Services } from '../../platform/services.ts';
import { discoveryRoutes } from './routes.ts';

export function discoveryCapability(s: Services): Capability {
  return { name: 'discovery', routes: (app) => discoveryRoutes(app, s), jobs: [], schedules: [] };
}
