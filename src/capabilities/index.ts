/** Every capability of the API: its routes and the background jobs it contributes. */
import type { FastifyInstance } from 'fastify';
import type { JobHandler } from '../platform/jobs/worker.ts';
import { maintenanceJob } from '../platform/maintenance.ts';
import type { Services } from '../platform/services.ts';
import { accountRoutes } from './account/routes.ts';
import { courtRoutes } from './courts/routes.ts';
import { discoveryRoutes } from './discovery/routes.ts';
import { operationsRoutes } from './operations/routes.ts';
import { requestRoutes } from './requests/routes.ts';
import { partyRoutes } from './parties/routes.ts';
import { caseJobs } from './processes/module.ts';
import { caseRoutes } from './processes/routes.ts';
import { searchRoutes } from './search/routes.ts';

export interface Capability {
  name: string;
  routes(app: FastifyInstance, services: Services): void;
  jobs?(services: Services): JobHandler[];
}

export const CAPABILITIES: Capability[] = [
  { name: 'discovery', routes: discoveryRoutes },
  { name: 'operations', routes: operationsRoutes, jobs: (s) => [maintenanceJob(s)] },
  { name: 'account', routes: accountRoutes },
  { name: 'requests', routes: requestRoutes },
  { name: 'courts', routes: courtRoutes },
  { name: 'processes', routes: caseRoutes, jobs: caseJobs },
  { name: 'parties', routes: partyRoutes },
  { name: 'search', routes: searchRoutes },
];

export function jobHandlers(services: Services): JobHandler[] {
  return CAPABILITIES.flatMap((c) => c.jobs?.(services) ?? []);
}
