/**
 * A real Tramita server for the benchmark, in its own process: a fresh database (SQLite in a temp
 * TRAMITA_DATA_DIR, or a new PostgreSQL database when DATABASE_URL is set), migrations applied, one
 * funded account with an API key, every capability's routes plus the bench routes (ipc.ts) mounted
 * through buildApp's `extraRoutes`, i.e. through exactly the platform hooks real routes go through.
 */
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { buildApp } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { credit } from '../../src/platform/billing/ledger.ts';
import { PriceTable } from '../../src/platform/billing/prices.ts';
import { migrate } from '../../src/platform/db/database.ts';
import { defineRoute, type RouteMeta } from '../../src/platform/http/route.ts';
import { createLogger } from '../../src/platform/observability/logger.ts';
import { createServices, type Services } from '../../src/platform/services.ts';
import { freshDatabase, testPrices } from '../../test/harness.ts';
import { BENCH_ROUTES, handleDriver, send } from './ipc.ts';
import { buildCapabilities } from '../../src/capabilities/index.ts';
import type { CaseParts } from '../../src/capabilities/processes/parts.ts';
import { parseCnjWithCourt } from '../../src/platform/identifiers/cnj.ts';
import { openUpstreams, type OpenedSources } from '../../src/cli/upstreams.ts';
import { applyV8Tuning } from '../../src/cli/v8-tuning.ts';

const QUERY_TYPE = 'bench.charged';
/** What the hot-cover case is charged as. */
const COVER_QUERY_TYPE = 'processo.capa';
const PRICE_CENTAVOS = 1;
/** R$ 1.000.000: far more than any run can spend at 1 centavo a request. */
const INITIAL_CENTAVOS = 100_000_000;
/** High enough never to refuse, so the limiter runs its bookkeeping on every request but never answers 429. */
const RATE_LIMITS = 'lookup=100000000/60s,account=100000000/60s';

/** The charged route, plus two lighter ones for BENCH_BREAKDOWN=1; the same trivial handler for all. */
function mountBenchRoutes(app: Parameters<typeof defineRoute>[0]): void {
  const route = (url: string, meta: Partial<RouteMeta>) =>
    defineRoute(app, {
      method: 'GET',
      url,
      meta: { class: null, auth: false, tag: 'Bench', summary: 'bench', ...meta },
      schema: {},
      handler: async () => ({ data: { ok: true } }),
    });
  route(BENCH_ROUTES.charged, { class: 'lookup', auth: true, charge: QUERY_TYPE });
  route(BENCH_ROUTES.auth, { class: 'lookup', auth: true });
  route(BENCH_ROUTES.open, {});
}

function benchConfig(fresh: Pick<Config, 'dataDir' | 'databaseUrl'>): Config {
  // An explicit environment: TRAMITA_* variables of the shell running the bench do not leak in.
  return loadConfig({ TRAMITA_LOG_LEVEL: 'warn', TRAMITA_RATE_LIMITS: RATE_LIMITS, TRAMITA_SANDBOX: 'on', TRAMITA_SANDBOX_CASES: '2000' }, fresh);
}

/** The account(s) the driver's requests charge, all named BENCH_ACCOUNT_NAME (the stats add them up). */
const BENCH_ACCOUNT_NAME = 'Bench';

async function fundedKey(services: Services): Promise<{ accountId: string; key: string }> {
  const account = await services.accounts.create({ name: BENCH_ACCOUNT_NAME, plan: 'padrao' });
  await credit(services.db, services.clock, account.id, INITIAL_CENTAVOS, 'bench top-up');
  const { key } = await services.accounts.issueKey(account.id);
  return { accountId: account.id, key };
}

/** BENCH_ACCOUNTS=n (the many-accounts cases): n funded accounts, a few created at a time. */
async function fundedKeys(services: Services, n: number): Promise<Array<{ accountId: string; key: string }>> {
  const made: Array<{ accountId: string; key: string }> = [];
  while (made.length < n) made.push(...(await Promise.all(Array.from({ length: Math.min(8, n - made.length) }, () => fundedKey(services)))));
  return made;
}

async function count(services: Services, query: ReturnType<typeof sql<{ n: number | string }>>): Promise<number> {
  const { rows } = await query.execute(services.db);
  return Number(rows[0].n);
}

