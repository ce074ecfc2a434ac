/**
 * How a person in Brazil reads amounts and dates: `R$ 1.234,56` and `dd/mm/aaaa`. Court times are
 * stored in UTC; a day is the day in Brasília (UTC−3 all year since daylight saving ended in 2019),
 * so a movement at 01:30Z on the 5th is read as the 4th, as the court's own page shows it.
 */
const BRL = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });
const BRASILIA_OFFSET_MS = -3 * 3_600_000;

/** `R$ 1.234,56` from integer centavos (a non-breaking space after R$ becomes a plain one). */
export function formatReais(centavos: number): string {
  return BRL.format(centavos / 100).replace(/\u00a0/g, ' ');
}

/** `dd/mm/aaaa` of an ISO date (`2024-03-05`) or instant (`2024-03-05T01:30:00Z`, read in Brasília); the input itself when it is neither. */
export function formatDateBr(iso: string): string {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(iso) ? iso : brasiliaDay(iso);
  if (!day) return iso;
  return `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;
}

/** `dd/mm/aaaa` (the way courts and gazettes print a day, text after it ignored) → `yyyy-mm-dd`; null otherwise. The inverse of formatDateBr. */
export function isoDayOfBr(text: unknown): string | null {
  const m = typeof text === 'string' ? /^(\d{2})\/(\d{2})\/(\d{4})/.exec(text.trim()) : null;
  return m ? `${m[3]}-${m[2]}-${m[1]}` : null;
}

/** `dd/mm/aaaa HH:MM[:SS]` in Brasília (how government pages print an instant) → ISO-8601 UTC; a bare day is midnight there; null otherwise. */
export function instantOfBr(text: unknown): string | null {
  const m = typeof text === 'string' ? /^(\d{2})\/(\d{2})\/(\d{4})(?:[ T]+(\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(text.trim()) : null;
  if (!m) return null;
  const at = Date.UTC(Number(m[3]), Number(m[2]) - 1, Number(m[1]), Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)) - BRASILIA_OFFSET_MS;
  return Number.isNaN(at) ? null : new Date(at).toISOString();
}

/**
 * A Brasília wall time written ISO without a zone (`2026-08-13T20:32:00.645`, `…T20:30:03.6`,
 * `…T20:30:03`; seconds optional, 0–9 decimals, as Java's ISO_LOCAL_DATE_TIME prints them) → the same
 * instant with its offset and milliseconds, `2026-08-13T20:32:00.645-03:00`; null when it is not a real
 * date and time.
 */
export function brasiliaInstantOfLocal(text: unknown): string | null {
  const m = typeof text === 'string' ? /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?$/.exec(text.trim()) : null;
  if (!m) return null;
  const [, y, mo, d, h, mi, sec = '00', fraction = ''] = m;
  const ms = fraction.padEnd(3, '0').slice(0, 3);
  const wall = `${y}-${mo}-${d}T${h}:${mi}:${sec}.${ms}`;
  const at = Date.parse(`${wall}Z`);
  return Number.isNaN(at) || new Date(at).toISOString() !== `${wall}Z` ? null : `${wall}-03:00`;
}

/** `text` when it is a real calendar day written `yyyy-mm-dd`, else null. */
export function isoDayOf(text: unknown): string | null {
  if (typeof text !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(text)) return null;
  const at = Date.parse(`${text}T00:00:00Z`);
  return Number.isNaN(at) || new Date(at).toISOString().slice(0, 10) !== text ? null : text;
}

/** The UTC instant (ISO) at which a Brasília day (`yyyy-mm-dd`) begins, `days` later. */
export function brasiliaDayStart(day: string, days = 0): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - BRASILIA_OFFSET_MS + days * 86_400_000).toISOString();
}

/** `yyyy-mm-dd` in Brasília of an ISO instant; null when it does not parse. */
export function brasiliaDay(iso: string): string | null {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return null;
  return new Date(at + BRASILIA_OFFSET_MS).toISOString().slice(0, 10);
}

/**
 * The Brasília day (`yyyy-mm-dd`) `days` days before the instant `d` (0: its own day): the calendar DJEN,
 * the gazettes and the courts date by. 23:30 of 31 December in Brasília is still that year, though UTC
 * has turned.
 */
export function brasiliaDayBefore(d: Date, days = 0): string {
  return new Date(d.getTime() + BRASILIA_OFFSET_MS - days * 86_400_000).toISOString().slice(0, 10);
}

/** `yyyy-mm-dd HH:MM:SS` in Brasília, no zone (what the commercial service prints); the input itself when it does not parse. */
export function brasiliaDateTime(iso: string): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  return new Date(at + BRASILIA_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');
}
