/**
 * The gazettes of spec §4.6 that Tramita ingests (issue 16): the STF's DJe and the electoral DJE of the
 * TSE and the 27 TREs: their routes, their background ingest, and the days read on demand. Their
 * publications go through the publication capability's ingest, so publication monitors hear them.
 */
import type { Capability } from '../../platform/capability.ts';
import type { Services } from '../../platform/services.ts';
import type { PublicationParts } from '../publications/parts.ts';
import { GazetteDays } from './days.ts';
import { GAZETTE_INGEST, gazetteIngestJob } from './job.ts';
import { gazetteRoutes } from './routes.ts';

export function gazettesCapability(s: Services, publications: PublicationParts): Capability & { days: GazetteDays } {
  const days = new GazetteDays(s, publications.ingest);
  return {
    name: 'gazettes',
    routes: (app) => gazetteRoutes(app, s, days),
    jobs: [gazetteIngestJob(s, days)],
    schedules: [GAZETTE_INGEST],
    days,
  };
}
