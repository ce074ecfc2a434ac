/**
 * What the case monitors let other capabilities use (their door): the publications' ingest and
 * case polling (a DJEN communication of a monitored case: its audience, its page read first, its
 * next DJEN ask), the publication monitors' matcher (the live case monitors it matches), and the
 * console (the account's monitors, their removal).
 */
export { CASE_MONITORS } from './lifecycle.ts';
export { activeCaseMonitors, CASE_MONITOR_READS, caseMonitorsVersion, monitorAudience, pageNews, scheduleNext } from './store.ts';
export type { MonitorRow as CaseMonitorRow } from './store.ts';
