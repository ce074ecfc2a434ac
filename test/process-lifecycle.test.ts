/**
 * How Tramita's processes start and stop as an operator and a supervisor see them (issue 19, item 5):
 * a start that cannot work exits non-zero with one line naming the setting, and a SIGTERM sent to
 * `npm start` or `npx tramita serve` (the README's way) leaves no process behind.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { BIN, freePort, NODE, ROOT, startServe, storeFor } from './processes.ts';

/** A small, fast sandbox: these tests are about the process, not the data. */
const SMALL_SANDBOX = { TRAMITA_SANDBOX_CASES: '300', TRAMITA_SANDBOX_PORT: '0', TRAMITA_GAZETTE_BACKFILL_DAYS: '1' };

function childrenOf(pid: number): number[] {
  const kids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) kids.push(Number(entry));
    } catch {
      /* gone meanwhile */
    }
  }
  return kids;
}

/** The process and all its descendants, now. */
function processTree(pid: number): number[] {
  const all = [pid];
  for (let i = 0; i < all.length; i++) all.push(...childrenOf(all[i]!));
  return all;
}

/** Alive and not a zombie (a zombie has exited; only its parent has not read its status yet). */
function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
    if (check()) return true;
  }
  return check();
}

for (const [label, command, args] of [
  ['npm start', 'npm', ['start']],
  ['npx tramita serve', 'npx', ['--no-install', 'tramita', 'serve']],
] as const) {
  test(`SIGTERM to ${label} stops the server and leaves no process behind`, { timeout: 120_000 }, async (t) => {
    const store = await storeFor(t);
    const port = await freePort();
    const child = spawn(command, [...args], { cwd: ROOT, env: { ...store.env, PORT: String(port), ...SMALL_SANDBOX }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      out += d;
    });
    let tree: number[] = [];
    t.after(() => {
      for (const pid of tree) if (alive(pid)) process.kill(pid, 'SIGKILL');
    });
    assert.ok(await until(() => out.includes('tramita listening'), 60_000), `never listened:\n${out}`);
    tree = processTree(child.pid!);
    assert.ok(tree.length >= 2, `${label} runs the server as a child process (${tree.join(', ')})`);

    child.kill('SIGTERM'); // to npm / npx only, as a supervisor that knows one pid would
    const gone = await until(() => tree.every((pid) => !alive(pid)), 30_000);
    assert.ok(gone, `still running after SIGTERM: ${tree.filter(alive).join(', ')}\n${out}`);
    assert.match(out, /"msg":"stopped"/, 'the server ran its shutdown (in-flight requests, leases, database)');
    // The port is free again: nothing holds it.
    await new Promise<void>((resolve, reject) => {
      const s = net
        .createServer()
        .once('error', reject)
        .listen(port, '127.0.0.1', () => s.close(() => resolve()));
    });
  });
}

test('tramita serve on a port already in use exits non-zero at once with one line naming PORT', { timeout: 60_000 }, async (t) => {
  const store = await storeFor(t);
  const holder = net.createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  t.after(() => holder.close());
  const { port } = holder.address() as net.AddressInfo;
  const serve = startServe(t, store, port, SMALL_SANDBOX);
  const { code } = await serve.exited(30_000);
  assert.equal(code, 1, serve.output());
  assert.match(serve.output(), /tramita: cannot listen on 127\.0\.0\.1:\d+: the port is already in use\. Set PORT/);
  assert.doesNotMatch(serve.output(), /^\s+at /m, 'no stack trace');
  assert.doesNotMatch(serve.output(), /sandbox: generating/, 'it failed before building the sandbox');
});

test('tramita serve with an unreachable DATABASE_URL exits non-zero with one line naming it, without the password', { timeout: 60_000 }, async (t) => {
  const store = await storeFor(t);
  const closed = await freePort();
  const serve = startServe(t, store, await freePort(), { ...SMALL_SANDBOX, DATABASE_URL: `postgres://tramita:segredo@127.0.0.1:${closed}/tramita` });
  const { code } = await serve.exited(30_000);
  assert.equal(code, 1, serve.output());
  assert.match(serve.output(), /tramita: cannot use the database at postgres:\/\/tramita:\*\*\*@127\.0\.0\.1:\d+\/tramita: ECONNREFUSED\. Check DATABASE_URL/);
  assert.doesNotMatch(serve.output(), /segredo/);
  assert.doesNotMatch(serve.output(), /^\s+at /m, 'no stack trace');
});

test('a bad setting exits 2 with one line naming it, without the usage', { timeout: 60_000 }, async (t) => {
  const store = await storeFor(t);
  const serve = startServe(t, store, await freePort(), { TRAMITA_WORKERS: 'sometimes' });
  const { code } = await serve.exited(30_000);
  assert.equal(code, 2, serve.output());
  assert.match(serve.output(), /TRAMITA_WORKERS/);
  assert.doesNotMatch(serve.output(), /Usage:/);
});

test('tramita worker with TRAMITA_WORKER_METRICS_PORT serves its own /metrics and stops with 0 on SIGTERM', { timeout: 60_000 }, async (t) => {
  const store = await storeFor(t);
  const port = await freePort();
  const child = spawn(NODE, [BIN, 'worker'], {
    cwd: ROOT,
    env: { ...store.env, ...SMALL_SANDBOX, TRAMITA_WORKER_METRICS_PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.after(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    out += d;
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    out += d;
  });
  assert.ok(await until(() => out.includes('tramita worker running'), 30_000), out);
  const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  for (const name of ['tramita_job_runs_total', 'tramita_webhook_deliveries_total', 'tramita_upstream_requests_total', 'process_resident_memory_bytes']) {
    assert.match(metrics, new RegExp(`^# TYPE ${name} `, 'm'), name);
  }
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  assert.equal(await exited, 0, out);
});
