/**
 * Hostile upstream bodies (issue 29): a real `tramita serve` (SQLite, or PostgreSQL when DATABASE_URL
 * is set) whose DataJud and warrants provider are a loopback server answering five lookups each with
 * 1 GB, a one-byte-a-second drip, a gzip bomb, invalid UTF-8 and 100,000-deep JSON, all at once, while
 * another account's ordinary lookups go on. Each hostile lookup must end in an uncharged 503/504 with
 * its code (never a 500, never "not found", never a result), the ordinary ones must all be answered,
 * the server's peak RSS (the kernel's high-water mark, reset after start-up) must stay within 256 MB
 * of its idle RSS, and no log line may quote the bodies' personal data. The drip's idle timeout is
 * set to 300 ms so the drill takes seconds. Figures (RSS, latencies) are reported as diagnostics.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { runCli } from '../src/cli/run.ts';
import { cpfCheckDigits } from '../src/platform/identifiers/cpf-cnpj.ts';
import { cnjNumber } from '../src/sources/datajud/testing/fake-datajud.ts';
import { HOSTILE, PARTY_CPF, PARTY_NAME, startHostileUpstream, type Hostile } from './hostile-upstream.ts';
import { scanLogLine } from './log-scan.ts';
import { freePort, startServe, storeFor, type Store } from './processes.ts';

const MB = 1024 * 1024;

/** One hostile kind per court alias (distinct aliases: lookups of one alias would share one batched request). */
const DATAJUD: Record<Hostile, { alias: string; numero: string }> = {
  huge: { alias: 'api_publica_tjrj', numero: cnjNumber(11, '8', '19') },
  drip: { alias: 'api_publica_tjmg', numero: cnjNumber(12, '8', '13') },
  bomb: { alias: 'api_publica_trf1', numero: cnjNumber(13, '4', '01') },
  utf8: { alias: 'api_publica_trt2', numero: cnjNumber(14, '5', '02') },
  deep: { alias: 'api_publica_tjpr', numero: cnjNumber(15, '8', '16') },
};
const cpf = (base: string) => `${base}${cpfCheckDigits(base)}`;
const WARRANTS: Record<Hostile, string> = {
  huge: cpf('111444777'),
  drip: cpf('222555888'),
  bomb: cpf('333666999'),
  utf8: cpf('444777000'),
  deep: cpf('555888111'),
};
const ORDINARY_CPF = cpf('987654321');

/** What each hostile body must come to: the code and `details.failure` an integrator reads. */
const EXPECTED: Record<Hostile, { status: number; code: string; failure: string }> = {
  huge: { status: 503, code: 'SOURCE_UNAVAILABLE', failure: 'too_large' },
  drip: { status: 504, code: 'SOURCE_TIMEOUT', failure: 'timeout' },
  bomb: { status: 503, code: 'SOURCE_UNAVAILABLE', failure: 'too_large' },
  utf8: { status: 503, code: 'SOURCE_UNAVAILABLE', failure: 'malformed' },
  deep: { status: 503, code: 'SOURCE_UNAVAILABLE', failure: 'malformed' },
};

async function createAccount(store: Store, name: string): Promise<string> {
  let out = '';
  const code = await runCli(['accounts', 'create', '--name', name, '--credits', '100', '--json'], {
    env: store.env,
    out: (t) => {
      out += t;
    },
    err: () => {},
  });
  assert.equal(code, 0, out);
  return (JSON.parse(out) as { apiKey: { key: string } }).apiKey.key;
}

/** VmRSS / VmHWM of a process in bytes (Linux); null elsewhere. */
function memoryOf(pid: number): { rss: number; peak: number } | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]) * 1024;
    return { rss: kb('VmRSS'), peak: kb('VmHWM') };
  } catch {
    return null;
  }
}

