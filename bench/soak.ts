/**
 * `npm run soak -- --minutes 60` (or SOAK_MINUTES=60): a real `tramita serve` (child process, sandbox
 * upstreams, SQLite in a temp data directory, or a fresh PostgreSQL database when DATABASE_URL is set)
 * under a steady, moderate mix for the given time (bench/soak-load.ts), sampled every N seconds from
 * outside the process: RSS, heap used and event-loop lag p99 from its /metrics, the database's and the
 * WAL's size. Prints the table over time, the RSS slope (MB/hour, least squares over the second half),
 * how much the database grew per request and which tables grew, and writes the plot (SVG).
 * Then checks that nothing failed: no 5xx but the injected faults' documented 503/504, no error in the
 * server's log, every webhook delivered to the loopback receiver and correctly signed, every account's
 * balance = credits − debits. Exits 1 when a check fails.
 *
 * Options (flag or environment): --minutes / SOAK_MINUTES (default 10), --sample-seconds /
 * SOAK_SAMPLE_SECONDS (default: the run's length / 20, between 5 and 60), --rate / SOAK_RATE (requests/s,
 * default 10), --cases / SOAK_CASES (sandbox cases, default 2000), --fault-every / SOAK_FAULT_EVERY_SECONDS
 * (default 120), --svg / SOAK_SVG (where the plot goes; default a temp file). SOAK_KEEP=1 keeps the store.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BIN, freePort, freshStore, NODE, ROOT, until } from '../test/processes.ts';
import { receiver, signature } from '../test/webhook-receiver.ts';
import { fixtures, SoakLoad } from './soak-load.ts';
import { rssSlopeMbPerHour, samplesSvg, samplesTable, serverMetrics, storageProbe, type Sample } from './soak-samples.ts';

export interface SoakOptions {
  seconds: number;
  sampleSeconds: number;
  rate: number;
  cases: number;
  faultEverySeconds: number;
  faultSeconds: number;
  svgPath?: string;
  /** Every line the server writes (the suite's log scan reads them). */
  onServerLine?: (line: string) => void;
  progress?: (line: string) => void;
}

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

export interface SoakReport {
  engine: 'SQLite' | 'PostgreSQL';
  options: SoakOptions;
  samples: Sample[];
  rssSlopeMbPerHour: number;
  requests: number;
  skipped: number;
  counts: SoakLoad['counts'];
  faults: number;
  deliveries: number;
  rowsBefore: Record<string, number>;
  rowsAfter: Record<string, number>;
  svgPath: string;
  checks: Check[];
}

