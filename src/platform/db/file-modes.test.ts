/**
 * Files only their owner reads (issue 45 item 4): the SQLite store is created 0600 in a 0700 directory,
 * its WAL and shared-memory files too, and a store found readable by others is tightened at start
 * with a warn line. SQLite only: PostgreSQL keeps its data in its own server.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { sql } from 'kysely';
import { migrate, openDatabase, sqliteFile } from './database.ts';

const modeOf = (p: string) => fs.statSync(p).mode & 0o777;

function tempRoot(t: { after(fn: () => void): void }): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tramita-modes-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  return root;
}

function capturingLog() {
  const lines: { obj: Record<string, unknown>; msg: string }[] = [];
  return { lines, warn: (obj: object, msg: string) => lines.push({ obj: obj as Record<string, unknown>, msg }) };
}

test('a new store: the data directory 0700, the database, its -wal and -shm 0600, after migrations and writes, without a warning', async (t) => {
  const dataDir = path.join(tempRoot(t), 'nested', 'data');
  const log = capturingLog();
  const database = await openDatabase({ dataDir, databaseUrl: undefined }, log);
  try {
    await migrate(database);
    await sql`CREATE TABLE IF NOT EXISTS modes_probe (x integer)`.execute(database.db);
    await sql`INSERT INTO modes_probe (x) VALUES (1)`.execute(database.db);
    const file = sqliteFile({ dataDir });
    assert.equal(modeOf(dataDir), 0o700);
    for (const f of [file, `${file}-wal`, `${file}-shm`]) {
      assert.ok(fs.existsSync(f), `${path.basename(f)} exists while the store is open`);
      assert.equal(modeOf(f), 0o600, `${path.basename(f)} is 0600`);
    }
  } finally {
    await database.close();
  }
  assert.deepEqual(log.lines, []);
});

test('a store readable by others (directory 0755, files 0644, WAL held by another connection) is tightened at start, a warn line per path', async (t) => {
  const dataDir = path.join(tempRoot(t), 'data');
  fs.mkdirSync(dataDir, { mode: 0o755 });
  fs.chmodSync(dataDir, 0o755);
  const file = sqliteFile({ dataDir });
  fs.writeFileSync(file, '');
  fs.chmodSync(file, 0o644);
  // An older version's store: SQLite gives the -wal and -shm the database's 0644.
  const older = new DatabaseSync(file);
  t.after(() => older.isOpen && older.close());
  older.exec('PRAGMA journal_mode = WAL; CREATE TABLE old_rows (x integer); INSERT INTO old_rows VALUES (1);');
  for (const f of [file, `${file}-wal`, `${file}-shm`]) assert.equal(modeOf(f), 0o644, `${path.basename(f)} starts 0644`);

  const log = capturingLog();
  const database = await openDatabase({ dataDir, databaseUrl: undefined }, log);
  try {
    await migrate(database);
    assert.equal(modeOf(dataDir), 0o700);
    for (const f of [file, `${file}-wal`, `${file}-shm`]) assert.equal(modeOf(f), 0o600, `${path.basename(f)} is 0600`);
    const tightened = log.lines.filter((l) => /owner-only/.test(l.msg)).map((l) => [l.obj.path, l.obj.was, l.obj.now]);
    assert.deepEqual(tightened, [
      [dataDir, '0755', '0700'],
      [file, '0644', '0600'],
      [`${file}-wal`, '0644', '0600'],
      [`${file}-shm`, '0644', '0600'],
    ]);
    const rows = await sql<{ x: number }>`SELECT x FROM old_rows`.execute(database.db);
    assert.deepEqual(
      rows.rows.map((r) => r.x),
      [1],
      'the data is untouched',
    );
  } finally {
    await database.close();
  }
});

test('files made looser while the server runs (a copy, a restore by hand) are tightened again after migrations', async (t) => {
  const dataDir = path.join(tempRoot(t), 'data');
  const log = capturingLog();
  const database = await openDatabase({ dataDir, databaseUrl: undefined }, log);
  try {
    const file = sqliteFile({ dataDir });
    fs.chmodSync(file, 0o664);
    await migrate(database);
    assert.equal(modeOf(file), 0o600);
    assert.equal(log.lines.filter((l) => l.obj.path === file).length, 1);
  } finally {
    await database.close();
  }
});

test('a shared sticky directory as TRAMITA_DATA_DIR is never narrowed: a warn line says to give Tramita its own', async (t) => {
  const dataDir = path.join(tempRoot(t), 'shared');
  fs.mkdirSync(dataDir);
  fs.chmodSync(dataDir, 0o1777);
  const log = capturingLog();
  const database = await openDatabase({ dataDir, databaseUrl: undefined }, log);
  await database.close();
  assert.equal(fs.statSync(dataDir).mode & 0o7777, 0o1777);
  assert.ok(log.lines.some((l) => l.obj.path === dataDir && /sticky/.test(l.msg)));
  assert.equal(modeOf(sqliteFile({ dataDir })), 0o600);
});
