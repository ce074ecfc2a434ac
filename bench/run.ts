/**
 * `npm run bench`: throughput and p99 latency of Tramita next to a bare node:http server measured in
 * the same run, on loopback, with autocannon (50 connections, fixed duration, a warm-up before each).
 * Every server under test runs in a child process of its own, so the load generator here never shares
 * an event loop with it. The charged cases (the charged route, the hot cover) are then checked against the
 * database: a bench that measures errors, or charges wrongly, fails loudly instead of printing a number.
 *
 * Environment: BENCH_DURATION_S (default 10), BENCH_WARMUP_S (default 2), DATABASE_URL (run the Tramita
 * cases on PostgreSQL, in a fresh database created from it, against the PostgreSQL floor, floor-pg.ts, and
 * with a 1,000-accounts variant of the charged route and the hot cover), BENCH_CPU_PROF=1 (servers write
 * V8 CPU profiles into a temp dir, printed at the end; summarise one with bench/profile-summary.ts),
 * BENCH_BREAKDOWN=1 (three more rows that split the charged path's cost: bare Fastify, a Tramita
 * route without auth/limit/charge, one with auth + rate limit only), BENCH_MATCH_COMMUNICATIONS
 * (default 200000) and BENCH_MATCH_GREP_TIMEOUT_S (default 120) for the publication-matching stage,
 * BENCH_SCALE_CASES / BENCH_SCALE_MONITORS / BENCH_SCALE_REQUESTS / BENCH_SCALE_SVG for the scale curves (bench/scale.ts)
 * (bench/matching.ts), BENCH_HTTP_ONLY=1 (stop after the HTTP cases), BENCH_CASES=TEXT[,TEXT…] (only the HTTP cases whose
 * name contains one of the TEXTs, and the baseline; for iterating on one path), BENCH_PAIRED_ROUNDS (default 6; 0 skips) and
 * BENCH_PAIRED_SEGMENT_S (default 3) for the paired stage (bench/paired.ts: each case with a share-of-floor target against its floor,
 * alternating). Writes nothing but stdout/stderr and temp dirs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Result } from 'autocannon';
import { BENCH_ROUTES, type ReadyMessage } from './servers/ipc.ts';
import { CONNECTIONS, killChildren, load, serverCpuUs, serverStats, startServer, stopServer, type ServedCase } from './child-servers.ts';
import { describePaired, measurePaired, type Paired } from './paired.ts';
import { coldBatch, COLD_BATCH_TARGET_PER_1000 } from './cold-batch.ts';
import { monitorCycle, MONITOR_CYCLE_TARGET_PER_1000 } from './monitor-cycle.ts';
import { cadernoIngest } from './caderno-ingest.ts';
import { SANDBOX_DJEN_BUDGET, sandboxStart } from './sandbox-start.ts';
import { webhookBenchInOwnProcess, webhookTargets } from './webhooks.ts';
import { describeOfflineSummary, offlineSummaryBench } from './summaries.ts';
import { describeUrlGuard } from './url-guard.ts';
import { describeConsultaParse } from './consultas.ts';
import { describeCourtSearchFanOut } from './court-search.ts';
import { describeGazettes, gazetteBench } from './gazettes.ts';
import { describePrecatorios, precatorioBench } from './precatorios.ts';
import { matchingBenchSettings, MATCHING_TARGET_RATIO, runMatchingBench } from './matching.ts';
import { describeStartup, startupBench } from './startup.ts';
import { describeMultiprocess, multiprocessBench } from './multiprocess.ts';
import { describeMonitorScale, describeScale, monitorScale, scaleBench, writeScalePlot } from './scale.ts';

const TARGETS = { chargedRatio: 0.4, chargedP99Ms: 15, coverRatio: 0.5, coverP99Ms: 10 };
/**
 * Issue 34: as a share of the floor's throughput, the hot cover on SQLite, and the charged path and the
 * hot cover over many accounts on PostgreSQL.
 */
const FLOOR_SHARE_TARGET = 0.6;
/** Issue 34: the SQLite hot cover's p99 at 50 connections. */
const COVER_P99_TARGET_MS = 10;
/** The accounts of the many-accounts cases: each request picks one of their keys at random. */
const MANY_ACCOUNTS = 1000;

interface Settings {
  durationS: number;
  warmupS: number;
  profileDir: string | undefined;
  breakdown: boolean;
  /** BENCH_HTTP_ONLY=1: stop after the HTTP cases (for iterating on the request path). */
  httpOnly: boolean;
  /** BENCH_PAIRED_ROUNDS (default 6; 0 skips) rounds of BENCH_PAIRED_SEGMENT_S (default 3) s: the paired stage (bench/paired.ts). */
  pairedRounds: number;
  pairedSegmentS: number;
}

