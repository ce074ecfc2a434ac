/**
 * What each upstream connector covers, for `/v1/integrador` (spec §4.7). A connector registers the
 * courts it reaches and the resources it gives; the courts listing is derived from this, so it never
 * claims coverage that no connector provides.
 */
import type { Court } from '../platform/courts/table.ts';

export interface SourceCoverage {
  /** Name shown to integrators, e.g. "DataJud". */
  name: string;
  /** Resources this source gives, e.g. ["capa", "movimentacoes"]. */
  resources: string[];
  covers(court: Court): boolean;
}

export const SOURCES: SourceCoverage[] = [
  // Every court with a DataJud index (all but STF): cover, class, subjects, court unit and movements.
  { name: 'DataJud', resources: ['capa', 'movimentacoes'], covers: (court) => court.datajudAlias !== null },
];

export function coverageOf(court: Court, sources: readonly SourceCoverage[] = SOURCES) {
  const covering = sources.filter((s) => s.covers(court));
  return { fontes: covering.map((s) => s.name), recursos: [...new Set(covering.flatMap((s) => s.resources))].sort() };
}
