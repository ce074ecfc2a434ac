/**
 * How Tramita's processes start and stop as an operator and a supervisor see them (issue 19, item 5):
 * a start that cannot work exits non-zero with one line naming the setting, a SIGTERM sent to
 * `npm start` or `npx tramita serve` (the README's way) leaves no process behind, and a stop with
 * every upstream hung hands its jobs back first and ends its 202 operations as interrupted.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { BIN, freePort, NODE, ROOT, startServe, storeFor, until as poll } from './processes.ts';

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

test('SIGTERM while a 202 operation waits on a hung upstream: running jobs are handed back within their own grace, the operation ends OPERATION_INTERRUPTED', {
  timeout: 120_000,
}, async (t) => {
  const store = await storeFor(t);
  const port = await freePort();
  // A window longer than the jobs' 5 s grace, and jobs in this process on either engine.
  const serve = startServe(t, store, port, { ...SMALL_SANDBOX, TRAMITA_SYNC_WINDOW_MS: '10000', TRAMITA_WORKERS: 'in-process', TRAMITA_LOG_LEVEL: 'info' });
  const [, key] = await serve.waitFor(/API key\s+(\S+)/);
  const [, sandbox] = await serve.waitFor(/"datajud":"(http:\/\/127\.0\.0\.1:\d+)/);
  await serve.waitFor(/tramita listening/);
  const faults = await fetch(`${sandbox}/_sandbox/faults`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ upstream: 'all', hang: true }),
  });
  assert.equal(faults.status, 200, await faults.text());
  const cnj = '1000149-71.2024.8.26.0346';
  const headers = { 'x-api-key': key };
  // A cover asked for as a 202: it goes on in the background, waiting on DataJud.
  const op = await fetch(`http://127.0.0.1:${port}/v1/processos/cnj/${cnj}`, { headers: { ...headers, prefer: 'respond-async' } });
  assert.equal(op.status, 202, await op.text());
  // A refresh: its job waits on DataJud too.
  const refresh = await fetch(`http://127.0.0.1:${port}/v1/processos/cnj/${cnj}/solicitar-atualizacao`, { method: 'POST', headers });
  assert.ok(refresh.status < 300, await refresh.text());
  await poll('the refresh job running', 30_000, async () => (await store.rows('jobs')).find((j) => j.kind === 'processos.atualizar' && j.status === 'running'));

  serve.child.kill('SIGTERM');
  await serve.waitFor(/unfinished jobs handed back/, 30_000);
  const out = serve.output();
  assert.ok(out.includes('waiting for the operations that answered 202'), 'the operation was still running at the signal');
  assert.ok(!out.includes('done waiting for the operations that answered 202'), 'the jobs were handed back while the operation still had its window');
  assert.equal((await store.rows('jobs')).find((j) => j.kind === 'processos.atualizar')?.status, 'pending', 'the refresh job is due again');
  assert.deepEqual(await serve.exited(60_000), { code: 0, signal: null });
  assert.ok(serve.output().includes('done waiting for the operations that answered 202'), 'then the operation had its window');
  // At the window's end the connectors were closed under it: the hung request was aborted, not waited
  // out, and the operation stored its end before the database closed.
  const stored = (await store.rows('async_requests')).find((r) => r.status === 'done');
  assert.ok(stored, 'the operation has a final answer');
  assert.equal(stored.response_status, 503);
  assert.equal(JSON.parse(String(stored.response_body)).error.code, 'OPERATION_INTERRUPTED');
  assert.doesNotMatch(serve.output(), /"level":50/, 'no error line');
});