const SEED = 1;
/** Its own check: on PostgreSQL, work still running when the pool closes logs errors (docs/benchmarks.md, Soak). */
const SHUTDOWN_LOG_CHECK = "no error in the server's log while it stops";
const SETTLE_MS = 60_000;
/** Shutdown may give background operations the 30 s sync window, then hands jobs back. */
const STOP_MS = 90_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `tramita serve` as `npm start` runs it (same V8 flag), its lines scanned as they come. */
function startServer(env: Record<string, string>, onLine: (line: string) => void) {
  const child = spawn(NODE, ['--max-semi-space-size=4', BIN, 'serve'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let pending = '';
  const read = (d: string) => {
    const lines = (pending + d).split('\n');
    pending = lines.pop()!;
    for (const line of lines) onLine(line);
  };
  child.stdout.setEncoding('utf8').on('data', read);
  child.stderr.setEncoding('utf8').on('data', read);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited };
}

export async function runSoak(o: SoakOptions): Promise<SoakReport> {
  const say = o.progress ?? (() => {});
  const store = await freshStore(process.env.DATABASE_URL);
  const hook = await receiver();
  const [port, sandboxPort] = [await freePort(), await freePort()];
  const base = `http://127.0.0.1:${port}`;
  const log = { errors: [] as string[], shutdownErrors: [] as string[], stopping: false, warnings: {} as Record<string, number>, tail: [] as string[] };
  let key: string | undefined;
  const server = startServer(
    {
      ...store.env,
      PORT: String(port),
      TRAMITA_SANDBOX: 'on',
      TRAMITA_SANDBOX_CASES: String(o.cases),
      TRAMITA_SANDBOX_SEED: String(SEED),
      TRAMITA_SANDBOX_PORT: String(sandboxPort),
      TRAMITA_WORKERS: 'in-process',
      TRAMITA_WEBHOOK_ALLOW_PRIVATE: 'true',
      TRAMITA_LOG_LEVEL: 'warn',
      TRAMITA_LOG_FORMAT: 'json',
      TRAMITA_SANDBOX_CREDITS_BRL: '1000000',
      // One integrator at ~10 requests/s: above the default per-key limits, which are not what is soaked.
      TRAMITA_RATE_LIMITS: 'lookup=100000/60s,search=100000/60s,monitor=100000/60s,async=100000/60s,account=100000/60s',
      // A hung upstream ends in 504 within seconds rather than DataJud's 40 s.
      DATAJUD_TIMEOUT_MS: '5000',
      // The real DJEN allows 20 requests/min per IP: searches at this rate would queue without end, a
      // capacity question (docs/operations.md), not what a soak looks for. The sandbox's DJEN is local.
      DJEN_REQUESTS_PER_MINUTE: '600',
    },
    (line) => {
      o.onServerLine?.(line);
      key ??= /API key\s+(\S+)/.exec(line)?.[1];
      log.tail.push(line);
      if (log.tail.length > 50) log.tail.shift();
      let level = 0;
      let msg = '';
      try {
        ({ level, msg } = JSON.parse(line));
      } catch {
        /* the banner */
      }
      if (level >= 50 || /unhandled|uncaught/i.test(line)) (log.stopping ? log.shutdownErrors : log.errors).push(line.slice(0, 1500));
      else if (level === 40) log.warnings[msg] = (log.warnings[msg] ?? 0) + 1;
    },
  );
  let probe: Awaited<ReturnType<typeof storageProbe>> | undefined;
  try {
    await until("the server's banner with the sandbox key", 120_000, async () => {
      if (server.child.exitCode !== null) throw new Error(`soak: serve exited (${server.child.exitCode}):\n${log.tail.join('\n')}`);
      return key;
    });
    const headers = { 'x-api-key': key!, 'content-type': 'application/json' };
    const secret = ((await (await fetch(`${base}/v1/conta/webhook`, { headers })).json()) as { data: { segredo: string } }).data.segredo;
    const put = await fetch(`${base}/v1/conta/webhook`, { method: 'PUT', headers, body: JSON.stringify({ url: hook.url }) });
    if (!put.ok) throw new Error(`soak: PUT /v1/conta/webhook answered ${put.status}: ${await put.text()}`);

    // The first start's jobs (the gazettes' 15-day backfill) are start-up, not the day's load.
    await until("the first start's gazette ingest", 300_000, async () =>
      /^tramita_job_runs_total\{kind="diarios\.ingestao",outcome="done"\} [1-9]/m.test(await (await fetch(`${base}/metrics`)).text()) ? true : undefined,
    );
    const load = new SoakLoad(
      { base, sandboxBase: `http://127.0.0.1:${sandboxPort}`, key: key!, rate: o.rate, faultEverySeconds: o.faultEverySeconds, faultSeconds: o.faultSeconds },
      fixtures(o.cases, SEED),
    );
    say('soak: priming the hot cases');
    await load.prime();
    probe = await storageProbe(store.dataDir, store.databaseUrl);
    const rowsBefore = await probe.rowCounts();
    const samples: Sample[] = [];
    const t0 = Date.now();
    const sample = async () => {
      const s: Sample = { atS: (Date.now() - t0) / 1000, requests: load.answered, ...(await serverMetrics(base)), ...(await probe!.sizes()) };
      samples.push(s);
      say(
        `soak: ${s.atS.toFixed(0)} s, ${s.requests} requests, RSS ${s.rssMb.toFixed(1)} MB, heap ${s.heapMb.toFixed(1)} MB, lag p99 ${s.lagP99Ms.toFixed(1)} ` +
          `ms, DB ${s.dbMb.toFixed(2)} MB, WAL ${s.walMb.toFixed(2)} MB`,
      );
    };
    await sample();
    load.start();
    for (let n = 1; n * o.sampleSeconds < o.seconds; n++) {
      await sleep(t0 + n * o.sampleSeconds * 1000 - Date.now());
      await sample();
    }
    await sleep(t0 + o.seconds * 1000 - Date.now());
    await sample();
    say('soak: load stopped, waiting for the deliveries to settle');
    await load.stop();
    const deliveries = await until('every webhook delivery to settle', SETTLE_MS, async () => {
      const rows = await store.rows('webhook_deliveries');
      return rows.some((r) => r.status === 'PENDENTE') ? undefined : rows;
    }).catch(() => store.rows('webhook_deliveries'));
    const rowsAfter = await probe.rowCounts();
    const checks = [
      ...answerChecks(load),
      ...deliveryChecks(deliveries, hook.received, secret),
      ledgerCheck(await store.rows('accounts'), await store.rows('ledger')),
      {
        name: 'the server ran throughout',
        ok: server.child.exitCode === null,
        detail: server.child.exitCode === null ? 'still running at the end' : `exited with ${server.child.exitCode}`,
      },
    ];
    const stopping = Date.now();
    log.stopping = true;
    server.child.kill('SIGTERM');
    // Unref'd: a pending timer would keep the process (or the test file) alive after the run.
    const code = await Promise.race([server.exited, new Promise((r) => setTimeout(r, STOP_MS, `none within ${STOP_MS / 1000} s`).unref())]);
    checks.push({ name: 'SIGTERM stops it cleanly', ok: code === 0, detail: `exit code ${code} after ${((Date.now() - stopping) / 1000).toFixed(1)} s` });
    checks.push({
      name: "no error in the server's log",
      ok: log.errors.length === 0,
      detail: log.errors.length ? log.errors.slice(0, 5).join('\n') : `no error or unhandled line; warnings: ${JSON.stringify(log.warnings)}`,
    });
    checks.push({
      name: SHUTDOWN_LOG_CHECK,
      ok: log.shutdownErrors.length === 0,
      detail: log.shutdownErrors.length
        ? `${log.shutdownErrors.length} lines, e.g. ${log.shutdownErrors.slice(0, 2).join('\n')}`
        : 'no error or unhandled line after SIGTERM',
    });
    const svgPath = o.svgPath ?? path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tramita-soak-')), 'soak.svg');
    const engine = store.databaseUrl ? 'PostgreSQL' : 'SQLite';
    fs.writeFileSync(svgPath, samplesSvg(samples, engine));
    return {
      engine,
      options: o,
      samples,
      rssSlopeMbPerHour: rssSlopeMbPerHour(samples),
      requests: load.answered,
      skipped: load.skipped,
      counts: load.counts,
      faults: load.faults.length,
      deliveries: deliveries.length,
      rowsBefore,
      rowsAfter,
      svgPath,
      checks,
    };
  } finally {
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    await probe?.close();
    await hook.close();
    if (process.env.SOAK_KEEP === '1') o.progress?.(`soak: store kept in ${store.dataDir}${store.databaseUrl ? ` and ${store.databaseUrl}` : ''}`);
    else await store.drop();
  }
}

function answerChecks(load: SoakLoad): Check[] {
  const unexplained = load.unexplained();
  const injected = load.serverErrors.length - unexplained.length;
  return [
    {
      name: "no 5xx but the injected faults' 503/504",
      ok: unexplained.length === 0,
      detail: unexplained.length
        ? unexplained
            .slice(0, 10)
            .map((e) => `${e.kind}: ${e.answer} (${new Date(e.startedAt).toISOString()} .. ${new Date(e.endedAt).toISOString()})`)
            .join('; ')
        : `${injected} answers were 503/504 to requests in flight during ${load.faults.length} injected faults; no other 5xx or network error`,
    },
    { name: 'faults were injected', ok: load.faults.length > 0, detail: `${load.faults.length} fault windows` },
  ];
}

function deliveryChecks(rows: Record<string, unknown>[], received: Awaited<ReturnType<typeof receiver>>['received'], secret: string): Check[] {
  const notDelivered = rows.filter((r) => r.status !== 'ENTREGUE');
  const got = new Set(received.map((d) => String(d.headers['x-service-delivery-id'])));
  const missing = rows.filter((r) => !got.has(String(r.id)));
  const badSignature = received.filter((d) => d.headers['x-service-signature'] !== signature(secret, d.raw));
  return [
    { name: 'events flowed to the webhook', ok: rows.length > 0, detail: `${rows.length} deliveries recorded, ${received.length} requests received` },
    {
      name: 'every delivery ENTREGUE and received, correctly signed',
      ok: notDelivered.length === 0 && missing.length === 0 && badSignature.length === 0,
      detail:
        `${notDelivered.length} not ENTREGUE (${[...new Set(notDelivered.map((r) => r.status))].join(', ')}), ${missing.length} never ` +
        `received, ${badSignature.length} with a bad signature`,
    },
  ];
}

function ledgerCheck(accounts: Record<string, unknown>[], ledger: Record<string, unknown>[]): Check {
  const wrong: string[] = [];
  let debits = 0;
  for (const a of accounts) {
    const rows = ledger.filter((r) => r.account_id === a.id);
    const credits = rows.filter((r) => r.kind === 'credit').reduce((s, r) => s + Number(r.delta_centavos), 0);
    const debited = rows.filter((r) => r.kind === 'debit').reduce((s, r) => s + Math.abs(Number(r.delta_centavos)), 0);
    debits += rows.filter((r) => r.kind === 'debit').length;
    if (Number(a.balance_centavos) !== credits - debited) wrong.push(`${a.id}: balance ${a.balance_centavos} ≠ ${credits} − ${debited}`);
  }
  return {
    name: 'every balance = credits − debits',
    ok: wrong.length === 0,
    detail: wrong.length ? wrong.join('; ') : `${accounts.length} accounts, ${debits} debit rows`,
  };
}

// ---------------------------------------------------------------- the command

function describe(r: SoakReport): string {
  const s = r.samples;
  const first = s[0]!,
    last = s.at(-1)!,
    mid = s[Math.floor(s.length / 2)]!;
  const peak = Math.max(...s.map((x) => x.rssMb));
  const lags = s.map((x) => x.lagP99Ms).sort((a, b) => a - b);
  const grown = Object.keys(r.rowsAfter)
    .map((t) => [t, r.rowsAfter[t]! - (r.rowsBefore[t] ?? 0)] as const)
    .filter(([, d]) => d > 0)
    .sort((a, b) => b[1] - a[1]);
  // Over the second half, as the slope: the first requests fill the cache of cases and gazettes.
  const perRequestKb = ((last.dbMb + last.walMb - mid.dbMb - mid.walMb) * 1024) / Math.max(1, last.requests - mid.requests);
  const cpus = os.cpus();
  return [
    `Soak: ${r.engine}, ${(r.options.seconds / 60).toFixed(1)} min at ${r.options.rate} requests/s (open loop), sandbox of ${r.options.cases} cases, a fault ` +
      `every ${r.options.faultEverySeconds} s for ${r.options.faultSeconds} s`,
    `  machine: ${cpus.length} cores (${cpus[0]?.model.trim() ?? 'unknown CPU'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB ` +
      `RAM, ${os.platform()} ${os.release()}, node ${process.version}; load ` +
      `avg ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' / ')} at the end`,
    '',
    samplesTable(s),
    '',
    `RSS: ${first.rssMb.toFixed(1)} MB at the start, ${last.rssMb.toFixed(1)} MB at the end, peak ${peak.toFixed(1)} MB; slope over the second ` +
      `half ${r.rssSlopeMbPerHour.toFixed(1)} MB/hour`,
    `heap used: ${first.heapMb.toFixed(1)} → ${last.heapMb.toFixed(1)} MB (peak ${Math.max(...s.map((x) => x.heapMb)).toFixed(1)}); event-loop lag p99: ` +
      `median ${lags[Math.floor(lags.length / 2)]!.toFixed(1)} ms, max ${lags.at(-1)!.toFixed(1)} ms`,
    `database: ${first.dbMb.toFixed(2)} → ${last.dbMb.toFixed(2)} MB, WAL ${first.walMb.toFixed(2)} → ${last.walMb.toFixed(2)} MB ` +
      `(max ${Math.max(...s.map((x) => x.walMb)).toFixed(2)}); over the second half ${perRequestKb.toFixed(2)} ` +
      `KB per request (database + WAL)`,
    `requests: ${r.requests} answered, ${r.skipped} ticks skipped (cap in flight); ${r.faults} faults injected; ${r.deliveries} webhook deliveries`,
    `rows added: ${grown.map(([t, d]) => `${t} +${d}`).join(', ')}`,
    `answers: ${Object.entries(r.counts)
      .map(([k, c]) => `${k} ${JSON.stringify(c)}`)
      .join('; ')}`,
    `plot: ${r.svgPath}`,
    '',
    ...r.checks.map((c) => `${c.ok ? 'ok  ' : 'FAIL'} ${c.name}: ${c.detail}`),
  ].join('\n');
}

function options(): SoakOptions {
  const { values } = parseArgs({
    options: {
      minutes: { type: 'string' },
      'sample-seconds': { type: 'string' },
      rate: { type: 'string' },
      cases: { type: 'string' },
      'fault-every': { type: 'string' },
      svg: { type: 'string' },
    },
  });
  const num = (flag: string | undefined, env: string, fallback: number) => {
    const raw = flag ?? process.env[env];
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`soak: ${env} (or its flag) must be a positive number, got "${raw}"`);
    return n;
  };
  const seconds = num(values.minutes, 'SOAK_MINUTES', 10) * 60;
  return {
    seconds,
    sampleSeconds: num(values['sample-seconds'], 'SOAK_SAMPLE_SECONDS', Math.min(60, Math.max(5, Math.round(seconds / 20)))),
    rate: num(values.rate, 'SOAK_RATE', 10),
    cases: num(values.cases, 'SOAK_CASES', 2000),
    faultEverySeconds: num(values['fault-every'], 'SOAK_FAULT_EVERY_SECONDS', 120),
    faultSeconds: 5,
    svgPath: values.svg ?? process.env.SOAK_SVG,
    progress: (line) => process.stderr.write(`${line}\n`),
  };
}

if (import.meta.main) {
  const report = await runSoak(options());
  console.log(describe(report));
  if (report.checks.some((c) => !c.ok)) process.exitCode = 1;
}
