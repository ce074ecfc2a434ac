/**
 * DataJud dates → ISO-8601 UTC with milliseconds. The same field comes as `2018-10-29T00:00:00.000Z`,
 * `20250708160117` (TRF4, no zone: UTC, it matches the movement's dataHora to the second), with
 * microseconds `…04.214000Z` or nanoseconds `…42.681808837Z` (reference/upstream/datajud.md §7, §8.4).
 */

const COMPACT = /^(\d{4})(\d{2})(\d{2})(?:(\d{2})(\d{2})(\d{2}))?$/;
const ISO_LIKE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** ISO UTC string, or null when the value is missing or not a date this function recognises. */
export function normalizeDataJudDate(value: unknown): string | null {
  if (typeof value === 'number') return fromNumber(value);
  if (typeof value !== 'string') return null;
  const text = value.trim();
  const compact = COMPACT.exec(text);
  if (compact) return fromParts(compact.slice(1, 7), '', 0);
  const iso = ISO_LIKE.exec(text);
  if (iso) return fromParts(iso.slice(1, 7), iso[7] ?? '', offsetMinutes(iso[8]));
  return null;
}

/** Numbers: `20250708160117`/`20250708` spelled as a number, otherwise epoch milliseconds. */
function fromNumber(value: number): string | null {
  if (!Number.isFinite(value)) return null;
  const digits = Number.isInteger(value) && value >= 0 ? String(value) : '';
  if (digits.length === 14 || digits.length === 8) return normalizeDataJudDate(digits);
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

function offsetMinutes(zone: string | undefined): number {
  if (!zone || zone.toUpperCase() === 'Z') return 0;
  const m = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone);
  if (!m) return 0;
  const minutes = Number(m[2]) * 60 + Number(m[3] ?? 0);
  return m[1] === '-' ? -minutes : minutes;
}

/** Builds the instant and rejects impossible calendars (month 13, Feb 30, hour 24). */
function fromParts(parts: Array<string | undefined>, fraction: string, offsetMin: number): string | null {
  const [y, mo, d, h, mi, s] = parts.map((p) => Number(p ?? 0));
  const ms = Number(fraction.slice(0, 3).padEnd(3, '0')); // truncate µs/ns to ms
  const local = Date.UTC(y, mo - 1, d, h, mi, s, ms);
  const check = new Date(local);
  const valid =
    check.getUTCFullYear() === y &&
    check.getUTCMonth() === mo - 1 &&
    check.getUTCDate() === d &&
    check.getUTCHours() === h &&
    check.getUTCMinutes() === mi &&
    check.getUTCSeconds() === s;
  return valid ? new Date(local - offsetMin * 60_000).toISOString() : null;
}
