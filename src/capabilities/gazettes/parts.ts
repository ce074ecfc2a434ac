/**
 * The gazettes' door (issue 55 item 3): the days read on demand (the house hands them to tests and the
 * benchmark), and what the electoral bulletin board shares with the electoral gazettes (the court
 * check, the period's bounds and fields).
 */
export type { GazetteDays } from './days.ts';
export { DEFAULT_PERIOD_DAYS, electoralCourt, MAX_PERIOD_DAYS } from './routes.ts';
export { PeriodQuery, PeriodSchema } from './schemas.ts';
