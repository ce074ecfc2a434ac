/**
 * Storage outage drills with real processes (issue 29, item 1). PostgreSQL: a cluster of the test's
 * own is stopped (`pg_ctl -m fast`, what a restart or a maintenance window does) for
 * TRAMITA_DRILL_OUTAGE_MS (default 20 s) while 16 callers make charged lookups, then started again.
 * Tramita must never exit, answer 503 STORAGE_UNAVAILABLE meanwhile (never a 500, never a hang past
 * the caller's patience), say not ready, serve again without a restart, resume its jobs, and the
 * ledger must hold exactly the charged answers the callers received. Bounded; loopback only.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, freshStore, ROOT, startServe } from './processes.ts';
import { assertLedgerMatchesAnswers, chargedLoad, percentile, statusCounts } from './storage-outage.ts';

const OUTAGE_MS = Number(process.env.TRAMITA_DRILL_OUTAGE_MS ?? 20_000);
const CALLERS = 16;
const CLUSTER = path.join(ROOT, 'scripts', 'pg-cluster.sh');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, ms: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** A PostgreSQL cluster of this test's own (the suite's shared one is never stopped), on a free port. */
async function ownCluster(t: import('node:test').TestContext) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tramita-outage-pg-'));
  fs.chmodSync(dir, 0o777);
  const port = String(await freePort());
  // Asynchronous: the test's loop keeps reading the server's output and driving the callers meanwhile.
  const start = async () => (await promisify(execFile)('bash', [CLUSTER, 'start', dir, port], { encoding: 'utf8' })).stdout.trim();
  const stop = async () => {
    await promisify(execFile)('bash', [CLUSTER, 'stop', dir]);
  };
  const url = await start();
  const store = await freshStore(url);
  t.after(async () => {
    await store.drop().catch(() => {});
    await stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { store, start, stop };
}

test('PostgreSQL stopped under load and started again: 503s meanwhile, no exit, served again without a restart, ledger = charged answers', {
  skip: !process.env.DATABASE_URL && 'the PostgreSQL run of the suite drills PostgreSQL',
  timeout: OUTAGE_MS + 120_000,
}, async (t) => {
  const cluster = await ownCluster(t);
  const { store } = cluster;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = startServe(t, store, port, {
    TRAMITA_SANDBOX: 'on',
    TRAMITA_SANDBOX_CASES: '300',
    TRAMITA_WORKERS: 'in-process',
    TRAMITA_LOG_LEVEL: 'info',
    TRAMITA_LOG_FORMAT: 'json',
    TRAMITA_DB_CONNECT_TIMEOUT_MS: '2000',
    TRAMITA_SANDBOX_CREDITS_BRL: '100000',
    TRAMITA_RATE_LIMITS: 'lookup=1000000/60s',
  });
  const [, key] = await server.waitFor(/API key\s+(\S+)/);
  const [, cnj] = await server.waitFor(/\/v1\/processos\/cnj\/(\d{20})/);
  const get = (p: string) => fetch(`${base}${p}`, { headers: { 'x-api-key': key }, signal: AbortSignal.timeout(30_000) });

  const load = chargedLoad(base, key, `/v1/processos/cnj/${cnj}`, CALLERS);
  await sleep(2_000);
  const stoppedAt = Date.now();
  await cluster.stop();
  await sleep(Math.min(3_000, OUTAGE_MS));
  const readyDuring = await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(30_000) });
  assert.equal(readyDuring.status, 503, 'not ready while the database is away');
  await sleep(Math.max(0, OUTAGE_MS - (Date.now() - stoppedAt)));
  assert.equal(server.child.exitCode, null, `the server is still running after ${OUTAGE_MS} ms without its database:\n${server.output().slice(-2000)}`);
  await cluster.start();
  const startedAt = Date.now();
  await until('a charged answer after the restart', 30_000, async () => (load.outcomes.some((o) => o.status === 200 && o.at > startedAt) ? true : undefined));
  const recoveredMs = Date.now() - startedAt;
  await sleep(2_000);
  const outcomes = await load.stop();
  t.diagnostic(`load stopped at ${Date.now() - stoppedAt} ms`);

  const counts = statusCounts(outcomes);
  const during = outcomes.filter((o) => o.at > stoppedAt && o.at < startedAt);
  t.diagnostic(
    `outage ${OUTAGE_MS} ms; answers: ${JSON.stringify(counts)}; during the outage p50/p99/max ${percentile(
      during.map((o) => o.ms),
      0.5,
    ).toFixed(0)}/${percentile(
      during.map((o) => o.ms),
      0.99,
    ).toFixed(0)}/${Math.max(...during.map((o) => o.ms)).toFixed(0)} ms; first 200 ${recoveredMs} ms after PostgreSQL started`,
  );
  const internal = server
    .output()
    .split('\n')
    .filter((l) => /"level":50/.test(l));
  assert.deepEqual(internal, [], 'no error logged');
  for (const key of Object.keys(counts))
    assert.ok(key === '200' || key === '503 STORAGE_UNAVAILABLE', `only 200 and 503 STORAGE_UNAVAILABLE, got ${JSON.stringify(counts)}`);
  assert.ok(counts['503 STORAGE_UNAVAILABLE']! > 0, 'the outage was seen');
  assert.equal((await fetch(`${base}/readyz`)).status, 200, 'ready again');
  assertLedgerMatchesAnswers(outcomes, await store.rows('ledger'));

  t.diagnostic(`ledger checked at ${Date.now() - stoppedAt} ms`);
  // Jobs resume: a refresh asked after the outage is run by the in-process worker.
  const refresh = await fetch(`${base}/v1/processos/cnj/${cnj}/solicitar-atualizacao`, { method: 'POST', headers: { 'x-api-key': key } });
  assert.equal(refresh.status, 200, await refresh.text());
  await until('the refresh to finish', 30_000, async () => {
    const body = (await (await get(`/v1/processos/cnj/${cnj}/status-atualizacao`)).json()) as { data: { status: string } };
    return body.data.status === 'CONCLUIDA' ? true : undefined;
  });
  assert.doesNotMatch(server.output(), /Unhandled|uncaught/i, 'no unhandled error');
  server.child.kill('SIGTERM');
  await server.exited(15_000);
});
