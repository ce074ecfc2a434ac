/**
 * Administrative processes by NUP (spec §4.7, §4.8): the covered bodies, lookups through Protocolo
 * Integrado, and the monitors that follow a NUP (their cycle: renewals, then checks).
 */
import type { Capability } from '../../platform/capability.ts';
import type { Services } from '../../platform/services.ts';
import { loadBodies } from './bodies.ts';
import { adminMonitorCycleJob } from './monitor-cycle.ts';
import { adminMonitorRoutes } from './monitor-routes.ts';
import { ADMIN_MONITOR_CYCLE } from './monitor-lifecycle.ts';
import { administrativeRoutes } from './routes.ts';
import { AdministrativeService } from './service.ts';

export function administrativeCapability(s: Services): Capability & { service: AdministrativeService } {
  const service = new AdministrativeService(s, loadBodies(s.config.bodiesFile));
  return {
    name: 'administrative',
    routes: (app) => {
      administrativeRoutes(app, s, service);
      adminMonitorRoutes(app, s, service);
    },
    jobs: [adminMonitorCycleJob(s, service)],
    schedules: [ADMIN_MONITOR_CYCLE],
    service,
  };
}
