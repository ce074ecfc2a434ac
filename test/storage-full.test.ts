/**
 * The disk under SQLite fills up mid-write (issue 29, item 1): `tramita serve` on a small tmpfs of
 * its own, charged lookups running, the rest of the disk taken by a file until writes fail. Requests
 * must answer 503 STORAGE_UNAVAILABLE (never a 500), the database must stay sound, and once the file
 * is removed the same process serves again, with the ledger holding exactly the charged answers.
 * Mounting a tmpfs needs root (CI runs as root); elsewhere the drill says so and is skipped.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { freePort, freshStore, startServe } from './processes.ts';
import { assertLedgerMatchesAnswers, chargedLoad, statusCounts } from './storage-outage.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A tmpfs of `mb` megabytes at a new directory, unmounted after the test; null when mounting is not allowed here. */
function smallDisk(t: import('node:test').TestContext, mb: number): string | null {
  if (process.getuid?.() !== 0) return null;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tramita-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${mb}m`, 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    fs.rmdirSync(dir);
    return null;
  }
  t.after(() => {
    execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

/** Writes zeros into `file` until the disk refuses (ENOSPC). */
function fillDisk(file: string): void {
  const fd = fs.openSync(file, 'w');
  const chunk = Buffer.alloc(64 * 1024);
  try {
    for (;;) fs.writeSync(fd, chunk);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    fs.closeSync(fd);
  }
}

test("SQLite's disk full under load: 503 STORAGE_UNAVAILABLE meanwhile, a sound database, served again once space is freed, ledger = charged answers", {
  skip: process.env.DATABASE_URL ? 'SQLite only (the PostgreSQL run drills PostgreSQL restarts)' : false,
  timeout: 120_000,
}, async (t) => {
  const disk = smallDisk(t, 96);
  if (!disk) return t.skip('mounting a tmpfs needs root; this machine does not allow it');
  const store = await freshStore(undefined);
  t.after(() => store.drop());
  const dataDir = path.join(disk, 'data');
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = startServe(t, { ...store, dataDir, env: { ...store.env, TRAMITA_DATA_DIR: dataDir } }, port, {
    TRAMITA_SANDBOX: 'on',
    TRAMITA_SANDBOX_CASES: '300',
    TRAMITA_LOG_LEVEL: 'warn',
    TRAMITA_LOG_FORMAT: 'json',
    TRAMITA_SANDBOX_CREDITS_BRL: '100000',
    TRAMITA_RATE_LIMITS: 'lookup=1000000/60s',
    TRAMITA_GAZETTE_BACKFILL_DAYS: '0',
  });
  const [, key] = await server.waitFor(/API key\s+(\S+)/);
  const cnjs = [...server.output().matchAll(/\/v1\/processos\/cnj\/(\d{20})/g)].map((m) => m[1]);
  // Every lookup of a case not yet stored writes it: the disk fills with cases as well as charges.
  const loads = [...new Set(cnjs)].slice(0, 4).map((cnj) => chargedLoad(base, key, `/v1/processos/cnj/${cnj}`, 4));
  await sleep(1_500);

  const filler = path.join(disk, 'filler');
  fillDisk(filler);
  await sleep(3_000);
  assert.equal(server.child.exitCode, null, 'the server runs on with a full disk');
  const whileFull = loads.flatMap((l) => l.outcomes).filter((o) => o.status !== 200).length;
  fs.rmSync(filler);
  const freedAt = Date.now();
  await sleep(2_000);
  const outcomes = (await Promise.all(loads.map((l) => l.stop()))).flat();

  const counts = statusCounts(outcomes);
  t.diagnostic(`answers: ${JSON.stringify(counts)}`);
  for (const l of [
    ...new Set(
      server
        .output()
        .split('\n')
        .filter((l) => /"level":50/.test(l))
        .map((l) =>
          l
            .replace(/"time":\d+,/, '')
            .replace(/req_\w+/g, '')
            .slice(0, 900),
        ),
    ),
  ].slice(0, 5))
    t.diagnostic(l);
  for (const k of Object.keys(counts))
    assert.ok(k === '200' || k === '503 STORAGE_UNAVAILABLE', `only 200 and 503 STORAGE_UNAVAILABLE, got ${JSON.stringify(counts)}`);
  assert.ok(whileFull > 0, 'the full disk was met');
  assert.ok(
    outcomes.some((o) => o.status === 200 && o.at > freedAt),
    'served again after the space was freed, without a restart',
  );
  assert.deepEqual(
    server
      .output()
      .split('\n')
      .filter((l) => /"level":50/.test(l)),
    [],
    'no error logged',
  );

  server.child.kill('SIGTERM');
  await server.exited(15_000);
  const db = new DatabaseSync(path.join(dataDir, 'tramita.db'));
  try {
    assert.deepEqual(
      db
        .prepare('PRAGMA integrity_check')
        .all()
        .map((r) => r.integrity_check),
      ['ok'],
    );
    assertLedgerMatchesAnswers(outcomes, db.prepare('SELECT kind, search_log_id FROM ledger').all() as Record<string, unknown>[]);
  } finally {
    db.close();
  }
});
