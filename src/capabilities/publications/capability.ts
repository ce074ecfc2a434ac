/**
 * Publications (DJEN): the gazette routes of cases, the publication cycle (renewals, cadernos, polling
 * for intimação and publication monitors) and the consolidation of an OAB's history; and the parts
 * (ingest, links, freshness) lawyers, intimações and publication monitors stand on.
 */
import type { Capability } from '../../platform/capability.ts';
import type { Services } from '../../platform/services.ts';
import { publicationCycleJob } from './cycle.ts';
import { PUBLICATION_CYCLE } from '../publication-monitors/parts.ts';
import { consolidationJob } from './history.ts';
import { buildPublicationParts, type PublicationParts } from './parts.ts';
import { publicationRoutes } from './routes.ts';

export function publicationsCapability(s: Services): Capability & { publications: PublicationParts } {
  const publications = buildPublicationParts(s);
  return {
    name: 'publications',
    routes: (app) => publicationRoutes(app, s, publications),
    jobs: [publicationCycleJob(s, publications.ingest), consolidationJob(s, publications.ingest)],
    schedules: [PUBLICATION_CYCLE],
    publications,
  };
}
