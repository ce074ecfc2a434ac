/**
 * `tramita backup DIR`: a copy of the running SQLite store and its secrets key into a new directory
 * that another Tramita serves as it is (`TRAMITA_DATA_DIR=DIR`). The copy is one consistent moment of
 * the store (platform/db/sqlite-backup.ts), checked before it is kept: SQLite's quick_check, and the
 * key must open the store's sealed secrets. Nothing is left in DIR when any of it fails, so whatever
 * DIR holds afterwards is a whole backup. PostgreSQL is pg_dump's job (docs/operations.md, "Backups"):
 * the command refuses rather than write a partial backup that a nightly job would take for a whole one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Config } from '../config.ts';
import { readKeyFile, SecretBox, secretKeyFile, SECRET_KEY_FILE } from '../platform/crypto/secret-box.ts';
import { sqliteFile, SQLITE_FILE_NAME as DB_FILE } from '../platform/db/database.ts';
import { copySqlite, type SqliteCopy } from '../platform/db/sqlite-backup.ts';
import { UsageError, type Print } from './admin.ts';
import { StartupError } from './startup-failure.ts';

/** Where the secrets key comes from: the environment, a file of the data directory, or nowhere yet. */
type KeySource = { from: 'TRAMITA_SECRET_KEY'; hex: string } | { from: 'file'; file: string; hex: string } | { from: 'none'; file: string };

function keySource(config: Config): KeySource {
  if (config.secretKey) return { from: 'TRAMITA_SECRET_KEY', hex: config.secretKey };
  const file = secretKeyFile(config.dataDir);
  let hex: string | null;
  try {
    hex = readKeyFile(file);
  } catch (err) {
    throw new StartupError(`cannot read the secrets key: ${(err as Error).message.replace(/^secret box: /, '')}`);
  }
  return hex === null ? { from: 'none', file } : { from: 'file', file, hex };
}

/** Where the key lives, for a message. */
function keyPlace(config: Config): string {
  return config.secretKey ? 'TRAMITA_SECRET_KEY' : secretKeyFile(config.dataDir);
}

/** Makes DIR (mode 0700) or takes an empty one; returns whether it was created here. */
function prepareDirectory(dir: string): boolean {
  let entries: string[];
  try {
    entries = fs.readdirSync(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR') throw new StartupError(`cannot back up into ${dir}: it is a file. Give a new or empty directory.`);
    if (code !== 'ENOENT') throw new StartupError(`cannot back up into ${dir}: ${(err as Error).message}`);
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    return true;
  }
  if (entries.length)
    throw new StartupError(
      `cannot back up into ${dir}: it exists and is not empty (${entries.length} entries). Give a new or empty directory: a backup never overwrites one.`,
    );
  fs.chmodSync(dir, 0o700);
  return false;
}

/** The copy is kept only if SQLite finds it sound and the key opens its sealed secrets. */
function check(copy: SqliteCopy, key: KeySource, source: string): void {
  if (copy.migration === null) throw new StartupError(`${source} is not a Tramita database (it has no migrations table). Check TRAMITA_DATA_DIR.`);
  if (copy.integrity !== 'ok')
    throw new StartupError(
      `the copy of ${source} fails SQLite's integrity check (${copy.integrity.slice(0, 200)}): the store itself is damaged; see docs/operations.md, "Backups".`,
    );
  if (copy.sealedSample === null) return;
  if (key.from === 'none')
    throw new StartupError(
      `the store holds sealed secrets but there is no secrets key at ${key.file}: without it they cannot be read. Restore the key file first.`,
    );
  try {
    SecretBox.fromKey(key.hex).unseal(copy.sealedSample);
  } catch {
    throw new StartupError(
      `the secrets key (${key.from === 'file' ? key.file : key.from}) does not open the store's sealed secrets: the data ` +
        `directory and the key do not belong together.`,
    );
  }
}

function fsyncPath(p: string): void {
  const fd = fs.openSync(p, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;

export async function backupCommand(config: Config, argv: string[], print: Print): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, strict: true, options: { json: { type: 'boolean', default: false } } });
  if (positionals.length !== 1) throw new UsageError('expected DIR, a new or empty directory for the backup');
  if (config.databaseUrl) {
    throw new StartupError(
      `tramita backup copies the embedded SQLite store, and DATABASE_URL is set: back up PostgreSQL with pg_dump -Fc and keep the secrets key ` +
        `(${keyPlace(config)}) with the dump; see docs/operations.md, "Backups".`,
    );
  }
  const source = sqliteFile(config);
  if (!fs.existsSync(source)) throw new StartupError(`no database at ${source}: set TRAMITA_DATA_DIR to the data directory of the server to back up.`);
  const key = keySource(config);
  const dir = path.resolve(positionals[0]);
  const started = performance.now();
  const created = prepareDirectory(dir);
  const partial = path.join(dir, `${DB_FILE}.partial`);
  const keyCopy = path.join(dir, SECRET_KEY_FILE);
  let copy: SqliteCopy;
  try {
    try {
      copy = await copySqlite(source, partial);
    } catch (err) {
      throw new StartupError(`cannot back up ${source} into ${dir}: ${(err as Error).message}`);
    }
    check(copy, key, source);
    if (key.from === 'file') {
      fs.writeFileSync(keyCopy, `${key.hex}\n`, { flag: 'wx', mode: 0o600 });
      fsyncPath(keyCopy);
    }
    // The database gets its name last: a directory with tramita.db in it holds a whole, checked backup.
    fs.renameSync(partial, path.join(dir, DB_FILE));
    fsyncPath(dir);
  } catch (err) {
    for (const f of [partial, `${partial}-journal`, `${partial}-wal`, `${partial}-shm`, keyCopy]) fs.rmSync(f, { force: true });
    if (created) fs.rmSync(dir, { recursive: true, force: true });
    if (err instanceof StartupError) throw err;
    throw new StartupError(`cannot write the backup into ${dir}: ${(err as Error).message}`);
  }
  const seconds = (performance.now() - started) / 1000;
  const keyFile = key.from === 'file' ? keyCopy : null;
  if (values.json) {
    print(
      JSON.stringify({
        directory: dir,
        seconds: Number(seconds.toFixed(3)),
        database: { file: path.join(dir, DB_FILE), bytes: copy.bytes, pages: copy.pages, migration: copy.migration, integrity: copy.integrity },
        secretKey: { source: key.from, file: keyFile, opensSealedSecrets: copy.sealedSample === null ? null : true },
      }),
    );
    return 0;
  }
  const keyLine = {
    file: `  ${SECRET_KEY_FILE}  the secrets key (mode 600)${copy.sealedSample ? ", checked: it opens the store's sealed secrets" : ''}`,
    TRAMITA_SECRET_KEY:
      '  the secrets key is NOT in the backup: it comes from TRAMITA_SECRET_KEY. Keep that value with this backup; a ' +
      'restore needs the same TRAMITA_SECRET_KEY.',
    none: '  no secrets key yet in the data directory (the store has no sealed secrets); a restored server makes one',
  }[key.from];
  print(
    [
      `backup of ${source} written to ${dir} (mode 700) in ${seconds.toFixed(1)} s:`,
      `  ${DB_FILE}  ${mb(copy.bytes)}, the store as of one moment while it ran; integrity ok; last migration ${copy.migration} (mode 600)`,
      keyLine,
      `restore: copy the directory to the new data directory (cp -a keeps the modes) and start there: TRAMITA_DATA_DIR=<copy> npx tramita serve`,
    ].join('\n'),
  );
  return 0;
}
