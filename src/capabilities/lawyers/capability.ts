/** Lawyers (spec §4.4): processes, gazettes and summary of an OAB, and the asynchronous OAB search. */
import type { Capability } from '../../platform/capability.ts';
import type { Services } from '../../platform/services.ts';
import type { CaseParts } from '../processes/parts.ts';
import type { PublicationParts } from '../publications/parts.ts';
import { oabSearchJob } from './oab-search.ts';
import { lawyerRoutes } from './routes.ts';

export function lawyersCapability(s: Services, publications: PublicationParts, cases: CaseParts): Capability {
  return { name: 'lawyers', routes: (app) => lawyerRoutes(app, s, publications, cases), jobs: [oabSearchJob(s, publications.ingest)], schedules: [] };
}
