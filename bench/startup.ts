/**
 * Start fast, stay small (issue 19, item 7): from spawning `tramita serve` (as `npm start` runs it:
 * bin/tramita.mjs, with its Node flags) to the first 200 of `/readyz`, on a database that already exists, without the
 * sandbox and with it; then the idle RSS a few seconds later. A bare node:http server spawned the same
 * way in the same run is the baseline (this machine's cost of starting Node at all). The median of
 * several starts each. Runnable alone: `node bench/startup.ts`.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { NODE, ROOT } from '../test/processes.ts';

/** The flags `npm start` and bin/tramita.mjs run Node with. */
export const NODE_FLAGS = ['--max-semi-space-size=4'];
export const STARTUP_TARGETS = { readyMs: 1_000, readySandboxMs: 2_000, idleRssMb: 150 };
const RUNS = 5;
const IDLE_MS = 3_000;

export interface StartMeasure {
  readyMs: number;
  idleRssMb: number;
}
export interface StartupResult {
  baseline: StartMeasure;
  plain: StartMeasure;
  sandbox: StartMeasure;
  sandboxCases: number;
}

const BARE_SERVER = `require('node:http').createServer((q, r) => r.end('ok')).listen(Number(process.env.PORT), '127.0.0.1')`;

function rssMb(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  return kb / 1024;
}

async function once(args: string[], env: Record<string, string>, port: number, url: string): Promise<StartMeasure> {
  const started = performance.now();
  const child = spawn(NODE, args, { cwd: ROOT, env: { ...process.env, ...env, PORT: String(port) }, stdio: 'ignore' });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}`);
      const ok = await fetch(`http://127.0.0.1:${port}${url}`).then(
        (r) => {
          void r.arrayBuffer();
          return r.status === 200;
        },
        () => false,
      );
      if (ok) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    const readyMs = performance.now() - started;
    await new Promise((r) => setTimeout(r, IDLE_MS));
    return { readyMs, idleRssMb: rssMb(child.pid!) };
  } finally {
    // A child that already exited (a failed start: the port taken) has no 'exit' left to wait for.
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function measure(args: string[], env: Record<string, string>, url: string): Promise<StartMeasure> {
  const runs: StartMeasure[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await once(args, env, 39_000 + i, url));
  return { readyMs: median(runs.map((r) => r.readyMs)), idleRssMb: median(runs.map((r) => r.idleRssMb)) };
}

export async function startupBench(): Promise<StartupResult> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tramita-start-'));
  const base = { TRAMITA_DATA_DIR: dataDir, TRAMITA_LOG_LEVEL: 'warn', DATABASE_URL: '' };
  const serve = [...NODE_FLAGS, 'bin/tramita.mjs', 'serve'];
  try {
    // The first start creates and migrates the database (and warms Node's compile cache): not measured.
    await once(serve, { ...base, TRAMITA_SANDBOX: 'off' }, 38_999, '/readyz');
    const baseline = await measure(['-e', BARE_SERVER], {}, '/');
    const plain = await measure(serve, { ...base, TRAMITA_SANDBOX: 'off' }, '/readyz');
    const sandbox = await measure(serve, { ...base, TRAMITA_SANDBOX: 'on', TRAMITA_SANDBOX_PORT: '0' }, '/readyz');
    return { baseline, plain, sandbox, sandboxCases: 20_000 };
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export function describeStartup(r: StartupResult): string {
  const verdict = (ok: boolean) => (ok ? 'MET' : 'NOT MET');
  const t = STARTUP_TARGETS;
  return [
    `Start-up (median of ${RUNS}, spawn -> 200 on /readyz, existing SQLite database; baseline: a bare node:http server spawned the same ` +
      `way, ${Math.round(r.baseline.readyMs)} ms, ${Math.round(r.baseline.idleRssMb)} MB):`,
    `  without the sandbox: ${Math.round(r.plain.readyMs)} ms (${(r.plain.readyMs / r.baseline.readyMs).toFixed(1)}x the baseline; target <= ${t.readyMs} ` +
      `ms: ${verdict(r.plain.readyMs <= t.readyMs)}), idle RSS ${Math.round(r.plain.idleRssMb)} MB (target <= ${t.idleRssMb} ` +
      `MB: ${verdict(r.plain.idleRssMb <= t.idleRssMb)})`,
    `  with the sandbox (${r.sandboxCases} cases generated at start): ${Math.round(r.sandbox.readyMs)} ms ` +
      `(${(r.sandbox.readyMs / r.baseline.readyMs).toFixed(1)}x; target <= ${t.readySandboxMs} ` +
      `ms: ${verdict(r.sandbox.readyMs <= t.readySandboxMs)}), idle RSS ${Math.round(r.sandbox.idleRssMb)} MB`,
  ].join('\n');
}

if (import.meta.main) console.log(describeStartup(await startupBench()));
