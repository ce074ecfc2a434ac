/**
 * Test harness: a fresh app on a fresh database per call. SQLite by default (a temp dir); PostgreSQL
 * when DATABASE_URL is set (a new database created from it and dropped at close), so the same tests
 * run on both engines.
 */
import { scanLogLine } from './log-scan.ts';
import { logUpstreamsTo } from '../src/platform/observability/upstreams.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { Writable } from 'node:stream';
import { buildApp, type BuildOptions } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { credit } from '../src/platform/billing/ledger.ts';
import { PriceTable, type PriceFile } from '../src/platform/billing/prices.ts';
import type { ManualClock, Clock } from '../src/platform/clock.ts';
import { testClock } from './test-date.ts';
import { migrate, openDatabase, type Database } from '../src/platform/db/database.ts';
import { randomToken } from '../src/platform/ids.ts';
import { createLogger } from '../src/platform/observability/logger.ts';
import { createServices, type Services } from '../src/platform/services.ts';
import { buildCapabilities, jobHandlers, scheduleRecurringJobs, type Capabilities } from '../src/capabilities/index.ts';
import { Worker } from '../src/platform/jobs/worker.ts';
import { openUpstreams, type OpenedSources } from '../src/cli/upstreams.ts';

export interface HarnessOptions extends BuildOptions {
  config?: Partial<Config>;
  env?: Record<string, string>;
  clock?: Clock | ManualClock;
  prices?: PriceFile;
  /** Captures every log line (to prove secrets never reach the logs). */
  captureLogs?: boolean;
  /** Replaces the consultations' challenge detector (sources/consultas/challenge.ts). */
}

/** A small sandbox by default: generated in milliseconds, still every court alias. */
// No courts' consultations (the suites read the simulated portal's details; test/consultas.test.ts enables them), no background gazette ingest nor precatório
// harvest: a test reads the days it asks (on demand) or runs them itself.
const TEST_SANDBOX_ENV = {
  TRAMITA_SANDBOX: 'on',
  TRAMITA_SANDBOX_CASES: '400',
  DATAJUD_REQUESTS_PER_MINUTE: '100000',
  DJEN_REQUESTS_PER_MINUTE: '100000',
  TRAMITA_GAZETTE_COURTS: 'none',
  TRAMITA_PRECATORIOS_DATAJUD: 'none',
  TRAMITA_CONSULTAS: 'none',
};

export interface TestAccount {
  accountId: string;
  key: string;
  keyId: string;
  headers: Record<string, string>;
}

export interface Harness {
  app: FastifyInstance;
  services: Services;
  /** Every capability, built once, with the shared parts (cases, publications, radars). */
  capabilities: Capabilities;
  config: Config;
  logs: string[];
  /** The upstreams (the sandbox simulator, with its fault knobs and data set). */
  sources: OpenedSources;
  createAccount(opts?: { credits?: number; plan?: string; name?: string; status?: 'active' | 'inactive' }): Promise<TestAccount>;
  inject(opts: InjectOptions): Promise<LightMyRequestResponse>;
  /**
   * The final answer of a request: `res` itself, or after a 202 what its status URL gives once the work
   * has ended. For tests whose subject is the answer, not the window: a loaded machine may pass the window.
   */
  settle(res: LightMyRequestResponse, headers: Record<string, string>): Promise<LightMyRequestResponse>;
  /** Runs every due job (and those they enqueue) until none is due; returns how many ran. */
  runJobs(): Promise<number>;
  close(): Promise<void>;
}

/**
 * A new, empty PostgreSQL database next to the one `base` names, and how to drop it.
 * pg's pool.end() resolves before its sockets close: a forced drop would kill connections still
 * closing (an 'error' event nobody listens to), so the drop retries a plain DROP until they are gone.
 */
