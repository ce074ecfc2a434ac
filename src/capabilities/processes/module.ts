/** The case capability's parts, built once per Services (routes and job handlers share them). */
import type { Services } from '../../platform/services.ts';
import { REFRESH_ATTEMPTS, REFRESH_JOB, enrichJob, refreshJob, type RefreshDeps } from './refresh.ts';
import { CaseSearchIndex } from './search-index.ts';
import { CaseService } from './service.ts';
import { CaseStore } from './store.ts';

export interface CaseModule extends RefreshDeps {
  search: CaseSearchIndex;
}

const modules = new WeakMap<Services, CaseModule>();

export function caseModule(s: Services): CaseModule {
  let m = modules.get(s);
  if (!m) {
    const search = new CaseSearchIndex(s.db, s.database.engine);
    const store = new CaseStore(s.db, s.clock, search, s.events);
    const service = new CaseService({ db: s.db, store, sources: s.sources, jobs: s.jobs, clock: s.clock, freshMinutes: s.config.caseFreshMinutes });
    m = {
      db: s.db, clock: s.clock, ledger: s.ledger, events: s.events, store, service, search, sources: s.sources,
      enqueue: (numeroCnj, trx) => s.jobs.enqueue({ kind: REFRESH_JOB, payload: { numeroCnj }, dedupeKey: `${REFRESH_JOB}:${numeroCnj}`, maxAttempts: REFRESH_ATTEMPTS }, trx),
    };
    modules.set(s, m);
  }
  return m;
}

export function caseJobs(s: Services) {
  const m = caseModule(s);
  return [refreshJob(m), enrichJob(m)];
}
