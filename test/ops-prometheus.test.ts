/**
 * docs/ops as an operator loads it: Debian's `promtool` checks the alert rules, and a real Prometheus
 * on 127.0.0.1 scrapes a live Tramita with the scrape configuration of docs/operations.md, loads the
 * rules and evaluates every dashboard query and alert expression. operations.test.ts checks that the
 * metric names exist; this checks that the queries are PromQL that Prometheus runs, that /metrics is
 * an exposition Prometheus accepts, and that the dashboard's `job` variable finds the job.
 *
 * Without /usr/bin/prometheus and /usr/bin/promtool (`apt-get install prometheus`) the test is
 * skipped, unless TRAMITA_REQUIRE_PROMETHEUS=1 (set by .ci/run), where that is a failure.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { AddressInfo } from 'node:net';
import { PROJECT_ROOT } from '../src/config.ts';
import { createHarness } from './harness.ts';
import { freePort } from './processes.ts';

const PROMETHEUS = '/usr/bin/prometheus';
const PROMTOOL = '/usr/bin/promtool';
const ALERTS = path.join(PROJECT_ROOT, 'docs/ops/prometheus-alerts.yml');
const DASHBOARD = path.join(PROJECT_ROOT, 'docs/ops/grafana-dashboard.json');
/** How long Prometheus may take to start, scrape and evaluate: it answers within seconds here. */
const WAIT_MS = 60_000;

interface Dashboard {
  panels: { title: string; targets: { expr: string }[] }[];
}
interface RuleGroups {
  groups: { rules: { name: string; health: string; lastError?: string }[] }[];
}

/** The dashboard's queries as Grafana sends them: `$job` is the variable's "All" (every job). */
function dashboardQueries(): { title: string; expr: string }[] {
  const dashboard = JSON.parse(fs.readFileSync(DASHBOARD, 'utf8')) as Dashboard;
  return dashboard.panels.flatMap((p) => p.targets.map((t) => ({ title: p.title, expr: t.expr.replaceAll('$job', '.+') })));
}

function alertExpressions(): string[] {
  return [...fs.readFileSync(ALERTS, 'utf8').matchAll(/^\s+expr: (.+)$/gm)].map((m) => m[1]!);
}

function installed(t: TestContext): boolean {
  if (fs.existsSync(PROMETHEUS) && fs.existsSync(PROMTOOL)) return true;
  if (process.env.TRAMITA_REQUIRE_PROMETHEUS === '1') assert.fail(`${PROMETHEUS} or ${PROMTOOL} is missing: apt-get install prometheus`);
  t.skip('Prometheus is not installed (apt-get install prometheus)');
  return false;
}

async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) assert.fail(`Prometheus: ${what} did not happen within ${WAIT_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

test('promtool accepts the alert rules', async (t) => {
  if (!installed(t)) return;
  const { stdout } = await promisify(execFile)(PROMTOOL, ['check', 'rules', ALERTS]);
  assert.match(stdout, new RegExp(`SUCCESS: ${alertExpressions().length} rules found`));
});

test('a real Prometheus scrapes Tramita, loads the alert rules and runs every dashboard query', { timeout: 120_000 }, async (t) => {
  if (!installed(t)) return;
  const h = await createHarness({ defaultMetrics: true });
  t.after(() => h.close());
  await h.app.listen({ host: '127.0.0.1', port: 0 });
  const target = `127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
  const account = await h.createAccount({ credits: 1000 });
  await h.inject({ method: 'GET', url: '/v1/conta/saldo', headers: account.headers });

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tramita-prometheus-'));
  // docs/operations.md's scrape configuration, faster, with the rules of docs/ops.
  fs.writeFileSync(
    path.join(dir, 'prometheus.yml'),
    [
      'global: { scrape_interval: 1s, evaluation_interval: 1s }',
      `rule_files: ['${ALERTS}']`,
      'scrape_configs:',
      '  - job_name: tramita',
      '    static_configs:',
      `      - targets: ['${target}']`,
    ].join('\n'),
  );
  const port = await freePort();
  const prometheus = spawn(
    PROMETHEUS,
    [
      `--config.file=${path.join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  prometheus.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  // Stopped before its data directory goes, so nothing writes into what is being removed.
  t.after(async () => {
    if (prometheus.exitCode === null && prometheus.signalCode === null) {
      const exited = new Promise((resolve) => prometheus.once('exit', resolve));
      prometheus.kill('SIGKILL');
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const api = async <T>(route: string): Promise<{ status: string; data: T; error?: string }> =>
    (await fetch(`http://127.0.0.1:${port}/api/v1/${route}`)).json() as Promise<{ status: string; data: T; error?: string }>;

  // Scraped: the exposition is one Prometheus parses (a malformed line fails the whole scrape).
  const scraped = await until('a successful scrape of /metrics', async () => {
    const up = await api<{ result: { value: [number, string] }[] }>(`query?query=${encodeURIComponent('up{job="tramita"}')}`);
    return up.data.result[0]?.value[1] === '1' ? up : undefined;
  }).catch((err: Error) => assert.fail(`${err.message}\n${stderr}`));
  assert.equal(scraped.status, 'success');
  const jobs = await api<string[]>(`label/job/values?${new URLSearchParams({ 'match[]': 'tramita_http_requests_total' })}`);
  assert.deepEqual(jobs.data, ['tramita'], "the dashboard's `job` variable (label_values(tramita_http_requests_total, job)) finds the job");

  for (const { title, expr } of dashboardQueries()) {
    const res = await api<unknown>(`query?query=${encodeURIComponent(expr)}`);
    assert.equal(res.status, 'success', `dashboard panel "${title}": ${expr}\n${res.error}`);
  }
  const http = await api<{ result: unknown[] }>(`query?query=${encodeURIComponent('tramita_http_requests_total{job="tramita"}')}`);
  assert.ok(http.data.result.length > 0, 'the requests made before the scrape are in Prometheus');

  // Every rule loaded and evaluated without error at least once.
  const rules = await until('an evaluation of every alert rule', async () => {
    const res = await api<RuleGroups>('rules?type=alert');
    const all = res.data.groups.flatMap((g) => g.rules);
    return all.length > 0 && all.every((r) => r.health !== 'unknown') ? all : undefined;
  });
  assert.equal(rules.length, alertExpressions().length);
  assert.deepEqual(
    rules.filter((r) => r.health !== 'ok').map((r) => `${r.name}: ${r.lastError}`),
    [],
  );
});
