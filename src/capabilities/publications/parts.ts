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
      const last = await s.db.selectFrom('publication_syncs').select('sincronizado_em').where('chave', '=', key).executeTakeFirst();
      if (last && Date.parse(last.sincronizado_em) > addMs(now, -s.config.caseFreshMinutes * 60_000).getTime()) return null;
      const source = s.sources.publications;
      const found = await source.search(query, options);
      const summary = await ingest.ingest(found.items, source.info);
      await s.db
        .insertInto('publication_syncs')
        .values({ chave: key, sincronizado_em: iso(now) })
        .onConflict((oc) => oc.column('chave').doUpdateSet({ sincronizado_em: iso(now) }))
        .execute();
      return summary;
    },
  };
}

// What lawyers/ uses (issue 55 item 3): an OAB's history and its recent sync, the OAB parameters, the public view and its schema, an OAB's stored publications.
export { fetchHistory, HISTORY_START, parseOabKey, syncRecent } from './history.ts';
export type { PublicationIngest } from './ingest.ts';
export { OabFields, oabOfRequest } from './oab-params.ts';
export { publicationView } from './present.ts';
export { Publication } from './schemas.ts';
export { publicationsOfOab, storedPublication } from './store.ts';
