/**
 * Every capability, built once at start (each folder's `capability.ts` factory) in the order the /v1
 * catalog lists their routes. Capabilities built on another's parts (stored cases, ingested
 * publications) receive them here. `app.ts` mounts `routes`; workers run `jobs`; `schedules` are the
 * recurring jobs every process with a worker makes sure exist.
 */
import type { Capability } from '../platform/capability.ts';
import type { JobHandler } from '../platform/jobs/worker.ts';
import { ensureRecurring } from '../platform/jobs/recurring.ts';
import { platformCapability } from '../platform/own-capability.ts';
import type { Services } from '../platform/services.ts';
import { accountCapability } from './account/capability.ts';
import { courtsCapability } from './courts/capability.ts';
import { discoveryCapability } from './discovery/capability.ts';
import { eventsCapability } from './events/capability.ts';
import { gazettesCapability } from './gazettes/capability.ts';
import { intimationsCapability } from './intimations/capability.ts';
import { lawyersCapability } from './lawyers/capability.ts';
import { monitorsCapability } from './monitors/capability.ts';
import { muralCapability } from './mural/capability.ts';
import { operationsCapability } from './operations/capability.ts';
import { partiesCapability } from './parties/capability.ts';
import type { CaseParts } from './processes/parts.ts';
import { processesCapability } from './processes/capability.ts';
import { publicationMonitorsCapability } from './publication-monitors/capability.ts';
import type { PublicationParts } from './publications/parts.ts';
import { publicationsCapability } from './publications/capability.ts';
import type { RadarParts } from './radars/parts.ts';
import type { GazetteDays } from './gazettes/parts.ts';
import { radarsCapability } from './radars/capability.ts';
import { consoleCapability } from './console/capability.ts';
import { searchCapability } from './search/capability.ts';
import { summariesCapability } from './summaries/capability.ts';
import { webhooksCapability } from './webhooks/capability.ts';
import { warrantsCapability } from './warrants/capability.ts';
import { precatoriosCapability } from './precatorios/capability.ts';
import { administrativeCapability } from './administrative/capability.ts';
import type { AdministrativeService } from './administrative/parts.ts';

export interface Capabilities {
  /** The platform's own share first, then every capability. */
  all: Capability[];
  /** Shared parts, also what tests and the benchmark reach in through. */
  cases: CaseParts;
  publications: PublicationParts;
  radars: RadarParts;
  /** The gazette days read on demand or in the background (STF, DJE eleitoral). */
  gazettes: GazetteDays;
  /** Administrative processes by NUP (lookups, and what their monitors' checks save through). */
  administrative: AdministrativeService;
}

export function buildCapabilities(s: Services): Capabilities {
  const processes = processesCapability(s);
  const publications = publicationsCapability(s);
  const radars = radarsCapability(s, processes.cases);
  const gazettes = gazettesCapability(s, publications.publications);
  const administrative = administrativeCapability(s);
  return {
    all: [
      discoveryCapability(s),
      operationsCapability(s),
      accountCapability(s),
      platformCapability(s),
      courtsCapability(s),
      processes,
      summariesCapability(s, processes.cases),
      partiesCapability(s, processes.cases),
      searchCapability(s, processes.cases),
      webhooksCapability(s),
      eventsCapability(s),
      monitorsCapability(s, processes.cases),
      radars,
      publications,
      lawyersCapability(s, publications.publications, processes.cases),
      intimationsCapability(s, publications.publications),
      publicationMonitorsCapability(s),
      gazettes,
      muralCapability(s),
      warrantsCapability(s),
      administrative,
      precatoriosCapability(s),
      consoleCapability(s, radars.radars),
    ],
    cases: processes.cases,
    publications: publications.publications,
    radars: radars.radars,
    gazettes: gazettes.days,
    administrative: administrative.service,
  };
}

export function jobHandlers(c: Capabilities): JobHandler[] {
  return c.all.flatMap((x) => x.jobs);
}

/** Makes sure every recurring job exists (idempotent): run at start by the server and every worker. */
export async function scheduleRecurringJobs(s: Services, c: Capabilities): Promise<void> {
  await ensureRecurring(
    s.jobs,
    c.all.flatMap((x) => x.schedules),
  );
}