export async function createPgDatabase(base: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `tramita_t_${randomToken(10)}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      try {
        for (let attempt = 0; ; attempt++) {
          try {
            // FORCE ends the sessions still open on it (a child server's pool, which the health prober
            // keeps from going idle): the database is thrown away whoever is connected.
            await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
            return;
          } catch (e) {
            if (attempt >= 50 || !/being accessed by other users/.test((e as Error).message)) throw e;
            await new Promise((r) => setTimeout(r, 100));
          }
        }
      } finally {
        await c.end();
      }
    },
  };
}

/** A database of its own for one harness; with PostgreSQL, created from DATABASE_URL and dropped after. */
export async function freshDatabase(): Promise<{ database: Database; config: Pick<Config, 'dataDir' | 'databaseUrl'>; drop(): Promise<void> }> {
  const base = process.env.DATABASE_URL;
  if (!base) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tramita-test-'));
    const config = { dataDir, databaseUrl: undefined };
    const database = await openDatabase(config);
    return { database, config, drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
  }
  const pgdb = await createPgDatabase(base);
  const config = { dataDir: os.tmpdir(), databaseUrl: pgdb.url };
  return { database: await openDatabase(config), config, drop: pgdb.drop };
}

/** A price table with test query types, on top of the shipped one. */
export function testPrices(extra: Record<string, number> = {}): PriceFile {
  const shipped = JSON.parse(fs.readFileSync(new URL('../config/prices.json', import.meta.url), 'utf8')) as PriceFile;
  const types = {
    'test.lookup': 'a charged test operation',
    'test.free': 'a zero-priced test operation',
    ...Object.fromEntries(Object.keys(extra).map((k) => [k, k])),
  };
  return {
    ...shipped,
    queryTypes: { ...shipped.queryTypes, ...types },
    plans: {
      ...shipped.plans,
      padrao: { ...shipped.plans.padrao, prices: { ...shipped.plans.padrao.prices, 'test.lookup': 5, 'test.free': 0, ...extra } },
      restrito: { description: 'test plan without test.lookup', inherits: 'padrao', exclude: ['test.lookup'] },
    },
  };
}

export async function createHarness(opts: HarnessOptions = {}): Promise<Harness> {
  const fresh = await freshDatabase();
  const config = loadConfig({ TRAMITA_LOG_LEVEL: 'info', ...TEST_SANDBOX_ENV, ...opts.env }, { ...fresh.config, ...opts.config });
  const logs: string[] = [];
  // Every line is scanned for keys, secrets, tokens and CPFs (test/log-scan.ts); kept only when the test reads them.
  const sink = new Writable({
    write(chunk, _enc, cb) {
      const line = String(chunk);
      scanLogLine(line);
      if (opts.captureLogs) logs.push(line);
      cb();
    },
  });
  const log = createLogger(config.logLevel, sink);
  // As serve and worker do: upstream failures are warn lines of this logger (process-wide: the last harness made wins).
  logUpstreamsTo(log);
  await migrate(fresh.database);
  // Pinned (test/test-date.ts): the calendar a test sees never depends on the day it runs.
  const clock = opts.clock ?? testClock();
  const sources = await openUpstreams(config, { clock });
  const services = createServices(config, fresh.database, log, { clock, prices: new PriceTable(opts.prices ?? testPrices()), sources });
  const capabilities = buildCapabilities(services);
  const app = await buildApp(services, capabilities, opts);
  await scheduleRecurringJobs(services, capabilities);
  let n = 0;
  return {
    app,
    services,
    capabilities,
    config,
    logs,
    sources,
    async createAccount(o = {}) {
      const account = await services.accounts.create({ name: o.name ?? `Conta ${++n}`, plan: o.plan ?? 'padrao' });
      if (o.credits) await credit(services.db, services.clock, account.id, o.credits, 'test top-up');
      if (o.status === 'inactive') await services.accounts.setStatus(account.id, 'inactive');
      const k = await services.accounts.issueKey(account.id);
      return { accountId: account.id, key: k.key, keyId: k.id, headers: { 'x-api-key': k.key } };
    },
    inject: (o) => app.inject(o),
    async settle(res, headers) {
      if (res.statusCode !== 202) return res;
      const url = new URL(String(res.headers.location)).pathname;
      for (let i = 0; i < 1200; i++) {
        const answer = await app.inject({ method: 'GET', url, headers });
        if (answer.statusCode !== 202) return answer;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`still pending after 120 s: ${url}`);
    },
    async runJobs() {
      const worker = new Worker({
        queue: services.jobs,
        handlers: jobHandlers(capabilities),
        clock,
        log,
        concurrency: 8,
        leaseMs: config.jobLeaseMs,
        pollMs: 10,
      });
      let total = 0;
      for (let ran = await worker.runDue(); ran > 0; ran = await worker.runDue()) total += ran;
      return total;
    },
    async close() {
      await app.close();
      await app.tramita.background.drain(5_000);
      await sources.close();
      services.webhooks.sender.close();
      await fresh.database.close();
      await fresh.drop();
    },
  };
}

/** The settings of a monitor kind's tests: a cycle every `intervalMs`, webhooks to loopback, no rate limit in the way. */
export function monitorTestEnv(intervalMs: number, more: Record<string, string> = {}): Record<string, string> {
  return {
    TRAMITA_MONITOR_INTERVAL_MS: String(intervalMs),
    TRAMITA_WEBHOOK_ALLOW_PRIVATE: 'true',
    TRAMITA_RATE_LIMITS: 'lookup=100000/60s,search=100000/60s,async=100000/60s,monitor=100000/60s,account=100000/60s',
    ...more,
  };
}

/** JSON body of a response, with the whole response in the failure message when it is not JSON. */
export function json<T = any>(res: LightMyRequestResponse): T {
  try {
    return res.json() as T;
  } catch {
    throw new Error(`expected JSON, got ${res.statusCode}: ${res.body.slice(0, 500)}`);
  }
}