interface CaseSpec extends ServedCase {
  /** The baseline is the ratio's denominator; the charged case gets the targets and the billing check. */
  role: 'baseline' | 'floor' | 'charged' | 'cover' | 'other';
  /** Only with BENCH_BREAKDOWN=1: where the charged path's cost comes from. */
  breakdown: boolean;
  /** Runs only on this engine (the floors are per engine; the many-accounts cases are PostgreSQL's). */
  only?: 'sqlite' | 'postgres';
}

interface Measured {
  spec: CaseSpec;
  engine: string;
  warmup: Result;
  run: Result;
  /** CPU time (user + system, all threads) the server spent per response of the measured run. */
  serverCpuUsPerRequest: number;
  ready: ReadyMessage;
  stats?: Record<string, number>;
}

interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

// ---------------------------------------------------------------- settings and header

function positiveNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0 || n > 3600) throw new Error(`${name} must be a number of seconds in (0, 3600], got "${raw}"`);
  return n;
}

function readSettings(): Settings {
  const profile = process.env.BENCH_CPU_PROF === '1';
  return {
    durationS: positiveNumber('BENCH_DURATION_S', 10),
    warmupS: positiveNumber('BENCH_WARMUP_S', 2),
    profileDir: profile ? fs.mkdtempSync(path.join(os.tmpdir(), 'tramita-bench-prof-')) : undefined,
    breakdown: process.env.BENCH_BREAKDOWN === '1',
    httpOnly: process.env.BENCH_HTTP_ONLY === '1',
    pairedRounds: process.env.BENCH_PAIRED_ROUNDS === '0' ? 0 : Math.round(positiveNumber('BENCH_PAIRED_ROUNDS', 6)),
    pairedSegmentS: positiveNumber('BENCH_PAIRED_SEGMENT_S', 3),
  };
}

function maskedDatabaseUrl(): string | undefined {
  const raw = process.env.DATABASE_URL;
  if (!raw) return undefined;
  const url = new URL(raw);
  if (url.password) url.password = '***';
  return url.toString();
}

function exactCommand(): string {
  const env = [
    'BENCH_DURATION_S',
    'BENCH_WARMUP_S',
    'BENCH_CPU_PROF',
    'BENCH_BREAKDOWN',
    'BENCH_HTTP_ONLY',
    'BENCH_CASES',
    'BENCH_PAIRED_ROUNDS',
    'BENCH_PAIRED_SEGMENT_S',
    'BENCH_MATCH_COMMUNICATIONS',
    'BENCH_MATCH_GREP_TIMEOUT_S',
  ]
    .filter((k) => process.env[k])
    .map((k) => `${k}=${/\s/.test(process.env[k]!) ? `'${process.env[k]}'` : process.env[k]}`);
  const db = maskedDatabaseUrl();
  if (db) env.push(`DATABASE_URL=${db}`);
  const cmd = process.env.npm_lifecycle_event === 'bench' ? 'npm run bench' : `node ${path.relative(process.cwd(), fileURLToPath(import.meta.url))}`;
  return [...env, cmd].join(' ');
}

function loadAverage(): string {
  return os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');
}

function printHeader(settings: Settings): void {
  const cpus = os.cpus();
  console.log('Tramita benchmark');
  console.log(`  command:  ${exactCommand()}`);
  console.log(
    `  machine:  ${cpus.length} cores (${cpus[0]?.model.trim() ?? 'unknown CPU'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB ` +
      `RAM, ${os.platform()} ${os.release()}`,
  );
  console.log(`  node:     ${process.version} (servers: same binary, ${process.execPath})`);
  console.log(
    `  load:     autocannon, ${CONNECTIONS} connections, pipelining 1, 127.0.0.1, ${settings.warmupS} s warm-up + ${settings.durationS} s measured per case`,
  );
  console.log(`  servers:  each in its own child process (child_process.fork); the load generator runs in this one`);
  console.log(`  load avg: ${loadAverage()} (1/5/15 min) at start — other processes on the machine skew every number`);
  const engine = process.env.DATABASE_URL
    ? `PostgreSQL (fresh database created from ${maskedDatabaseUrl()})`
    : 'SQLite (fresh file in a temp TRAMITA_DATA_DIR)';
  console.log(`  engine:   ${engine}`);
  console.log('');
}

