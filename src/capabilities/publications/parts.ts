/**
 * The publication capability's shared parts: the ingest (store + matching +
 * events) every publication goes through, the links of the public view, and the freshness policy of
 * targeted DJEN queries. Lawyers, intimações and publication monitors all stand on this.
 */
import { addMs, iso } from '../../platform/clock.ts';
import type { Services } from '../../platform/services.ts';
import type { PublicationQuery, PublicationSearchOptions } from '../../platform/ports/publications.ts';
import { PublicationIngest, type IngestSummary } from './ingest.ts';
import type { PublicationLinks } from './present.ts';
import { lastSynced, markSynced } from './sync-store.ts';

// What the gazettes (their days' ingest, their search, their views) use of the publication store.
export type { PublicationIngest } from './ingest.ts';
export { beforeDay, oabKey, plainText, PublicationSearchIndex, storedPublication, type DayCursor } from './store.ts';

// What the intimações read of the publications (their matches are publications).
export { publicationView, type PublicationLinks } from './present.ts';
export { Publication } from './schemas.ts';
export { findPublication, publicationsOfOab } from './store.ts';

export interface PublicationParts {
  ingest: PublicationIngest;
  links: PublicationLinks;
  /**
   * Asks DJEN for `query` and ingests the answer, unless `key` was asked within the freshness policy
   * (TRAMITA_CASE_FRESH_MINUTES). Throws SourceError when DJEN fails (nothing is marked fresh then).
   */
  syncIfStale(key: string, query: PublicationQuery, options?: PublicationSearchOptions): Promise<IngestSummary | null>;
}

/** Built once, by the publication capability's factory (capability.ts), and handed to the others. */
export function buildPublicationParts(s: Services): PublicationParts {
  const links: PublicationLinks = { publicUrl: s.config.publicUrl, certidaoUrl: (hash) => s.sources.publications.certidaoUrl(hash) };
  const ingest = new PublicationIngest(s, links);
  return {
    ingest,
    links,
    async syncIfStale(key, query, options) {
      const now = s.clock.now();
      const last = await lastSynced(s.db, key);
      if (last && Date.parse(last) > addMs(now, -s.config.caseFreshMinutes * 60_000).getTime()) return null;
      const source = s.sources.publications;
      const found = await source.search(query, options);
      const summary = await ingest.ingest(found.items, source.info);
      await markSynced(s.db, key, iso(now));
      return summary;
    },
  };
}

// What lawyers/ uses besides (issue 55 item 3): an OAB's history and its recent sync.
export { fetchHistory, HISTORY_START, parseOabKey, syncRecent } from './history.ts';
