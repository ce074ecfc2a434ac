/** The operator's endpoints, outside /v1: liveness, readiness, Prometheus metrics. */
import type { Capability } from '../../platform/capability.ts';
import type { Services } from '../../platform/services.ts';
import { operationsRoutes } from './routes.ts';

export function operationsCapability(s: Services): Capability {
  return { name: 'operations', routes: (app) => operationsRoutes(app, s), jobs: [], schedules: [] };
}