// ---------------------------------------------------------------- child servers

async function measure(spec: CaseSpec, settings: Settings): Promise<Measured> {
  const server = await startServer(spec.script, settings, spec.env);
  try {
    const { ready } = server;
    const url = `http://127.0.0.1:${ready.port}${spec.path(ready)}`;
    const headers = spec.headers(ready);
    const keys = spec.accounts === 'many' ? (ready.details.keys as string[]) : undefined;
    process.stdout.write(`  ${spec.name}: warm-up ${settings.warmupS} s, measuring ${settings.durationS} s ... `);
    const warmup = await load(url, headers, settings.warmupS, keys);
    const cpuBefore = await serverCpuUs(server);
    const run = await load(url, headers, settings.durationS, keys);
    const serverCpuUsPerRequest = ((await serverCpuUs(server)) - cpuBefore) / Math.max(1, run.requests.total);
    console.log(`${Math.round(run.requests.mean)} req/s`);
    // Requests cut off by autocannon's stop may still be finishing on the server: let them land first.
    const stats = spec.role === 'charged' || spec.role === 'cover' ? await settle(1_000).then(() => serverStats(server)) : undefined;
    return { spec, engine: ready.engine ?? 'no DB', warmup, run, serverCpuUsPerRequest, ready, stats };
  } finally {
    await stopServer(server);
  }
}

