/**
 * What the case capability shares with the capabilities built on stored cases (parties, search,
 * monitors, radars): its store, lookups, refresh queue and search index. Built once, by the
 * capability's factory (capability.ts), and handed to the others.
 */
import type { Services } from '../../platform/services.ts';
import { REFRESH, type RefreshDeps } from './refresh.ts';
import { publicMovement } from './movements.ts';
import { CaseSearchIndex } from './search-index-store.ts';
import { CaseService } from './service.ts';
import { CaseStore } from './store.ts';
import { CourtDocumentStore } from './document-files-store.ts';

// What summaries/ and radars/ use (issue 55 item 3): the stored case, the refresh a summary waits on, a movement's words, the CNJ params.
export type { CaseStore } from './store.ts';
export type { StoredCase } from './stored-case.ts';
export { REFRESH_QUERY_TYPE, requestRefresh } from './refresh.ts';
export { refreshOutcome } from './refresh-store.ts';
export { describeMovement } from './movement-text.ts';
export { CnjParams } from './schemas.ts';

// What the capabilities built on stored cases use (parties, search, lawyers): a party search's one pass, the case views and schemas.
export { partyCases, type PartyCases, type PartyCasesAsk } from './party-cases.ts';
export { caseAnswer, caseSummary, sourcesMeta } from './present.ts';
export { CaseShape, CaseSummary } from './schemas.ts';
export { isClosingMovement, situacaoOf } from './process-object.ts';
export { caseHeadlineRows } from './store.ts';

export interface CaseParts extends RefreshDeps {
  search: CaseSearchIndex;
  /** TRAMITA_COURT_SEARCH_KEEP_MINUTES: how long a search's fan-out to the courts serves its later pages (parties/court-search.ts). */
  courtSearchKeepMinutes: number;
  /** The courts' public documents once read (issue 53), bounded by TRAMITA_DOCUMENT_STORE_MAX_MB. */
  documents: CourtDocumentStore;
}

export function buildCaseParts(s: Services): CaseParts {
  const search = new CaseSearchIndex(s.db, s.database.engine);
  const store = new CaseStore(s.db, s.clock, search, s.events, publicMovement);
  const service = new CaseService({
    db: s.db,
    store,
    sources: s.sources,
    jobs: s.jobs,
    clock: s.clock,
    events: s.events,
    log: s.log,
    freshMinutes: s.config.caseFreshMinutes,
  });
  return {
    db: s.db,
    clock: s.clock,
    ledger: s.ledger,
    events: s.events,
    store,
    service,
    search,
    documents: new CourtDocumentStore(s.db, s.clock, s.config.documentStoreMaxBytes),
    courtSearchKeepMinutes: s.config.courtSearchKeepMinutes,
    sources: s.sources,
    enqueue: (numeroCnj, trx) => s.jobs.add(REFRESH, { numeroCnj }, trx),
  };
}
