/**
 * The charged lookup served by 1, 2 and 4 `tramita serve` processes on one PostgreSQL (issue 19,
 * item 8): the hot case cover (`GET /v1/processos/cnj/{n}`, a stored, fresh case: auth, the shared
 * rate limit, a debit, the ledger row, the answer) for 100 accounts, each request with the next
 * account's key, one autocannon per process (50 connections in all). Reports throughput and p99 per
 * process count, and checks the debits against the 200s (equal, but for the answers still in flight
 * when autocannon stops, which it does not count).
 * The processes are real (`node src/main.ts serve`, the sandbox in each); the machine's cores bound
 * what more processes can add. Runnable alone with DATABASE_URL: `node bench/multiprocess.ts`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { createPgDatabase } from '../test/harness.ts';
import { NODE, ROOT } from '../test/processes.ts';
import { NODE_FLAGS } from './startup.ts';
const ACCOUNTS = 100;
const CONNECTIONS = 50;

export interface MultiprocessPoint {
  processes: number;
  requestsPerSecond: number;
  p99Ms: number;
  non2xx: number;
}

function start(env: Record<string, string>, port: number): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(NODE, [...NODE_FLAGS, 'src/main.ts', 'serve'], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => {
    out += d;
  });
  child.stderr!.on('data', (d) => {
    out += d;
  });
  // Ready when the banner is out (it follows listening and the first start's account).
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      if (/reference/i.test(out)) {
        clearInterval(timer);
        resolve({ child, output: () => out });
      }
      if (child.exitCode !== null) {
        clearInterval(timer);
        reject(new Error(`serve exited: ${out}`));
      }
    }, 50);
  });
}

async function stop(children: ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map(
      (c) =>
        new Promise((r) => {
          c.once('exit', r);
          c.kill('SIGTERM');
        }),
    ),
  );
}

async function sql<T>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text, values)).rows as T[];
  } finally {
    await c.end();
  }
}

export async function multiprocessBench(durationS = Number(process.env.BENCH_DURATION_S ?? 10)): Promise<MultiprocessPoint[]> {
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error('multiprocess bench: needs DATABASE_URL (PostgreSQL)');
  const db = await createPgDatabase(base);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tramita-mp-'));
  const env = {
    DATABASE_URL: db.url,
    TRAMITA_DATA_DIR: dataDir,
    TRAMITA_LOG_LEVEL: 'warn',
    TRAMITA_LOG_FORMAT: 'json',
    TRAMITA_SANDBOX: 'on',
    TRAMITA_SANDBOX_PORT: '0',
    TRAMITA_SANDBOX_CASES: '2000',
    TRAMITA_WORKERS: 'off',
    TRAMITA_CASE_FRESH_MINUTES: '525600',
    TRAMITA_RATE_LIMITS: 'lookup=100000000/1s',
  };
  const points: MultiprocessPoint[] = [];
  try {
    // One process first: it migrates, creates the accounts and stores the cases the load will read.
    const first = await start(env, 39_100);
    process.stderr.write('  multiprocess: first process up; creating accounts\n');
    const keys: string[] = [];
    for (let i = 0; i < ACCOUNTS; i++) {
      const out = await new Promise<string>((resolve, reject) => {
        const c = spawn(NODE, ['src/main.ts', 'accounts', 'create', '--name', `bench ${i}`, '--credits', '100000', '--json'], {
          cwd: ROOT,
          env: { ...process.env, ...env },
        });
        let o = '';
        c.stdout.on('data', (d) => {
          o += d;
        });
        c.on('exit', (code) => (code === 0 ? resolve(o) : reject(new Error(o))));
      });
      keys.push((JSON.parse(out) as { apiKey: { key: string } }).apiKey.key);
    }
    // The banner's sample case, looked up once: stored and fresh, every later lookup is the hot path.
    const sample = first.output().match(/\/v1\/processos\/cnj\/(\d{20})/);
    const cases = sample ? [sample[1]!] : [];
    for (const n of cases) {
      const res = await fetch(`http://127.0.0.1:39100/v1/processos/cnj/${n}`, { headers: { 'x-api-key': keys[0]! } });
      if (res.status !== 200) throw new Error(`storing ${n}: ${res.status} ${await res.text()}`);
    }
    await stop([first.child]);
    process.stderr.write(`  multiprocess: ${keys.length} accounts, case ${cases[0]} stored\n`);
    if (cases.length === 0) throw new Error('multiprocess bench: no sample case number in the banner');
    for (const processes of [1, 2, 4]) {
      process.stderr.write(`  multiprocess: ${processes} process(es)\n`);
      const servers = await Promise.all(Array.from({ length: processes }, (_, i) => start(env, 39_200 + i)));
      try {
        const perProcess = Math.max(1, Math.round(CONNECTIONS / processes));
        const before = await sql<{ n: string }>(db.url, "select count(*) as n from ledger where kind = 'debit'");
        const results = await Promise.all(
          servers.map((_, i) => {
            let k = i;
            return autocannon({
              url: `http://127.0.0.1:${39_200 + i}/v1/processos/cnj/${cases[0]}`,
              connections: perProcess,
              duration: durationS,
              requests: [
                {
                  setupRequest: (req: Record<string, unknown>) => {
                    k = (k + 1) % ACCOUNTS;
                    return { ...req, headers: { 'x-api-key': keys[k]! } };
                  },
                },
              ],
            } as never);
          }),
        );
        const after = await sql<{ n: string }>(db.url, "select count(*) as n from ledger where kind = 'debit'");
        const ok = results.reduce((s, r) => s + r['2xx'], 0);
        const charged = Number(after[0]!.n) - Number(before[0]!.n);
        // autocannon stops at the deadline without reading the answers in flight: those requests were
        // served and charged, so the debits may exceed the counted 200s by at most the open connections.
        if (charged < ok || charged > ok + processes * perProcess) throw new Error(`multiprocess bench: ${ok} answers 200 but ${charged} debits`);
        points.push({
          processes,
          requestsPerSecond: results.reduce((s, r) => s + r.requests.mean, 0),
          p99Ms: Math.max(...results.map((r) => r.latency.p99)),
          non2xx: results.reduce((s, r) => s + r.non2xx, 0),
        });
      } finally {
        await stop(servers.map((s) => s.child));
      }
    }
    return points;
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
    await db.drop();
  }
}

export function describeMultiprocess(points: MultiprocessPoint[]): string {
  const one = points[0]!;
  return [
    `Charged lookup on PostgreSQL over ${ACCOUNTS} accounts (${os.cpus().length} cores here), every 200 checked against the debits:`,
    '| API processes | requests/s | vs 1 process | p99 | non-2xx |',
    '|---|---|---|---|---|',
    ...points.map(
      (p) =>
        `| ${p.processes} | ${Math.round(p.requestsPerSecond)} | ${(p.requestsPerSecond / one.requestsPerSecond).toFixed(2)}× | ${p.p99Ms} ms | ${p.non2xx} |`,
    ),
  ].join('\n');
}

if (import.meta.main) console.log(describeMultiprocess(await multiprocessBench()));