function settle(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// ---------------------------------------------------------------- checks

function responseCheck(m: Measured): Check {
  const bad = [m.warmup, m.run].map((r) => ({
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    codes: Object.keys(r.statusCodeStats).filter((c) => !c.startsWith('2')),
  }));
  const ok = bad.every((b) => b.non2xx === 0 && b.errors === 0 && b.timeouts === 0);
  const detail = ok
    ? `all responses 2xx (warm-up ${m.warmup['2xx']}, measured ${m.run['2xx']}), no errors or timeouts`
    : `warm-up ${JSON.stringify(bad[0])}, measured ${JSON.stringify(bad[1])}`;
  return { name: `${m.spec.name}: only 2xx`, ok, detail };
}

/** Requests autocannon had sent but not seen answered when it stopped (it closes those sockets). */
function inFlightAtStop(r: Result): number {
  return Math.max(0, r.requests.sent - r.requests.total - r.errors);
}

/** What one charged case's accounting is checked against: its label, price and counts. */
interface Charges {
  label: string;
  price: number;
  debitRows: number;
  searchLogs: number;
}

/**
 * Every 2xx autocannon counted must be exactly one debit of the price; the only other debits allowed
 * are requests still in flight when autocannon closed its sockets (served and charged, answer unread).
 * Each case runs on an account of its own, so the balance and the debit sum are that case's alone.
 */
function billingCheck(m: Measured, c: Charges): Check[] {
  const s = m.stats!;
  // Summed over the case's accounts (one, or MANY_ACCOUNTS), each funded with initialCentavos.
  const initial = Number(m.ready.details.initialCentavos) * Number(m.ready.details.accounts ?? 1);
  const ok2xx = m.warmup['2xx'] + m.run['2xx'];
  const inFlight = inFlightAtStop(m.warmup) + inFlightAtStop(m.run);
  const unread = c.debitRows - ok2xx;
  return [
    {
      name: `${c.label}: ledger debit rows vs 2xx`,
      ok: unread >= 0 && unread <= inFlight,
      detail:
        `${c.debitRows} debit rows, ${ok2xx} 2xx counted (warm-up + measured); ${unread} more rows than 2xx, ` +
        `allowed 0..${inFlight} = requests in flight when autocannon closed its connections`,
    },
    {
      name: `${c.label}: balance == initial - rows*price`,
      ok: s.balanceCentavos === initial - c.debitRows * c.price && s.debitedCentavos === c.debitRows * c.price,
      detail:
        `balance ${s.balanceCentavos} = ${initial} - ${c.debitRows} x ${c.price} centavos (expected ${initial - c.debitRows * c.price}); ledger debits ` +
        `sum to ${s.debitedCentavos}`,
    },
    {
      name: `${c.label}: one search log per debit`,
      ok: c.searchLogs === c.debitRows,
      detail: `${c.searchLogs} search logs, ${c.debitRows} debit rows`,
    },
  ];
}

const labelOf = (m: Measured) => `${m.spec.role}${m.spec.accounts === 'many' ? ` (${MANY_ACCOUNTS} accounts)` : ''}`;
const chargedCharges = (m: Measured): Charges => ({
  label: labelOf(m),
  price: Number(m.ready.details.priceCentavos),
  debitRows: m.stats!.debitRows,
  searchLogs: m.stats!.searchLogs,
});
const coverCharges = (m: Measured): Charges => ({
  label: labelOf(m),
  price: Number(m.ready.details.coverPriceCentavos),
  debitRows: m.stats!.coverDebitRows,
  searchLogs: m.stats!.coverSearchLogs,
});

// ---------------------------------------------------------------- output

function pad(cells: string[], widths: number[]): string {
  return `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
}

function printTable(results: Measured[], baselineCase: Measured): void {
  const baseline = baselineCase.run.requests.mean;
  const head = ['case', 'engine', 'req/s (mean)', 'p99 (ms)', 'ratio to baseline', 'server CPU µs/req', '2xx (measured)', 'non-2xx + errors'];
  const rows = results.map((m) => [
    m.spec.name,
    m.engine,
    m.run.requests.mean.toFixed(0),
    m.run.latency.p99.toFixed(1),
    (m.run.requests.mean / baseline).toFixed(3),
    m.serverCpuUsPerRequest.toFixed(0),
    String(m.run['2xx']),
    String(m.run.non2xx + m.run.errors),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  console.log('');
  console.log(pad(head, widths));
  console.log(`|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
  for (const r of rows) console.log(pad(r, widths));
  console.log('');
}

function printTargets(baseline: Measured, m: Measured, what: string, target: { ratio: number; p99Ms: number }): boolean {
  const ratio = m.run.requests.mean / baseline.run.requests.mean;
  const p99 = m.run.latency.p99;
  const ratioOk = ratio >= target.ratio;
  const p99Ok = p99 <= target.p99Ms;
  const scope = m.engine === 'sqlite' ? '' : ' (the targets are set for SQLite; shown for reference)';
  console.log(`Targets for ${what}${scope}:`);
  console.log(`  ratio to baseline >= ${target.ratio}: ${ratioOk ? 'MET' : 'NOT MET'} (${ratio.toFixed(3)})`);
  console.log(`  p99 <= ${target.p99Ms} ms:          ${p99Ok ? 'MET' : 'NOT MET'} (${p99.toFixed(1)} ms)`);
  return ratioOk && p99Ok;
}

/** Where the ratio targets stand against what no implementation of the money rules can beat here. */
function printFloor(baseline: Measured, floor: Measured, cases: Measured[]): void {
  const ratio = floor.run.requests.mean / baseline.run.requests.mean;
  const shares = cases.map((m) => `${m.spec.role} ${((100 * m.run.requests.mean) / floor.run.requests.mean).toFixed(0)}%`).join(', ');
  const above = [
    ['charged', TARGETS.chargedRatio],
    ['cover', TARGETS.coverRatio],
  ]
    .filter(([, r]) => (r as number) > ratio)
    .map(([n, r]) => `${n} ${r}`);
  console.log(
    `Floor (bench/servers/floor.ts: bare node:http, the batch's charges as raw SQLite statements, no framework): ` +
      `ratio ${ratio.toFixed(3)}, ${floor.serverCpuUsPerRequest.toFixed(0)} µs/req.`,
  );
  console.log(
    above.length > 0
      ? `  The ratio target(s) ${above.join(', ')} lie above the floor: unreachable on this machine by any server that commits each charge before answering.`
      : '  Both ratio targets are at or below the floor on this machine.',
  );
  console.log(`  Tramita's throughput as a share of the floor's: ${shares}.`);
}

/**
 * PostgreSQL: Tramita's charged path and hot cover as shares of the PG floor's throughput, each
 * against the floor over as many accounts (the many-accounts case carries the target).
 */
function printPgFloor(results: Measured[], judged: boolean): void {
  console.log(
    `PostgreSQL floor (bench/servers/floor-pg.ts: bare node:http + pg, a tick's charges in one statement, on a few connections), target ` +
      `>= ${FLOOR_SHARE_TARGET} over ${MANY_ACCOUNTS} accounts:`,
  );
  for (const accounts of ['many', 'one'] as const) {
    const floor = results.find((m) => m.spec.role === 'floor' && (m.spec.accounts ?? 'one') === accounts);
    if (!floor) continue;
    const label = accounts === 'many' ? `${MANY_ACCOUNTS} accounts` : 'one hot account';
    console.log(`  ${label}: floor ${Math.round(floor.run.requests.mean)} req/s, ${floor.serverCpuUsPerRequest.toFixed(0)} µs/req`);
    for (const m of results.filter((r) => (r.spec.role === 'charged' || r.spec.role === 'cover') && (r.spec.accounts ?? 'one') === accounts)) {
      const ratio = m.run.requests.mean / floor.run.requests.mean;
      const verdict = accounts === 'many' && judged ? ` (target >= ${FLOOR_SHARE_TARGET}: ${ratio >= FLOOR_SHARE_TARGET ? 'MET' : 'NOT MET'})` : ' (reported)';
      console.log(
        `    ${m.spec.role}: ${ratio.toFixed(3)} of the floor${verdict}, ${m.serverCpuUsPerRequest.toFixed(0)} µs/req, p99 ${m.run.latency.p99.toFixed(1)} ms`,
      );
    }
  }
}

/**
 * The cases issue 34 sets a share of their floor for (SQLite's hot cover, with its charged path
 * reported; PostgreSQL's charged path and hot cover over many accounts), measured again paired with
 * their floor (bench/paired.ts): the verdicts on those shares come from these medians. False when a
 * segment had a non-2xx answer, an error or a timeout.
 */
async function pairedWithFloors(cases: CaseSpec[], settings: Settings): Promise<boolean> {
  if (settings.pairedRounds === 0) return true;
  const engine = process.env.DATABASE_URL ? 'postgres' : 'sqlite';
  const floorOf = (c: CaseSpec) => cases.find((f) => f.role === 'floor' && (f.accounts ?? 'one') === (c.accounts ?? 'one'));
  const subjects = cases.filter((c) => (c.role === 'charged' || c.role === 'cover') && (engine === 'sqlite' || c.accounts === 'many') && floorOf(c));
  if (subjects.length === 0) return true;
  console.log('');
  const paired: Array<{ spec: CaseSpec; result: Paired }> = [];
  for (const spec of subjects) {
    const { pairedRounds: rounds, pairedSegmentS: segmentS, warmupS, profileDir } = settings;
    paired.push({ spec, result: await measurePaired(floorOf(spec)!, spec, { rounds, segmentS, warmupS, profileDir }) });
  }
  console.log(
    `Paired with the floor (${settings.pairedRounds} rounds of ${settings.pairedSegmentS} s on each server, alternating, both servers up; ` +
      'the share targets are judged on the median round):',
  );
  for (const { spec, result } of paired) {
    const shareOk = result.medianRatio >= FLOOR_SHARE_TARGET;
    const verdict =
      engine === 'postgres'
        ? `target >= ${FLOOR_SHARE_TARGET}: ${shareOk ? 'MET' : 'NOT MET'}`
        : spec.role === 'cover'
          ? `targets >= ${FLOOR_SHARE_TARGET}: ${shareOk ? 'MET' : 'NOT MET'}, p99 <= ${COVER_P99_TARGET_MS} ms: ` +
            `${result.medianP99Ms <= COVER_P99_TARGET_MS ? 'MET' : 'NOT MET'}`
          : 'reported';
    console.log(`${describePaired(result)} (${verdict})`);
  }
  const failures = paired.reduce((n, p) => n + p.result.failures, 0);
  if (failures > 0) console.log(`  FAIL  ${failures} non-2xx answers, errors or timeouts in the paired segments`);
  return failures === 0;
}

function printChecks(checks: Check[]): boolean {
  console.log('Correctness:');
  for (const c of checks) console.log(`  ${c.ok ? 'PASS' : 'FAIL'}  ${c.name}: ${c.detail}`);
  return checks.every((c) => c.ok);
}

// ---------------------------------------------------------------- main

const withKey = (r: ReadyMessage) => ({ 'x-api-key': String(r.details.key) });
const noHeaders = () => ({});
const firstKey = (r: ReadyMessage) => ({ 'x-api-key': (r.details.keys as string[])[0] });

/** In running order; the breakdown rows sit between the cases they explain. */
const CASES: CaseSpec[] = [
  { name: 'baseline node:http hello-world', role: 'baseline', breakdown: false, script: 'baseline.ts', path: () => '/', headers: noHeaders },
  {
    name: 'floor: node:http + raw SQLite batch of charges, no framework',
    role: 'floor',
    breakdown: false,
    only: 'sqlite',
    script: 'floor.ts',
    path: () => '/v1/bench/charged',
    headers: withKey,
  },
  {
    name: '(breakdown) floor, each charge as its own statements in a savepoint',
    role: 'other',
    breakdown: true,
    only: 'sqlite',
    script: 'floor.ts',
    env: { FLOOR_SQL: 'per-charge' },
    path: () => '/v1/bench/charged',
    headers: withKey,
  },
  {
    name: `floor PG: node:http + pg, a tick's charges in one statement, ${MANY_ACCOUNTS} accounts`,
    role: 'floor',
    breakdown: false,
    only: 'postgres',
    accounts: 'many',
    script: 'floor-pg.ts',
    env: { FLOOR_ACCOUNTS: String(MANY_ACCOUNTS) },
    path: () => '/v1/bench/charged',
    headers: noHeaders,
  },
  {
    name: 'floor PG: the same, one hot account',
    role: 'floor',
    breakdown: false,
    only: 'postgres',
    script: 'floor-pg.ts',
    env: { FLOOR_ACCOUNTS: '1' },
    path: () => '/v1/bench/charged',
    headers: firstKey,
  },
  {
    name: `(breakdown) floor PG, one transaction per charge, ${MANY_ACCOUNTS} accounts`,
    role: 'other',
    breakdown: true,
    only: 'postgres',
    accounts: 'many',
    script: 'floor-pg.ts',
    env: { FLOOR_ACCOUNTS: String(MANY_ACCOUNTS), FLOOR_PG_SQL: 'per-charge' },
    path: () => '/v1/bench/charged',
    headers: noHeaders,
  },
  { name: '(breakdown) bare Fastify hello-world', role: 'other', breakdown: true, script: 'fastify.ts', path: () => '/', headers: noHeaders },
  {
    name: `(breakdown) GET ${BENCH_ROUTES.open} (no auth/limit/charge)`,
    role: 'other',
    breakdown: true,
    script: 'tramita.ts',
    path: () => BENCH_ROUTES.open,
    headers: noHeaders,
  },
  { name: 'GET /v1/conta/saldo', role: 'other', breakdown: false, script: 'tramita.ts', path: () => '/v1/conta/saldo', headers: withKey },
  {
    name: `(breakdown) GET ${BENCH_ROUTES.auth} (auth + limit)`,
    role: 'other',
    breakdown: true,
    script: 'tramita.ts',
    path: () => BENCH_ROUTES.auth,
    headers: withKey,
  },
  {
    name: `GET ${BENCH_ROUTES.charged} (charged)`,
    role: 'charged',
    breakdown: false,
    script: 'tramita.ts',
    path: () => BENCH_ROUTES.charged,
    headers: withKey,
  },
  {
    name: `GET ${BENCH_ROUTES.charged} (charged, ${MANY_ACCOUNTS} accounts)`,
    role: 'charged',
    breakdown: false,
    only: 'postgres',
    accounts: 'many',
    script: 'tramita.ts',
    env: { BENCH_ACCOUNTS: String(MANY_ACCOUNTS) },
    path: () => BENCH_ROUTES.charged,
    headers: noHeaders,
  },
  {
    name: 'GET /v1/processos/cnj/{cnj} (hot, charged, from the store)',
    role: 'cover',
    breakdown: false,
    script: 'tramita.ts',
    path: (r) => `/v1/processos/cnj/${String(r.details.hotCnj)}`,
    headers: withKey,
  },
  {
    name: `GET /v1/processos/cnj/{cnj} (hot cover, ${MANY_ACCOUNTS} accounts)`,
    role: 'cover',
    breakdown: false,
    only: 'postgres',
    accounts: 'many',
    script: 'tramita.ts',
    env: { BENCH_ACCOUNTS: String(MANY_ACCOUNTS) },
    path: (r) => `/v1/processos/cnj/${String(r.details.hotCnj)}`,
    headers: noHeaders,
  },
];

function selectCases(settings: Settings): CaseSpec[] {
  // Each engine has its floor (floor.ts, floor-pg.ts); the Tramita cases follow DATABASE_URL.
  const engine = process.env.DATABASE_URL ? 'postgres' : 'sqlite';
  const only = process.env.BENCH_CASES?.split(',');
  return CASES.filter(
    (c) =>
      (!only || c.role === 'baseline' || only.some((o) => c.name.includes(o))) &&
      (settings.breakdown || !c.breakdown) &&
      (c.only === undefined || c.only === engine),
  );
}

function startWatchdog(settings: Settings, cases: number): void {
  // + the cold batch, the webhook bench and one monitor cycle (each well under two minutes), and the
  // publication-matching stage (its grep runs are bounded by their own timeout).
  const paired = settings.pairedRounds > 0 ? 4 * (2 * settings.warmupS + 2 * settings.pairedRounds * settings.pairedSegmentS + 30) : 0;
  const budgetS = cases * (settings.warmupS + settings.durationS + 5) + paired + 540 + matchingBenchSettings().budgetS;
  setTimeout(() => {
    console.error(`bench: FAIL — still running after ${budgetS} s, stopping the servers`);
    killChildren();
    setTimeout(() => process.exit(1), 5_000).unref();
  }, budgetS * 1000).unref();
}

async function main(): Promise<number> {
  const settings = readSettings();
  printHeader(settings);
  const cases = selectCases(settings);
  startWatchdog(settings, cases.length);
  const results: Measured[] = [];
  for (const spec of cases) results.push(await measure(spec, settings));
  const baseline = results.find((m) => m.spec.role === 'baseline')!;
  // Absent only when BENCH_CASES left it out.
  const charged = results.find((m) => m.spec.role === 'charged');
  const charges = results.filter((m) => m.spec.role === 'charged' || m.spec.role === 'cover');

  printTable(results, baseline);
  console.log(
    `Load average at the end: ${loadAverage()}. Server CPU µs/req: the server process's CPU time (all threads) over ` +
      `the measured run, divided by its responses.`,
  );
  if (charged) {
    console.log(`Rate limits: TRAMITA_RATE_LIMITS=${charged.ready.details.rateLimits} — the limiter runs on every request but never refuses one.`);
    console.log(
      `Charged route: ${BENCH_ROUTES.charged}, query type bench.charged at ${charged.ready.details.priceCentavos} centavo; each account funded ` +
        `with ${charged.ready.details.initialCentavos} centavos; log level ${charged.ready.details.logLevel}.`,
    );
  }
  console.log('');
  const cover = results.find((m) => m.spec.role === 'cover');
  const correct = printChecks([
    ...results.map(responseCheck),
    ...charges.flatMap((m) => billingCheck(m, m.spec.role === 'charged' ? chargedCharges(m) : coverCharges(m))),
  ]);
  console.log('');
  if (correct) {
    if (charged) printTargets(baseline, charged, 'the charged path', { ratio: TARGETS.chargedRatio, p99Ms: TARGETS.chargedP99Ms });
    if (cover) printTargets(baseline, cover, 'the hot case cover', { ratio: TARGETS.coverRatio, p99Ms: TARGETS.coverP99Ms });
    const floor = results.find((m) => m.spec.role === 'floor');
    if (floor?.engine === 'sqlite')
      printFloor(
        baseline,
        floor,
        [charged, cover].filter((m) => m !== undefined),
      );
    // With the paired stage, the share targets are judged there.
    if (floor?.engine === 'postgres') printPgFloor(results, settings.pairedRounds === 0);
    if (!(await pairedWithFloors(cases, settings))) {
      console.error('\nbench: FAIL — the paired segments include errors; do not use their numbers.');
      return 1;
    }
    if (settings.httpOnly) return 0;
    const batch = await coldBatch();
    console.log(
      `Cold batch: ${batch.cases} distinct numbers through the DataJud connector against the sandbox (20,000 cases): ${batch.found} ` +
        `found, ${batch.upstreamRequests} upstream requests = ${batch.requestsPer1000.toFixed(1)} per 1,000 cases (target ` +
        `<= ${COLD_BATCH_TARGET_PER_1000}: ${batch.requestsPer1000 <= COLD_BATCH_TARGET_PER_1000 ? 'MET' : 'NOT MET'}), ${batch.seconds.toFixed(1)} s.`,
    );
    const wh = await webhookBenchInOwnProcess();
    const WEBHOOK_TARGETS = webhookTargets(wh.engine);
    console.log(
      `Webhook deliveries (${wh.engine}, loopback receiver in its own process): ${wh.throughput.deliveries} in ${wh.throughput.seconds.toFixed(1)} s ` +
        `= ${Math.round(wh.throughput.perSecond)}/s, ${Math.round(wh.throughput.cpuUsPerDelivery)} µs CPU each (target ` +
        `>= ${WEBHOOK_TARGETS.deliveriesPerSecond}: ${wh.throughput.perSecond >= WEBHOOK_TARGETS.deliveriesPerSecond ? 'MET' : 'NOT MET'}); ` +
        `at ${wh.latency.ratePerSecond} ` +
        `events/s, enqueue -> delivered p50 ${wh.latency.p50Ms} ms, p99 ${wh.latency.p99Ms} ms (target ` +
        `<= ${WEBHOOK_TARGETS.p99Ms}: ${wh.latency.p99Ms <= WEBHOOK_TARGETS.p99Ms ? 'MET' : 'NOT MET'}), max ${wh.latency.maxMs} ms.`,
    );
    const mc = await monitorCycle();
    console.log(
      `Case monitor cycle: ${mc.monitors} monitors over ${mc.aliases} aliases, ${mc.checked} checked with ${mc.upstreamRequests} DataJud requests ` +
        `= ${mc.requestsPer1000.toFixed(1)} per 1,000 monitored (target ` +
        `<= ${MONITOR_CYCLE_TARGET_PER_1000}: ${mc.requestsPer1000 <= MONITOR_CYCLE_TARGET_PER_1000 ? 'MET' : 'NOT MET'}), ${mc.seconds.toFixed(1)} s.`,
    );
    const pm = await runMatchingBench();
    const grepRate = pm.grepUtf8Sample
      ? `${pm.grepUtf8Sample.scanMbPerS.toFixed(3)} MB/s (full run ${pm.grepUtf8.killed ? 'killed' : 'done'} after ${pm.grepUtf8.seconds.toFixed(0)} s; rate ` +
        `from its first lines)`
      : `${pm.grepUtf8.scanMbPerS.toFixed(1)} MB/s`;
    console.log(
      `Publication matching: ${pm.communications} communications (${(pm.textBytes / 1e6).toFixed(0)} MB) against ${pm.patterns.oab} OABs ` +
        `+ ${pm.patterns.termos} terms: ours ${pm.ours.mbPerS.toFixed(1)} MB/s (build ${pm.ours.buildSeconds.toFixed(2)} ` +
        `s, ${pm.ours.matcherMb.toFixed(1)} MB), GNU grep -F -i (C.UTF-8) ${grepRate}, ratio ${pm.ratio.toFixed(1)} (target ` +
        `>= ${MATCHING_TARGET_RATIO}: ${pm.ratio >= MATCHING_TARGET_RATIO ? 'MET' : 'NOT MET'}); grep bytes ` +
        `mode ${pm.grepC.scanMbPerS.toFixed(1)} MB/s (ratio ${pm.ratioVsC.toFixed(2)}); planted monitors ` +
        `missed ${pm.ours.plantedMissed}.`,
    );
    const ci = await cadernoIngest();
    console.log(
      `Caderno ingest (SQLite, the real DJEN connector against the simulator): ${ci.communications} communications of one court-day in ${ci.paginas} JSON ` +
        `pages, ${ci.seconds.toFixed(1)} s = ${Math.round(ci.perSecond)}/s; peak RSS of the bench process ${Math.round(ci.peakRssMb)} ` +
        `MB (sandbox data set included).`,
    );
    const ss = sandboxStart();
    const withinBudget = ss.djenMs < SANDBOX_DJEN_BUDGET.ms && ss.djenMb < SANDBOX_DJEN_BUDGET.mb;
    console.log(describeOfflineSummary(offlineSummaryBench()));
    console.log(describeUrlGuard());
    console.log(describeConsultaParse());
    console.log(await describeCourtSearchFanOut());
    console.log(describeGazettes(await gazetteBench()));
    console.log(describePrecatorios(await precatorioBench()));
    console.log(describeStartup(await startupBench()));
    if (process.env.BENCH_SCALE_CASES !== '') {
      const points = await scaleBench();
      console.log(describeScale(points, writeScalePlot(points)));
    }
    if (process.env.BENCH_SCALE_MONITORS !== '') console.log(describeMonitorScale(await monitorScale()));
    if (process.env.DATABASE_URL) console.log(describeMultiprocess(await multiprocessBench(settings.durationS)));
    console.log(
      `Sandbox start: ${ss.cases} cases generated in ${Math.round(ss.datasetMs)} ms; their ${ss.communications} DJEN communications ` +
        `add ${Math.round(ss.djenMs)} ms (${(ss.djenMs / ss.datasetMs).toFixed(2)}x the generation) and ${ss.djenMb.toFixed(1)} MB ` +
        `(budget < ${SANDBOX_DJEN_BUDGET.ms} ms and < ${SANDBOX_DJEN_BUDGET.mb} MB: ${withinBudget ? 'MET' : 'NOT MET'}).`,
    );
  } else console.log('Targets: not evaluated — numbers measured with errors or wrong charges mean nothing.');
  if (settings.profileDir) console.log(`\nCPU profiles (one per server process): ${settings.profileDir}`);
  if (!correct) console.error('\nbench: FAIL — the numbers above include errors or wrong charges; do not use them.');
  return correct ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    console.error(`\nbench: FAIL — ${(err as Error).stack ?? err}`);
    killChildren();
    process.exitCode = 1;
  },
);
