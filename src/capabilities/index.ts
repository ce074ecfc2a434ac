/** Every capability of the API: its routes and the background jobs it contributes. */
import type { FastifyInstance } from 'fastify';
import type { JobHandler } from '../platform/jobs/worker.ts';
import { maintenanceJob, scheduleMaintenance } from '../platform/maintenance.ts';
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
import { monitorJobs, monitorRoutes, scheduleMonitorCycle } from './monitors/module.ts';
import { radarJobs, scheduleRadarCycle } from './radars/module.ts';
import { radarRoutes } from './radars/routes.ts';
import { eventRoutes } from './events/routes.ts';
import { webhookJobs, webhookRoutes } from './webhooks/routes.ts';
import { lawyerJobs, lawyerRoutes } from './lawyers/module.ts';
import { publicationRoutes } from './publications/routes.ts';
import { publicationCycleJob, schedulePublicationCycle } from './publications/cycle.ts';
import { intimationRoutes } from './intimations/routes.ts';
import { publicationMonitorRoutes } from './publication-monitors/routes.ts';

export interface Capability {
  name: string;
  routes(app: FastifyInstance, services: Services): void;
  jobs?(services: Services): JobHandler[];
  /** Makes sure its recurring jobs exist (idempotent); run at start by the server and every worker. */
  schedule?(services: Services): Promise<void>;
}

export const CAPABILITIES: Capability[] = [
  { name: 'discovery', routes: discoveryRoutes },
  { name: 'operations', routes: operationsRoutes, jobs: (s) => [maintenanceJob(s)], schedule: scheduleMaintenance },
  { name: 'account', routes: accountRoutes },
  { name: 'requests', routes: requestRoutes },
  { name: 'courts', routes: courtRoutes },
  { name: 'processes', routes: caseRoutes, jobs: caseJobs },
  { name: 'parties', routes: partyRoutes },
  { name: 'search', routes: searchRoutes },
  { name: 'webhooks', routes: webhookRoutes, jobs: webhookJobs },
  { name: 'events', routes: eventRoutes },
  { name: 'monitors', routes: monitorRoutes, jobs: monitorJobs, schedule: scheduleMonitorCycle },
  { name: 'radars', routes: radarRoutes, jobs: radarJobs, schedule: scheduleRadarCycle },
  { name: 'publications', routes: publicationRoutes },
  { name: 'lawyers', routes: lawyerRoutes, jobs: lawyerJobs },
  { name: 'intimations', routes: intimationRoutes },
  { name: 'publication-monitors', routes: publicationMonitorRoutes },
  // Polls DJEN for both (and ingests the configured cadernos); no routes of its own.
  { name: 'publication-cycle', routes: () => {}, jobs: (s) => [publicationCycleJob(s)], schedule: schedulePublicationCycle },
];

export function jobHandlers(services: Services): JobHandler[] {
  return CAPABILITIES.flatMap((c) => c.jobs?.(services) ?? []);
}

export async function scheduleRecurringJobs(services: Services): Promise<void> {
  for (const c of CAPABILITIES) await c.schedule?.(services);
}
