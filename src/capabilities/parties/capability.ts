/** Processes and summary of a CPF/CNPJ or a name (spec §4.2). */
import type { Capability } from '../../platform/capability.ts';
import type { Services } from '../../platform/services.ts';
import type { CaseParts } from '../processes/parts.ts';
import { partyRoutes } from './routes.ts';

export function partiesCapability(s: Services, cases: CaseParts): Capability {
  return { name: 'parties', routes: (app) => partyRoutes(app, s, cases), jobs: [], schedules: [] };
}
