/**
 * Brazil's national holidays, on which the courts' gazettes publish no edition: the fixed days of
 * Lei 662/1949 (with Lei 6.802/1980 and Lei 14.759/2023, Consciência Negra) and the days the courts
 * close around Easter (Carnival's Monday and Tuesday, Good Friday, Corpus Christi). The simulators'
 * calendars skip them, as the real gazettes do; regional holidays are left out.
 */
const FIXED = new Set(['01-01', '04-21', '05-01', '09-07', '10-12', '11-02', '11-15', '11-20', '12-25']);
/** Days from Easter Sunday: Carnival Monday and Tuesday, Good Friday, Corpus Christi. */
const FROM_EASTER = [-48, -47, -2, 60];

const DAY_MS = 86_400_000;

/** Easter Sunday of `year` as an epoch day (the anonymous Gregorian algorithm). */
export function easterDay(year: number): number {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return Date.UTC(year, month - 1, day) / DAY_MS;
}

/** Whether the epoch day `day` is a national holiday. */
export function isNationalHoliday(day: number): boolean {
  const date = new Date(day * DAY_MS);
  if (FIXED.has(date.toISOString().slice(5, 10))) return true;
  const easter = easterDay(date.getUTCFullYear());
  return FROM_EASTER.includes(day - easter);
}
