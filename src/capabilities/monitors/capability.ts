/** Case monitors (spec §4.8 `processos`): their routes and their cycle (renewals, then checks). */
import type { Capability } from '../../platform/capability.ts';
import type { Services } from '../../platform/services.ts';
import type { CaseParts } from '../processes/parts.ts';
import { monitorCycleJob } from './check.ts';
import { monitorRoutes } from './routes.ts';
import { MONITOR_CYCLE } from './lifecycle.ts';

export function monitorsCapability(s: Services, cases: CaseParts): Capability {
  return { name: 'monitors', routes: (app) => monitorRoutes(app, s), jobs: [monitorCycleJob(s, cases)], schedules: [MONITOR_CYCLE] };
}
