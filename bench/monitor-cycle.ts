/**
 * One case-monitor check cycle (issue 4): 10,000 monitors on visible sandbox cases (20,000 cases over
 * every DataJud alias), one run of the cycle's checks, and the DataJud requests it made, per 1,000
 * monitored cases (target ≤ 10). The cycle asks once per alias, the connector batching up to
 * DATAJUD_BATCH_SIZE numbers per `terms` request. The DataJud budget is raised for the run; at the
 * default 100 requests per minute the same cycle makes the same requests, spread over about a minute.
 */
import { loadConfig } from '../src/config.ts';
import { buildCapabilities } from '../src/capabilities/index.ts';
import { checkDue } from '../src/capabilities/monitors/check.ts';
import { CASE_MONITORS } from '../src/capabilities/monitors/lifecycle.ts';
import { createMonitor } from '../src/platform/monitoring/lifecycle.ts';
import { migrate } from '../src/platform/db/database.ts';
import { parseCnjWithCourt } from '../src/platform/identifiers/cnj.ts';
import { createLogger } from '../src/platform/observability/logger.ts';
import { createServices } from '../src/platform/services.ts';
import { openUpstreams } from '../src/cli/upstreams.ts';
import { freshDatabase } from '../test/harness.ts';

export const MONITOR_CYCLE_TARGET_PER_1000 = 10;

export interface MonitorCycleResult {
  monitors: number;
  checked: number;
  aliases: number;
  upstreamRequests: number;
  requestsPer1000: number;
  seconds: number;
  /** Runs of the cycle's checks it took to check every monitor once (each checks at most 10,000). */
  runs: number;
  /** Creating the monitors (the sandbox's generation excluded). */
  setupSeconds: number;
  /** Minutes the same requests take at DataJud's 120 a minute (the whole daily pass must fit in 1,440). */
  minutesAtDataJudLimit: number;
}

/** DataJud's terms of use: 120 requests a minute (reference/upstream/datajud.md §3). */
const DATAJUD_LIMIT_PER_MINUTE = 120;

/**
 * `monitors` monitors on as many distinct visible cases (the sandbox grows to hold them), then runs of
 * the cycle's checks until each was checked once: the daily pass.
 */
export async function monitorCycle(monitors = 10_000): Promise<MonitorCycleResult> {
  const fresh = await freshDatabase();
  const cases = Math.max(20_000, Math.ceil(monitors * 1.1));
  const config = loadConfig(
    { TRAMITA_LOG_LEVEL: 'warn', TRAMITA_SANDBOX: 'on', TRAMITA_SANDBOX_CASES: String(cases), DATAJUD_REQUESTS_PER_MINUTE: '100000' },
    fresh.config,
  );
  await migrate(fresh.database);
  const sources = await openUpstreams(config);
  const log = createLogger('warn');
  const s = createServices(config, fresh.database, log, { sources });
  try {
    const account = await s.accounts.create({ name: 'bench monitors', plan: s.prices.defaultPlan });
    const now = Date.now();
    const numbers = sources
      .sandbox!.dataset.cases.filter((c) => c.filedAt <= now && c.court.datajudAlias)
      .slice(0, monitors)
      .map((c) => c.numero);
    const setupStarted = performance.now();
    for (const n of numbers) await createMonitor(s, CASE_MONITORS, { accountId: account.id, cnj: parseCnjWithCourt(n), priceCentavos: 0 });
    const setupSeconds = (performance.now() - setupStarted) / 1000;
    sources.sandbox!.resetStats();
    const started = performance.now();
    const parts = buildCapabilities(s).cases;
    let checked = 0;
    let aliases = 0;
    let runs = 0;
    for (;;) {
      const summary = await checkDue(s, parts, s.clock.now(), log);
      if (summary.checked === 0) break;
      runs++;
      checked += summary.checked;
      aliases += summary.aliases;
    }
    const seconds = (performance.now() - started) / 1000;
    const upstreamRequests = sources.sandbox!.stats().datajud.requests;
    return {
      monitors: numbers.length,
      checked,
      aliases,
      upstreamRequests,
      requestsPer1000: (upstreamRequests * 1000) / numbers.length,
      seconds,
      runs,
      setupSeconds,
      minutesAtDataJudLimit: upstreamRequests / DATAJUD_LIMIT_PER_MINUTE,
    };
  } finally {
    s.webhooks.sender.close();
    await sources.close();
    await fresh.database.close();
    await fresh.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await monitorCycle(), null, 2));