/** Resets the kernel's peak-RSS mark of a process (Linux ≥ 4.0: `5` > clear_refs), so VmHWM measures from now. */
function resetPeak(pid: number): boolean {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;

test('five hostile bodies at once from DataJud and from the warrants provider: uncharged 503/504s with their codes, bounded memory, other callers served, ' +
  'nothing quoted in the logs', {
  timeout: 120_000,
}, async (t) => {
  const upstream = await startHostileUpstream({
    datajud: Object.fromEntries(HOSTILE.map((k) => [DATAJUD[k].alias, k])),
    warrants: Object.fromEntries(HOSTILE.map((k) => [WARRANTS[k], k])),
  });
  t.after(() => upstream.close());
  const store = await storeFor(t);
  const hostileKey = await createAccount(store, 'Conta dos pedidos hostis');
  const ordinaryKey = await createAccount(store, 'Conta dos pedidos comuns');
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // Every upstream points at the loopback server (nothing leaves the machine); no background ingest.
  const server = startServe(t, store, port, {
    TRAMITA_SANDBOX: 'off',
    DATAJUD_URL: upstream.url,
    TRAMITA_WARRANTS_PROVIDER_URL: upstream.url,
    DJEN_URL: upstream.url,
    TRAMITA_STF_URL: upstream.url,
    TRAMITA_DJE_URL: upstream.url,
    TRAMITA_PROTOCOLO_URL: upstream.url,
    TRAMITA_TJRJ_PRECATORIOS_URL: upstream.url,
    TRAMITA_GAZETTE_COURTS: 'none',
    // The courts' consultations would be the public pages: the covers ask them beside DataJud (issue 43).
    TRAMITA_CONSULTAS: 'none',
    TRAMITA_SUMMARY_PROVIDER: 'extrativo',
    DATAJUD_REQUESTS_PER_MINUTE: '100000',
    TRAMITA_GAZETTE_REQUESTS_PER_MINUTE: '100000',
    TRAMITA_RATE_LIMITS: 'lookup=100000/60s,account=100000/60s',
    TRAMITA_UPSTREAM_IDLE_TIMEOUT_MS: '300',
    TRAMITA_DEV_TIME_SCALE: '100',
    TRAMITA_LOG_FORMAT: 'json',
    TRAMITA_LOG_LEVEL: 'info',
  });
  await server.waitFor(/tramita listening/);
  const pid = server.child.pid!;
  const get = async (path: string, key: string) => {
    const started = performance.now();
    const res = await fetch(`${base}${path}`, { headers: { 'x-api-key': key } });
    return { status: res.status, body: (await res.json()) as any, ms: performance.now() - started };
  };
  const balance = async (key: string) => (await get('/v1/conta/saldo', key)).body.data;

  // Warm the code paths an ordinary lookup takes, then take the idle figure and reset the peak mark.
  let ordinary = 0;
  const ordinaryRound = () => {
    ordinary++;
    return Promise.all([
      get(`/v1/processos/cnj/${cnjNumber(1000 + ordinary, '8', '26')}`, ordinaryKey),
      get(`/v1/mandados?cpf=${ORDINARY_CPF}`, ordinaryKey),
      get('/v1/conta/saldo', ordinaryKey),
    ]);
  };
  for (let i = 0; i < 5; i++) for (const r of await ordinaryRound()) assert.equal(r.status, 200, JSON.stringify(r.body));
  // The same rounds for a second with no hostile upstream at work: the figure to compare with.
  const quiet: number[] = [];
  for (const until = performance.now() + 1_000; performance.now() < until; ) {
    for (const r of await ordinaryRound()) quiet.push(r.ms);
    await new Promise((r) => setTimeout(r, 10));
  }
  await new Promise((r) => setTimeout(r, 500));
  const idle = memoryOf(pid);
  const measured = idle !== null && resetPeak(pid);
  const before = await balance(hostileKey);

  // The drill: ten hostile lookups at once; ordinary rounds keep going until they have all ended.
  let sampledPeak = idle?.rss ?? 0;
  const sampler = setInterval(() => {
    sampledPeak = Math.max(sampledPeak, memoryOf(pid)?.rss ?? 0);
  }, 20);
  let hostileDone = false;
  const started = performance.now();
  const hostile = Promise.all([
    ...HOSTILE.map(async (kind) => ({ kind, via: 'datajud', ...(await get(`/v1/processos/cnj/${DATAJUD[kind].numero}`, hostileKey)) })),
    ...HOSTILE.map(async (kind) => ({ kind, via: 'mandados', ...(await get(`/v1/mandados?cpf=${WARRANTS[kind]}`, hostileKey)) })),
  ]).finally(() => {
    hostileDone = true;
  });
  const latencies: number[] = [];
  const statuses: number[] = [];
  while (!hostileDone) {
    for (const r of await ordinaryRound()) {
      latencies.push(r.ms);
      statuses.push(r.status);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  const answers = await hostile;
  const drillMs = performance.now() - started;
  clearInterval(sampler);
  const after = memoryOf(pid);

  for (const a of answers) {
    const want = EXPECTED[a.kind];
    assert.equal(a.status, want.status, `${a.via} ${a.kind}: ${JSON.stringify(a.body)}`);
    assert.equal(a.body.error?.code, want.code, `${a.via} ${a.kind}: ${JSON.stringify(a.body)}`);
    assert.equal(a.body.error?.details?.failure, want.failure, `${a.via} ${a.kind}: ${JSON.stringify(a.body)}`);
  }
  assert.deepEqual(await balance(hostileKey), before, 'no hostile lookup was charged');
  assert.ok(statuses.length > 0 && statuses.every((s) => s === 200), `every ordinary request answered 200 meanwhile: ${[...new Set(statuses)].join(', ')}`);

  const figures = (ms: number[]) => {
    const sorted = [...ms].sort((a, b) => a - b);
    return (
      `${ms.length} ordinary requests, latency p50 ${percentile(sorted, 50).toFixed(1)} ms, p95 ${percentile(sorted, 95).toFixed(1)} ms, ` +
      `max ${sorted.at(-1)!.toFixed(1)} ms`
    );
  };
  t.diagnostic(`quiet: ${figures(quiet)}`);
  t.diagnostic(`drill: ${answers.length} hostile lookups in ${Math.round(drillMs)} ms; meanwhile ${figures(latencies)}`);
  t.diagnostic(`bytes the hostile upstream got out: ${HOSTILE.map((k) => `${k} ${(upstream.sent[k] / MB).toFixed(1)} MB`).join(', ')}`);
  if (measured && after) {
    t.diagnostic(
      `RSS: idle ${(idle.rss / MB).toFixed(0)} MB, peak during the drill ${(after.peak / MB).toFixed(0)} MB (sampled every 20 ` +
        `ms: ${(sampledPeak / MB).toFixed(0)} MB), after ${(after.rss / MB).toFixed(0)} MB`,
    );
    assert.ok(after.peak - idle.rss < 256 * MB, `peak RSS ${(after.peak / MB).toFixed(0)} MB is within 256 MB of idle ${(idle.rss / MB).toFixed(0)} MB`);
  } else {
    t.diagnostic('RSS not measured: /proc is not available here');
  }

  // The logs: every line scanned for keys and documents, and none quotes the hostile bodies' party.
  server.child.kill('SIGTERM');
  await server.exited(15_000);
  const output = server.output();
  for (const line of output.split('\n')) scanLogLine(line);
  assert.ok(!output.includes(PARTY_NAME) && !output.includes(PARTY_CPF), 'no log line quotes a hostile body');
  assert.match(output, /answer refused \(too_large\)/, 'the refusals are logged, by size and hash');
});
