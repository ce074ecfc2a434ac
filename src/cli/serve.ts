/**
 * Process lifecycles: `serve` (HTTP server, plus in-process jobs on SQLite) and `worker` (jobs only).
 * Shutdown on SIGTERM/SIGINT: stop accepting, finish in-flight requests, give background operations
 * the sync window to finish, hand unfinished jobs back (release leases), close the database.
 */
import { buildApp } from '../app.ts';
import { jobHandlers } from '../capabilities/index.ts';
import type { Config } from '../config.ts';
import { credit } from '../platform/billing/ledger.ts';
import { migrate, openDatabase } from '../platform/db/database.ts';
import { Worker } from '../platform/jobs/worker.ts';
import { scheduleMaintenance } from '../platform/maintenance.ts';
import { createLogger } from '../platform/observability/logger.ts';
import { createServices, type Services } from '../platform/services.ts';

function startWorker(s: Services): Worker {
  const worker = new Worker({
    queue: s.jobs, handlers: jobHandlers(s), clock: s.clock, log: s.log.child({ component: 'worker' }),
    concurrency: s.config.workerConcurrency, leaseMs: s.config.jobLeaseMs, pollMs: s.config.jobPollMs,
  });
  worker.start();
  return worker;
}

function onSignal(stop: () => Promise<void>): void {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) process.exit(1); // a second signal: stop now
      stopping = true;
      void stop().then(() => process.exit(0), () => process.exit(1));
    });
  }
}

/** On an empty database: a sandbox account with credits, its key printed once with a first call to try. */
async function bootstrapSandboxAccount(s: Services, baseUrl: string): Promise<void> {
  if ((await s.accounts.count()) > 0) return;
  const account = await s.accounts.create({ name: 'Sandbox', plan: s.prices.hasPlan('sandbox') ? 'sandbox' : s.prices.defaultPlan, sandbox: true });
  if (s.config.sandboxCreditsCentavos > 0) await credit(s.db, s.clock, account.id, s.config.sandboxCreditsCentavos, 'sandbox credits');
  const key = await s.accounts.issueKey(account.id);
  console.log([
    '',
    '  Tramita: a sandbox account was created on this empty database.',
    `  account  ${account.id}  (R$ ${(s.config.sandboxCreditsCentavos / 100).toFixed(2)} of credits)`,
    `  API key  ${key.key}`,
    '  The key is shown only this once: store it now (new keys: npx tramita keys create ' + account.id + ').',
    '',
    `  curl -s ${baseUrl}/v1/conta/saldo -H 'x-api-key: ${key.key}'`,
    `  Reference: ${baseUrl}/docs`,
    '',
  ].join('\n'));
}

export async function serve(config: Config): Promise<number> {
  const log = createLogger(config.logLevel);
  const database = await openDatabase(config);
  const applied = await migrate(database);
  if (applied.length) log.info({ applied }, 'migrations applied');
  const s = createServices(config, database, log);
  const app = await buildApp(s, { defaultMetrics: true });
  let worker: Worker | undefined;
  // Installed before listening, so a signal at any point of start-up still shuts down cleanly.
  onSignal(async () => {
    log.info('shutting down: finishing in-flight requests');
    await app.close();
    await app.tramita.background.drain(config.syncWindowMs);
    await worker?.stop();
    await database.close();
    log.info('stopped');
  });
  const address = await app.listen({ host: config.host, port: config.port });
  const baseUrl = config.publicUrl ?? address.replace('://[::1]', '://localhost').replace('://127.0.0.1', '://localhost');
  const inProcess = config.workers === 'in-process' || (config.workers === 'auto' && database.engine === 'sqlite');
  if (inProcess) {
    await scheduleMaintenance(s);
    worker = startWorker(s);
  }
  log.info({ address, engine: database.engine, storage: database.location, jobs: inProcess ? 'in-process' : 'tramita worker' }, 'tramita listening');
  await bootstrapSandboxAccount(s, baseUrl);
  return new Promise<number>(() => {}); // runs until a signal
}

export async function work(config: Config): Promise<number> {
  const log = createLogger(config.logLevel);
  const database = await openDatabase(config);
  await migrate(database);
  const s = createServices(config, database, log);
  await scheduleMaintenance(s);
  const worker = startWorker(s);
  log.info({ worker: worker.id, engine: database.engine, concurrency: config.workerConcurrency }, 'tramita worker running');
  onSignal(async () => {
    log.info('worker stopping: handing unfinished jobs back');
    await worker.stop();
    await database.close();
  });
  return new Promise<number>(() => {});
}
