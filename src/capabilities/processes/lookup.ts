/** What a case lookup is asked and answers (service.ts does them, present.ts shows them). */
import type { StoredCase } from './store.ts';

/**
 * What a lookup does with the case-details sources when it goes upstream: `wait` asks them beside
 * DataJud and answers with their parties (the default of the routes that answer a case); `background`
 * leaves them to the enrichment job (`Prefer: return=minimal`). Lookups that answer no case (searches,
 * summaries) omit it: the enrichment job fills them, uncounted in tramita_cover_details_total.
 */
export type DetailsMode = 'wait' | 'background';

/** Why the parties did not come with this answer: a details source failed; the enrichment job goes on. */
export interface DetailsFailure {
  code: string;
  message: string;
  source: string | null;
  failure: string | null;
}

export interface Lookup {
  stored: StoredCase;
  servedFrom: 'store' | 'upstream';
  stale: boolean;
  /** Set when the parties were asked with this lookup and their source failed. */
  detailsFailure?: DetailsFailure;
}
