/**
 * A consistent copy of the live SQLite store, taken while the server runs and writes (`tramita backup`,
 * issue 29): SQLite's online backup API, on a read-only connection of its own, in ONE step. One step
 * is one read transaction: in WAL mode it sees the store as of one commit and never blocks the writer
 * (the server keeps committing into the WAL; checkpoints wait behind the snapshot). Small steps would
 * not do: a write by another connection between two steps restarts the copy, forever under a steady
 * load. A file copy of tramita.db is never consistent while the server runs: the latest commits are in
 * the WAL, and the file changes under the copy.
 */
import fs from 'node:fs';
import { backup, DatabaseSync } from 'node:sqlite';

/** Every page in one step (node:sqlite wants a positive 32-bit count). */
const ALL_PAGES = 2 ** 31 - 1;

export interface SqliteCopy {
  pages: number;
  bytes: number;
  /** The copy's last applied migration; null when the file is not a Tramita store. */
  migration: string | null;
  /** `PRAGMA quick_check`: 'ok', or the problems it found. */
  integrity: string;
  /** One sealed webhook secret of the copy, to check the secrets key against; null when it has none. */
  sealedSample: string | null;
}

/**
 * Copies the store at `source` into the new file `target` (created 0600: the copy holds what the
 * store holds), turns the copy into a single self-contained file (rollback journal; the server
 * switches it back to WAL when it opens it) and reads it back.
 */
export async function copySqlite(source: string, target: string): Promise<SqliteCopy> {
  const from = new DatabaseSync(source, { readOnly: true });
  let pages: number;
  try {
    from.exec('PRAGMA busy_timeout = 5000');
    fs.closeSync(fs.openSync(target, 'wx', 0o600));
    pages = await backup(from, target, { rate: ALL_PAGES });
  } finally {
    from.close();
  }
  const copy = new DatabaseSync(target);
  try {
    copy.exec('PRAGMA journal_mode = DELETE');
    const integrity = (copy.prepare('PRAGMA quick_check').all() as { quick_check: string }[]).map((r) => r.quick_check).join('; ');
    const has = (table: string) => copy.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(table) !== undefined;
    const migration = has('kysely_migration')
      ? ((copy.prepare('SELECT name FROM kysely_migration ORDER BY name DESC LIMIT 1').get() as { name: string } | undefined)?.name ?? null)
      : null;
    const sealedSample = has('webhook_configs')
      ? ((copy.prepare('SELECT secret_sealed FROM webhook_configs LIMIT 1').get() as { secret_sealed: string } | undefined)?.secret_sealed ?? null)
      : null;
    return { pages, bytes: fs.statSync(target).size, migration, integrity, sealedSample };
  } finally {
    copy.close();
  }
}
