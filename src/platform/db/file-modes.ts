/**
 * Files only their owner reads (issue 45 item 4; docs/operations.md, "Files and their modes"): the
 * data directory is 0700, and the SQLite store, its `-wal`, `-shm` and `-journal` files, `secret.key`
 * and every file Tramita writes are 0600. The store holds customer data and password hashes; before
 * this, SQLite created it 0644 (the umask's default), readable by every local user, while its backup
 * was 0600. A directory or file found looser (a store created by an older version, a copy made by
 * hand) is tightened at start and after migrations, with a warn line; one that cannot be is left
 * with a warn line too, never a refusal to start.
 */
import fs from 'node:fs';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Where the tightening is told (the storage logger). */
export interface FileModeLog {
  warn(obj: object, msg: string): void;
}

/** The sticky bit (S_ISVTX, not in fs.constants): a directory shared by users, such as /tmp. */
const STICKY = 0o1000;

const octal = (mode: number) => `0${(mode & 0o777).toString(8)}`;

/**
 * Gives `target` the mode `mode` when others (or the group) may read or write it; true when changed. A
 * missing file is no concern; a sticky directory (`/tmp`) is never narrowed, only reported.
 */
export function tighten(target: string, mode: number, log?: FileModeLog): boolean {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(target);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
  if ((stat.mode & 0o777 & ~mode) === 0) return false;
  if (stat.isDirectory() && stat.mode & STICKY) {
    log?.warn(
      { path: target, mode: octal(stat.mode) },
      'the data directory is a shared (sticky) directory: its mode is left as is; give Tramita a directory of its own',
    );
    return false;
  }
  try {
    fs.chmodSync(target, mode);
  } catch (err) {
    log?.warn(
      { path: target, mode: octal(stat.mode), err: { code: (err as NodeJS.ErrnoException).code } },
      'a file of the store is readable by other users and its mode could not be changed',
    );
    return false;
  }
  log?.warn({ path: target, was: octal(stat.mode), now: octal(mode) }, 'a file of the store was readable by other users: its mode is now owner-only');
  return true;
}

/** The directory, created 0700 when missing (with its parents), tightened to 0700 when it exists looser. */
export function ensurePrivateDir(dir: string, log?: FileModeLog): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  tighten(dir, PRIVATE_DIR_MODE, log);
}

/** The file, created empty with mode 0600 when missing (so that what opens it next keeps that mode). */
export function createPrivateFile(file: string): void {
  fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE_MODE));
}

/**
 * The SQLite store's files at 0600: the database and what SQLite keeps beside it. SQLite gives a new
 * `-wal`, `-shm` or `-journal` the database file's own mode, so a 0600 database keeps them 0600.
 */
export function secureSqliteFiles(file: string, log?: FileModeLog): void {
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) tighten(f, PRIVATE_FILE_MODE, log);
}
