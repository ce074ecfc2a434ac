/** Precatórios and RPVs (spec §4.2): the listing over the store that court lists are imported into (import.ts, the CLI). */
import type { Capability } from '../../platform/capability.ts';
import type { Services } from '../../platform/services.ts';
import { precatorioRoutes } from './routes.ts';

export function precatoriosCapability(s: Services): Capability {
  return { name: 'precatorios', routes: (app) => precatorioRoutes(app, s), jobs: [], schedules: [] };
}
