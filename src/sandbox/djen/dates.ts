/** Day arithmetic and the date spellings DJEN uses. A "day" is a UTC epoch day number. */
const DAY = 86_400_000;
const BRASILIA_OFFSET = -3 * 3_600_000;

export function dayOf(ms: number): number {
  return Math.floor(ms / DAY);
}

/** The day in Brasília of an instant: what a Brazilian gazette calls that instant's day. */
export function brasiliaDayOf(ms: number): number {
  return Math.floor((ms + BRASILIA_OFFSET) / DAY);
}

export function dayStart(day: number): number {
  return day * DAY;
}

/** 20525 → "2026-03-10". */
export function isoDay(day: number): string {
  return new Date(day * DAY).toISOString().slice(0, 10);
}

/** "2026-03-10" → its day, or null when it is not a real date. */
export function parseIsoDay(text: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return null;
  const ms = Date.parse(`${text}T00:00:00.000Z`);
  return Number.isNaN(ms) || isoDay(dayOf(ms)) !== text ? null : dayOf(ms);
}

/** 20525 → "10/03/2026". */
export function brDay(day: number): string {
  const [y, m, d] = isoDay(day).split('-');
  return `${d}/${m}/${y}`;
}

/** Brasília wall time without a zone, as DJEN writes `created_at`: "2026-03-09T16:46:53". */
export function localStamp(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000 + BRASILIA_OFFSET).toISOString().slice(0, 19);
}

/** "10/03/2026 16:46:53" (Brasília). */
export function brStamp(ms: number): string {
  const [date, time] = localStamp(ms).split('T');
  const [y, m, d] = date.split('-');
  return `${d}/${m}/${y} ${time}`;
}
