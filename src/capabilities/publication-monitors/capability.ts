/** Publication monitors (spec §4.8 `publicacoes`), polled by the publication cycle. */
import type { Capability } from '../../platform/capability.ts';
import type { Services } from '../../platform/services.ts';
import { publicationMonitorRoutes } from './routes.ts';

export function publicationMonitorsCapability(s: Services): Capability {
  return { name: 'publication-monitors', routes: (app) => publicationMonitorRoutes(app, s), jobs: [], schedules: [] };
}
