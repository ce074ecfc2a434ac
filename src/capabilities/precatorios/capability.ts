/**
 * Precatórios and RPVs (spec §4.2): the listing over the store that court lists are imported into (import.ts, the CLI), and that DataJud's classes 1265/1266
 * (harvest.ts) and TJRJ's API (tjrj.ts) are harvested into.
 */
import type { Capability } from '../../platform/capability.ts';
import type { Services } from '../../platform/services.ts';
import { PRECATORIO_HARVEST, precatorioHarvestJob } from './harvest.ts';
import { precatorioRoutes } from './routes.ts';
import { TJRJ_HARVEST, tjrjHarvestJob } from './tjrj.ts';

export function precatoriosCapability(s: Services): Capability {
  return {
    name: 'precatorios',
    routes: (app) => precatorioRoutes(app, s),
    jobs: [precatorioHarvestJob(s), tjrjHarvestJob(s)],
    schedules: [PRECATORIO_HARVEST, TJRJ_HARVEST],
  };
}