/** A sandbox case looked up and enriched once, so the hot-cover case reads it from the store. */
async function warmCase(m: CaseParts, sources: OpenedSources): Promise<string> {
  const c = sources.sandbox!.dataset.cases.find((x) => x.filedAt <= Date.now() && x.partes.length > 0 && x.instances.length > 1)!;
  await m.service.lookup(parseCnjWithCourt(c.numero));
  await m.service.applyDetails(c.numero, await sources.details!.fetchDetails(c.numero));
  return c.numero;
}

/** What the driver checks after a charged run: ledger rows, search logs and the balance, over every bench account. */
async function billingStats(services: Services): Promise<Record<string, number>> {
  const bench = sql`(select id from accounts where name = ${BENCH_ACCOUNT_NAME})`;
  return {
    debitRows: await count(services, sql`select count(*) as n from ledger where account_id in ${bench} and kind = 'debit' and query_type = ${QUERY_TYPE}`),
    debitedCentavos: await count(services, sql`select coalesce(-sum(delta_centavos), 0) as n from ledger where account_id in ${bench} and kind = 'debit'`),
    searchLogs: await count(services, sql`select count(*) as n from search_logs where account_id in ${bench} and query_type = ${QUERY_TYPE}`),
    balanceCentavos: await count(services, sql`select coalesce(sum(balance_centavos), 0) as n from accounts where name = ${BENCH_ACCOUNT_NAME}`),
    // The hot-cover case's requests are charged as processo.capa.
    coverDebitRows: await count(
      services,
      sql`select count(*) as n from ledger where account_id in ${bench} and kind = 'debit' and query_type = ${COVER_QUERY_TYPE}`,
    ),
    coverSearchLogs: await count(services, sql`select count(*) as n from search_logs where account_id in ${bench} and query_type = ${COVER_QUERY_TYPE}`),
  };
}

interface Started {
  close: () => Promise<void>;
  stats: () => Promise<Record<string, number>>;
  sources: OpenedSources;
}

/** Builds and starts the app; `started` is filled in as soon as there is something to close. */
async function start(fresh: Awaited<ReturnType<typeof freshDatabase>>, started: Partial<Started>): Promise<void> {
  const config = benchConfig(fresh.config);
  await migrate(fresh.database);
  const prices = new PriceTable(testPrices({ [QUERY_TYPE]: PRICE_CENTAVOS }));
  const sources = await openUpstreams(config);
  started.sources = sources;
  const services = createServices(config, fresh.database, createLogger(config.logLevel), { prices, sources });
  const capabilities = buildCapabilities(services);
  const app = await buildApp(services, capabilities, { extraRoutes: mountBenchRoutes });
  started.close = async () => {
    await app.close();
  };
  const hotCnj = await warmCase(capabilities.cases, sources);
  const funded = await fundedKeys(services, Number(process.env.BENCH_ACCOUNTS ?? 1));
  const { accountId, key } = funded[0];
  started.stats = () => billingStats(services);

  await app.listen({ host: '127.0.0.1', port: 0 });
  send({
    type: 'ready',
    port: (app.server.address() as AddressInfo).port,
    engine: fresh.database.engine,
    details: {
      key,
      accountId,
      hotCnj,
      accounts: funded.length,
      keys: funded.map((f) => f.key),
      priceCentavos: PRICE_CENTAVOS,
      initialCentavos: INITIAL_CENTAVOS,
      rateLimits: RATE_LIMITS,
      logLevel: config.logLevel,
      coverPriceCentavos: prices.priceFor('padrao', COVER_QUERY_TYPE),
    },
  });
}

async function main(): Promise<void> {
  // As every `tramita` process does at start (src/main.ts).
  applyV8Tuning();
  const fresh = await freshDatabase();
  const started: Partial<Started> = {};
  // Registered before anything can fail, so a fresh PostgreSQL database is always dropped.
  const closeAll = async () => {
    await started.close?.().catch((err) => console.error('bench server: closing the app:', err));
    await started.sources?.close();
    await fresh.database.close();
    await fresh.drop();
  };
  handleDriver({ close: closeAll, stats: () => (started.stats ? started.stats() : Promise.reject(new Error('not started'))) });
  try {
    await start(fresh, started);
  } catch (err) {
    console.error('bench server (tramita) failed to start:', err);
    await closeAll().catch(() => {});
    process.exit(1);
  }
}

void main();
