/**
 * Periods of days in a query: `data_inicio` / `data_fim` (`YYYY-MM-DD`, inclusive). The gazettes'
 * rule (issue 16, spec §8): a malformed or impossible date is 400 INVALID_DATE, an end before the start
 * 422 PERIOD_INVERTED, more than `maxDays` days 422 PERIOD_TOO_LONG, all checked before any upstream
 * call (so never charged). An open end is today; an open start is `maxDays` back from the end.
 */
import { DAY_MS } from '../clock.ts';
import { ApiError, type ErrorCode } from '../errors.ts';
import { isoDayOf } from '../format.ts';

/** `text` when it is a real calendar day written yyyy-mm-dd; otherwise `code` naming `field`. */
export function calendarDay(text: string, field: string, code: ErrorCode = 'INVALID_PARAMETER'): string {
  if (isoDayOf(text) === null) {
    throw new ApiError(code, `\`${field}\` "${text}" is not a calendar day (YYYY-MM-DD).`, { field, in: 'query' });
  }
  return text;
}

export interface Period {
  /** yyyy-mm-dd, inclusive. */
  inicio: string;
  fim: string;
}

/** Days between two yyyy-mm-dd, both counted. */
export function daysIn(p: Period): number {
  return Math.round((Date.parse(p.fim) - Date.parse(p.inicio)) / DAY_MS) + 1;
}

/** Every day of `p`, oldest first. */
export function eachDay(p: Period): string[] {
  const out: string[] = [];
  for (let t = Date.parse(p.inicio); t <= Date.parse(p.fim); t += DAY_MS) out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

/** The period a gazette query asks, at most `maxDays` days; `defaultDays` back from the end when no start is given. */
export function gazettePeriod(q: { data_inicio?: string; data_fim?: string }, o: { today: string; maxDays: number; defaultDays: number }): Period {
  const fim = q.data_fim === undefined ? o.today : calendarDay(q.data_fim, 'data_fim', 'INVALID_DATE');
  const inicio =
    q.data_inicio === undefined
      ? new Date(Date.parse(fim) - (o.defaultDays - 1) * DAY_MS).toISOString().slice(0, 10)
      : calendarDay(q.data_inicio, 'data_inicio', 'INVALID_DATE');
  if (fim < inicio) throw new ApiError('PERIOD_INVERTED', `\`data_fim\` (${fim}) is before \`data_inicio\` (${inicio}).`, { field: 'data_fim', in: 'query' });
  const p = { inicio, fim };
  if (daysIn(p) > o.maxDays)
    throw new ApiError('PERIOD_TOO_LONG', `The period ${inicio} to ${fim} has ${daysIn(p)} days; at most ${o.maxDays}.`, {
      field: 'data_fim',
      in: 'query',
      maxDays: o.maxDays,
    });
  return p;
}
