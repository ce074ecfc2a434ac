/**
 * The case monitors' door (issue 55 item 3): what other capabilities may use of them. The publication
 * ingest announces a case's DJEN communications to its monitors (their audience, the news mark of their
 * court pages) and the publication cycle schedules each number's next DJEN ask.
 */
export { pageNews } from './court-pages.ts';
export { scheduleNext } from './schedules.ts';
export { monitorAudience } from './store.ts';
