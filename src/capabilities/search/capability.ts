/** Search of stored cases by term (spec §4.2). */
import type { Capability } from '../../platform/capability.ts';
import type { Services } from '../../platform/services.ts';
import type { CaseParts } from '../processes/parts.ts';
import { searchRoutes } from './routes.ts';

export function searchCapability(s: Services, cases: CaseParts): Capability {
  return { name: 'search', routes: (app) => searchRoutes(app, s, cases), jobs: [], schedules: [] };
}
