/** New-case radars (spec §4.8 `novos-processos`): their routes and their cycle (renewals, then checks). */
import type { Capability } from '../../platform/capability.ts';
import type { Services } from '../../platform/services.ts';
import type { CaseParts } from '../processes/parts.ts';
import { radarCycleJob } from './cycle.ts';
import { RADAR_CYCLE } from './lifecycle.ts';
import { buildRadarParts, type RadarParts } from './parts.ts';
import { radarRoutes } from './routes.ts';

export function radarsCapability(s: Services, cases: CaseParts): Capability & { radars: RadarParts } {
  const radars = buildRadarParts(s, cases);
  return { name: 'radars', routes: (app) => radarRoutes(app, radars), jobs: [radarCycleJob(radars)], schedules: [RADAR_CYCLE], radars };
}
