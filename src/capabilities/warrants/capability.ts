/** Arrest warrants (spec §4.7): one lookup, live through the operator's provider; no jobs, nothing stored. */
import type { Capability } from '../../platform/capability.ts';
import type { Services } from '../../platform/services.ts';
import { warrantRoutes } from './routes.ts';

export function warrantsCapability(s: Services): Capability {
  return { name: 'warrants', routes: (app) => warrantRoutes(app, s), jobs: [], schedules: [] };
}
