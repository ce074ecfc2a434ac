/**
 * The calendar sweep (issue 42): the calendar-sensitive tests run again with the harness's clock pinned
 * (TRAMITA_TEST_NOW, test/test-date.ts) at the dates that stress a calendar. The suite itself runs at one
 * ordinary business day; a test that assumed the calendar gives it data (a weekday, a gazette, a month of
 * 31 days) fails here on the day that breaks it, not on the day CI happens to run. `.ci/run` runs it on
 * SQLite (the calendar does not depend on the engine); `npm run test:calendar` runs it by hand, and
 * `npm run test:calendar -- 2028-02-29T15:00:00Z` runs one date.
 */
import { spawn } from 'node:child_process';
import { PROJECT_ROOT } from '../src/config.ts';

/** Instants, in UTC; Brasília is UTC-3 all year. Each names what it stresses. */
export const SWEEP_DATES: readonly { at: string; why: string }[] = [
  { at: '2026-03-09T11:00:00.000Z', why: 'a Monday morning: the week before is the last one with editions' },
  { at: '2026-03-15T15:00:00.000Z', why: 'a Sunday: no gazette, no business day' },
  { at: '2026-04-30T15:00:00.000Z', why: "a month's last day (30 days), the next cycle starts in May" },
  { at: '2027-01-01T02:30:00.000Z', why: '31 December, 23:30 in Brasília: UTC has turned the year, Brasília has not' },
  { at: '2027-01-01T15:00:00.000Z', why: '1 January: a new year, a national holiday' },
  { at: '2028-02-29T15:00:00.000Z', why: "29 February 2028: a leap day (and Carnival's Tuesday)" },
  { at: '2026-04-21T15:00:00.000Z', why: 'Tiradentes, a national holiday on a Tuesday: no gazette' },
  { at: '2026-02-18T15:00:00.000Z', why: "Ash Wednesday: the first edition after four days without (Carnival's weekend, Monday, Tuesday)" },
];

/** The tests whose expectations follow the calendar: gazettes, DJEN cadernos, monitors and their renewals, the window, statements, summaries. */
export const CALENDAR_TESTS: readonly string[] = [
  'src/capabilities/gazettes/gazettes.test.ts',
  'src/capabilities/intimations/intimations.test.ts',
  'src/capabilities/publication-monitors/publication-monitors.test.ts',
  'src/capabilities/monitors/monitors.test.ts',
  'src/capabilities/administrative/monitors.test.ts',
  'test/paid-monitor-lifecycle.test.ts',
  'test/async-window.test.ts',
  'test/credits.test.ts',
  'src/capabilities/summaries/summaries.test.ts',
];

function runAt(at: string): Promise<{ code: number; summary: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--test', '--test-concurrency=2', '--test-timeout=120000', ...CALENDAR_TESTS], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, TRAMITA_TEST_NOW: at },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (b: Buffer) => {
      out += b;
    });
    child.stderr.on('data', (b: Buffer) => {
      out += b;
    });
    child.on('close', (code) => {
      const counts = ['tests', 'pass', 'fail'].map((k) => out.match(new RegExp(`^ℹ ${k} (\\d+)$`, 'm'))?.[1] ?? '?');
      // A failing date prints its whole report: which test, which assertion.
      if (code !== 0) process.stdout.write(out);
      resolve({ code: code ?? 1, summary: `${counts[0]} tests, ${counts[1]} pass, ${counts[2]} fail` });
    });
  });
}

const only = process.argv.slice(2);
const dates = only.length > 0 ? only.map((at) => ({ at, why: 'asked' })) : SWEEP_DATES;
let failed = 0;
for (const { at, why } of dates) {
  const began = performance.now();
  const { code, summary } = await runAt(at);
  if (code !== 0) failed++;
  console.log(`${code === 0 ? 'ok  ' : 'FAIL'} ${at}  ${summary}  ${((performance.now() - began) / 1000).toFixed(0)} s  (${why})`);
}
if (failed > 0) {
  console.error(`calendar sweep: ${failed} of ${dates.length} dates failed`);
  process.exit(1);
}
console.log(`calendar sweep: ${dates.length} dates, every run green`);
