/**
 * Long `WHERE x IN (…)` lists, cut into short ones: SQLite binds at most 32,766 parameters and
 * PostgreSQL 65,535 per statement, and a statement's text and plan grow with its list.
 */
export const IN_LIST_MAX = 500;

/** `items` in consecutive lists of at most `size`; none for no items. */
export function inLists<T>(items: readonly T[], size = IN_LIST_MAX): T[][] {
  if (!(Number.isInteger(size) && size > 0)) throw new RangeError('an IN list holds at least one value');
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
