/**
 * What each upstream connector covers, for `/v1/integrador` (spec §4.7). A connector registers the
 * courts it reaches and the resources it gives; the courts listing is derived from this, so it never
 * claims coverage that no connector provides. No connector is registered yet: the DataJud and DJEN
 * connectors add themselves here as they arrive.
 */
import type { Court } from '../capabilities/courts/data.ts';

export interface SourceCoverage {
  /** Name shown to integrators, e.g. "DataJud". */
  name: string;
  /** Resources this source gives, e.g. ["capa", "movimentacoes"]. */
  resources: string[];
  covers(court: Court): boolean;
}

export const SOURCES: SourceCoverage[] = [];

export function coverageOf(court: Court, sources: readonly SourceCoverage[] = SOURCES) {
  const covering = sources.filter((s) => s.covers(court));
  return { fontes: covering.map((s) => s.name), recursos: [...new Set(covering.flatMap((s) => s.resources))].sort() };
}
