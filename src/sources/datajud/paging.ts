/**
 * `search_after` paging over a query sorted by `@timestamp` asc (reference/upstream/datajud.md §6).
 * Sorting on a tie-breaker field is not verified to work on DataJud, so pages are cut on
 * `@timestamp` alone, and documents sharing the last millisecond of a full page would be skipped by
 * a strict `search_after`. The next page therefore starts one millisecond earlier (overlapping) and
 * the caller dedupes by `_id`; only when a whole page sits on one millisecond does it fall back to
 * the strict cursor (the only way forward).
 */
import type { EsSearchResult } from './client.ts';
import { dataJudError } from './errors.ts';

export const SORT_BY_TIMESTAMP = [{ '@timestamp': 'asc' }] as const;

/** Fetches one page; `searchAfter` is undefined for the first one. */
export type PageFetcher = (searchAfter: readonly unknown[] | undefined) => Promise<EsSearchResult>;

/** Yields pages until one comes back shorter than `size`. Pages may repeat documents: dedupe by `_id`. */
export async function* searchPages(fetchPage: PageFetcher, size: number, alias: string): AsyncGenerator<EsSearchResult> {
  let cursor: readonly unknown[] | undefined;
  let previousLast: readonly unknown[] | undefined;
  for (;;) {
    const page = await fetchPage(cursor);
    yield page;
    if (page.hits.length < size) return;
    const last = page.hits[page.hits.length - 1].sort;
    if (!last || last.length === 0) {
      throw dataJudError('malformed', `DataJud ${alias} returned a full page without sort values: search_after cannot continue.`);
    }
    cursor = nextCursor(last, previousLast);
    previousLast = last;
  }
}

function nextCursor(last: readonly unknown[], previousLast: readonly unknown[] | undefined): readonly unknown[] {
  const [timestamp] = last;
  const progressed = previousLast === undefined || previousLast[0] !== timestamp;
  if (typeof timestamp === 'number' && Number.isSafeInteger(timestamp) && progressed) return [timestamp - 1];
  return last;
}
