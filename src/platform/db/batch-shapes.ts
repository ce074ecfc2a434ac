/**
 * Batched statements in few shapes. A statement over n rows (`IN (?, ?, …)`, a multi-row VALUES) is a
 * different SQL text for every n, and each text is a prepared statement of its own (SQLite's cache in
 * sqlite-dialect.ts keeps 500, oldest out first): batches of every size from 1 to 256 would push the
 * request path's statements out. So an IN list is padded to the next power of two (repeating an id
 * changes nothing), and rows are written in power-of-two chunks: at most nine shapes per statement.
 */

/** `ids` padded with its last id to a power-of-two length (ids must not be empty). */
export function paddedIds(ids: readonly string[]): string[] {
  let size = 1;
  while (size < ids.length) size *= 2;
  const out = ids.slice();
  while (out.length < size) out.push(ids[ids.length - 1]);
  return out;
}

/** `rows` cut into chunks whose lengths are powers of two, largest first (37 → 32, 4, 1), none longer than `max` (a power of two). */
export function powerOfTwoChunks<T>(rows: readonly T[], max = Number.POSITIVE_INFINITY): T[][] {
  const chunks: T[][] = [];
  let at = 0;
  while (at < rows.length) {
    let size = 1;
    while (size * 2 <= rows.length - at && size * 2 <= max) size *= 2;
    chunks.push(rows.slice(at, at + size));
    at += size;
  }
  return chunks;
}
