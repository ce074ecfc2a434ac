/** The radar capability's parts, built once per Services (routes and the cycle job share them). */
import type { JobHandler } from '../../platform/jobs/worker.ts';
import type { Services } from '../../platform/services.ts';
import { caseModule, type CaseModule } from '../processes/module.ts';
import { radarCycleJob, scheduleCycle } from './cycle.ts';
import { RadarStore } from './store.ts';

export interface RadarModule {
  services: Services;
  store: RadarStore;
  /** The case store and lookups: a radar's hits are stored cases. */
  cases: CaseModule;
}

const modules = new WeakMap<Services, RadarModule>();

export function radarModule(s: Services): RadarModule {
  let m = modules.get(s);
  if (!m) {
    m = { services: s, store: new RadarStore(s.db), cases: caseModule(s) };
    modules.set(s, m);
  }
  return m;
}

export function radarJobs(s: Services): JobHandler[] {
  return [radarCycleJob(radarModule(s))];
}

export async function scheduleRadarCycle(s: Services): Promise<void> {
  await scheduleCycle(s);
}
