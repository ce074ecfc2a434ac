/**
 * The OABs and dates an intimação request names. OABs come as `oab_estado` + `oab_numero`, `oab`
 * (any spelling platform/identifiers/oab.ts reads; repeatable, or comma-separated in a query) and/or
 * `oabs` (a list, or a comma-separated query value), each item also as `UF:NUMBER`; all are merged,
 * each registration once, in canonical form (SP123456).
 */
import { ApiError } from '../../platform/errors.ts';
import { calendarDay } from '../../platform/http/period.ts';
import { parseOab, parseOabParts, type Oab } from '../../platform/identifiers/oab.ts';
import { oabOfRequest } from '../../platform/http/oab-params.ts';

export const MAX_OABS = 100;

export interface OabInput {
  oab_estado?: string;
  oab_numero?: string;
  oab?: string | string[];
  oabs?: string | string[];
}

/** Every OAB the request names, once each (first spelling kept); 400 when none or more than MAX_OABS. */
export function requestedOabs(v: OabInput, where: 'query' | 'body'): Oab[] {
  const found: Oab[] = [];
  if (v.oab_estado !== undefined || v.oab_numero !== undefined) found.push(oabOfRequest({ oab_estado: v.oab_estado, oab_numero: v.oab_numero }, where));
  for (const name of ['oab', 'oabs'] as const) {
    for (const { text, field } of entries(v[name], name)) found.push(parseOabEntry(text, field));
  }
  if (found.length === 0) {
    throw new ApiError('MISSING_PARAMETER', 'Name the lawyer: `oab_estado` + `oab_numero`, `oab` (e.g. SP123456) or `oabs` (e.g. ["SP123456", "RJ:98765"]).', {
      field: 'oab',
      in: where,
    });
  }
  const unique = [...new Map(found.map((o) => [o.canonical, o])).values()];
  if (unique.length > MAX_OABS)
    throw new ApiError('INVALID_PARAMETER', `At most ${MAX_OABS} OABs per request (${unique.length} given).`, { field: 'oabs', in: where });
  return unique;
}

/** One item: `UF:NUMBER` (e.g. `SP:123456`) or any spelling parseOab takes. */
export function parseOabEntry(text: string, field: string): Oab {
  const colon = /^\s*([A-Za-z]{2})\s*:\s*(.+)$/.exec(text);
  return colon ? parseOabParts(colon[1], colon[2], field) : parseOab(text, field);
}

/** A value or list of values, each split on commas (no OAB spelling has one), blanks dropped; each with the field errors name. */
function entries(v: string | string[] | undefined, name: string): { text: string; field: string }[] {
  if (v === undefined) return [];
  const list = Array.isArray(v) ? v : [v];
  return list
    .flatMap((x, i) => x.split(',').map((text) => ({ text: text.trim(), field: Array.isArray(v) ? `${name}.${i}` : name })))
    .filter((e) => e.text !== '');
}

export interface DayRange {
  desde?: string;
  ate?: string;
}

/** `data_inicio` / `data_fim` (yyyy-mm-dd, inclusive): calendar days, in order (400 INVALID_PARAMETER otherwise). */
export function dayRange(v: { data_inicio?: string; data_fim?: string; desde?: string }): DayRange {
  // `desde` is what integrators of the commercial service send (conventions §4.11): the same first day.
  if (v.desde !== undefined && v.data_inicio !== undefined)
    throw new ApiError('INVALID_PARAMETER', 'Send `desde` or `data_inicio`, not both.', { field: 'desde', in: 'query' });
  const first = v.data_inicio ?? v.desde;
  const desde = first === undefined ? undefined : calendarDay(first, v.data_inicio === undefined ? 'desde' : 'data_inicio');
  const ate = v.data_fim === undefined ? undefined : calendarDay(v.data_fim, 'data_fim');
  if (desde && ate && desde > ate)
    throw new ApiError('INVALID_PARAMETER', `\`data_inicio\` (${desde}) is after \`data_fim\` (${ate}).`, { field: 'data_fim', in: 'query' });
  return { desde, ate };
}
