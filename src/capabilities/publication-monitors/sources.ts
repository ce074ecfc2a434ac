/**
 * The sources a publication monitor watches (issue 16, `fontes`): DJEN, the STF's gazette, the
 * electoral gazette of one court. Read by the create route (validation) and the matcher (filter).
 */
import { ApiError } from '../../platform/errors.ts';
import { ELECTORAL_COURTS } from '../../platform/ports/electoral.ts';

export const MONITOR_SOURCES: readonly string[] = ['DJEN', 'STF', ...ELECTORAL_COURTS];

/** The source key a publication answers to in `fontes`: DJEN, STF, or the electoral court. */
export function monitorSourceOf(fonte: string, tribunal: string): string {
  return fonte === 'DJEN' ? 'DJEN' : fonte === 'STF' ? 'STF' : tribunal;
}

/** A request's `fontes`, validated (400 INVALID_PARAMETER naming the item), deduplicated; empty means every source (null). */
export function sourceFilter(fontes: readonly string[] | null | undefined, field = 'fontes'): string[] | null | undefined {
  if (fontes === undefined || fontes === null) return fontes;
  const out = new Set<string>();
  fontes.forEach((f, i) => {
    const key = f.trim().toUpperCase();
    if (!MONITOR_SOURCES.includes(key))
      throw new ApiError('INVALID_PARAMETER', `\`${field}[${i}]\` "${f}" is not a source: DJEN, STF, TSE or TRE-<UF>.`, {
        field: `${field}.${i}`,
        allowedValues: [...MONITOR_SOURCES],
      });
    out.add(key);
  });
  return out.size === 0 ? null : [...out].sort();
}

/** Whether a monitor hears DJEN (no `fontes`, or DJEN among them): only those are polled at DJEN. */
export function watchesDjen(m: { fontes: string | null }): boolean {
  return m.fontes === null || (JSON.parse(m.fontes) as string[]).includes('DJEN');
}
