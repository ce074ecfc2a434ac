/** Cases (spec §4.2–4.3): cover, PDF, movements, documents, refresh; and the parts other capabilities read. */
import type { Capability } from '../../platform/capability.ts';
import type { Services } from '../../platform/services.ts';
import { buildCaseParts, type CaseParts } from './parts.ts';
import { enrichJob, refreshJob } from './refresh.ts';
import { caseRoutes } from './routes.ts';

export function processesCapability(s: Services): Capability & { cases: CaseParts } {
  const cases = buildCaseParts(s);
  return { name: 'processes', routes: (app) => caseRoutes(app, s, cases), jobs: [refreshJob(cases), enrichJob(cases)], schedules: [], cases };
}
