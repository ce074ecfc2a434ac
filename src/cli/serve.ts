/**
 * Process lifecycles: `serve` (HTTP server, plus in-process jobs on SQLite) and `worker` (jobs only).
 * Shutdown on SIGTERM/SIGINT: stop claiming jobs (the running ones get 5 s, then are handed back), and
 * meanwhile stop accepting, finish in-flight requests, give background operations the sync window to
 * finish; then close the connectors (what still waits on an upstream is aborted, and an operation stores
 * its end as OPERATION_INTERRUPTED) and the database.
 */
import { buildApp } from '../app.ts';
import { buildCapabilities, jobHandlers, scheduleRecurringJobs, type Capabilities } from '../capabilities/index.ts';
import type { Config } from '../config.ts';
import { loggedMigrationSteps, migrate, openDatabase } from '../platform/db/database.ts';
import { Worker } from '../platform/jobs/worker.ts';
import { DELIVERY_JOB, DELIVERY_POLL_MS } from '../platform/webhooks/deliveries.ts';
import { createLogger, logDestination } from '../platform/observability/logger.ts';
import { createServices, type Services } from '../platform/services.ts';
import { firstStart } from './first-start.ts';
import { openUpstreams, type OpenedSources } from './upstreams.ts';
import { stopOnSignal } from './signals.ts';
import { serveWorkerMetrics } from './worker-metrics.ts';
import { assertPortFree } from './startup-failure.ts';
import { assertPublicUrlKnown } from '../platform/http/absolute-url.ts';
import { probeUpstream } from '../sources/http/probe.ts';
import { logUpstreamsTo, upstreamBaseUrl } from '../platform/observability/upstreams.ts';
import { startSourceProber } from '../platform/observability/source-health.ts';
import { progressReporter } from '../platform/observability/progress.ts';
import type { BackgroundOperations } from '../platform/async/window.ts';

/** Two workers on one queue: webhook deliveries (many at once, mostly waiting on receivers) and the rest. */
function startWorkers(s: Services, capabilities: Capabilities): { id: string; stop(): Promise<void> } {
  const handlers = jobHandlers(capabilities);
  const common = { queue: s.jobs, handlers, clock: s.clock, leaseMs: s.config.jobLeaseMs, pollMs: s.config.jobPollMs };
  const jobs = new Worker({ ...common, log: s.log.child({ component: 'worker' }), concurrency: s.config.workerConcurrency, kinds: { except: [DELIVERY_JOB] } });
  // Deliveries poll more often: an event's delivery should leave within tens of milliseconds (bench target p99 ≤ 500 ms).
  const deliveries = new Worker({
    ...common,
    pollMs: Math.min(s.config.jobPollMs, DELIVERY_POLL_MS),
    log: s.log.child({ component: 'webhooks' }),
    concurrency: s.config.webhookConcurrency,
    kinds: { only: [DELIVERY_JOB] },
  });
  jobs.start();
  deliveries.start();
  return {
    id: jobs.id,
    async stop() {
      await Promise.all([jobs.stop(), deliveries.stop()]);
      s.webhooks.sender.close();
    },
  };
}

function warnIfPrivateWebhooks(s: Services): void {
  if (s.config.webhookAllowPrivate) {
    s.log.warn(
      'TRAMITA_WEBHOOK_ALLOW_PRIVATE=true: webhooks may target http:// and private or loopback addresses. For development and ' +
        'tests only: this opens the server to SSRF.',
    );
  }
}

/** The upstreams, logging the sandbox's generation when it runs. */
async function upstreams(config: Config, log: Services['log']): Promise<OpenedSources> {
  const sources = await openUpstreams(config, { onProgress: progressReporter(log, 'sandbox: generating the fictitious data set') });
  if (sources.sandbox)
    log.info({ datajud: sources.sandbox.datajudUrl, portal: sources.sandbox.portalUrl }, 'sandbox upstreams running on loopback (fictitious data)');
  return sources;
}

export async function serve(config: Config): Promise<number> {
  assertPublicUrlKnown(config);
  const log = createLogger(config.logLevel, logDestination(config.logFormat));
  logUpstreamsTo(log.child({ component: 'upstreams' }));
  await assertPortFree(config.host, config.port);
  const database = await openDatabase(config, log.child({ component: 'storage' }));
  const applied = await migrate(database, loggedMigrationSteps(log));
  if (applied.length) log.info({ applied }, 'migrations applied');
  const sources = await upstreams(config, log);
  const s = createServices(config, database, log, { sources });
  const capabilities = buildCapabilities(s);
  const app = await buildApp(s, capabilities, { defaultMetrics: true });
  warnIfPrivateWebhooks(s);
  let worker: ReturnType<typeof startWorkers> | undefined;
  // Installed before listening, so a signal at any point of start-up still shuts down cleanly.
  const lifecycle = stopOnSignal(async () => {
    log.info('shutting down: finishing in-flight requests');
    // No job is claimed from now on, and the running ones get their own grace (Worker.stop) while the
    // requests and the 202 operations get theirs: a supervisor that kills the process at its deadline
    // (30 s by default on Kubernetes) does not leave jobs leased to a dead process until their lease lapses.
    const jobsStopped = worker?.stop();
    await app.close();
    await drainOperations(app.tramita.background, config.syncWindowMs, log);
    // A signal during start-up: the workers may have started since.
    await (jobsStopped ?? worker?.stop());
    // What still waits on an upstream ends now: closing the connectors aborts it, and an operation
    // records its end (503 OPERATION_INTERRUPTED, uncharged) while the database is still open.
    await sources.close();
    await app.tramita.background.drain(RECORD_END_MS);
    await database.close();
    log.info('stopped');
  }, log);
  try {
    await listenAndStart(config, s, sources, capabilities, app, (w) => {
      worker = w;
    });
  } catch (err) {
    // A signal closed what start-up was using (the database, the app): the stop under way ends the process with 0.
    if (lifecycle.stopping) return new Promise<number>(() => {});
    throw err;
  }
  return new Promise<number>(() => {}); // runs until a signal
}

/** How long the operations interrupted at the end of the shutdown's grace get to store their final answer. */
const RECORD_END_MS = 2_000;

/** The operations that answered 202 get the synchronous window to finish; what still runs then ends interrupted. */
async function drainOperations(background: BackgroundOperations, graceMs: number, log: Services['log']): Promise<void> {
  const running = background.size;
  if (running === 0) return;
  log.info({ operations: running, graceMs }, 'waiting for the operations that answered 202');
  await background.drain(graceMs);
  log.info({ unfinished: background.size }, 'done waiting for the operations that answered 202');
}

/** The part of a start after the signal handlers: listen, the in-process jobs, the banner. */
async function listenAndStart(
  config: Config,
  s: Services,
  sources: OpenedSources,
  capabilities: Capabilities,
  app: Awaited<ReturnType<typeof buildApp>>,
  started: (w: ReturnType<typeof startWorkers>) => void,
): Promise<void> {
  const { database, log } = s;
  const address = await app.listen({ host: config.host, port: config.port });
  const baseUrl = config.publicUrl ?? address.replace('://[::1]', '://localhost').replace('://127.0.0.1', '://localhost');
  const inProcess = config.workers === 'in-process' || (config.workers === 'auto' && database.engine === 'sqlite');
  if (inProcess) {
    await scheduleRecurringJobs(s, capabilities);
    started(startWorkers(s, capabilities));
  }
  log.info({ address, engine: database.engine, storage: database.location, jobs: inProcess ? 'in-process' : 'tramita worker' }, 'tramita listening');
  console.log(await firstStart(s, baseUrl, sources));
}

export async function work(config: Config): Promise<number> {
  const log = createLogger(config.logLevel, logDestination(config.logFormat));
  logUpstreamsTo(log.child({ component: 'upstreams' }));
  const database = await openDatabase(config, log.child({ component: 'storage' }));
  await migrate(database, loggedMigrationSteps(log));
  // With the sandbox, each worker runs its own simulator: same seed and size, same data set.
  const sources = await upstreams(config, log);
  const s = createServices(config, database, log, { sources });
  warnIfPrivateWebhooks(s);
  const capabilities = buildCapabilities(s);
  await scheduleRecurringJobs(s, capabilities);
  const worker = startWorkers(s, capabilities);
  // Failing upstreams are asked again in the background until they answer (issue 51).
  const prober = startSourceProber({ baseUrlOf: upstreamBaseUrl, probe: probeUpstream });
  const metrics = config.workerMetricsPort ? await serveWorkerMetrics(config.host, config.workerMetricsPort) : undefined;
  log.info(
    { worker: worker.id, engine: database.engine, concurrency: config.workerConcurrency, metrics: metrics && `${metrics.address}/metrics` },
    'tramita worker running',
  );
  stopOnSignal(async () => {
    log.info('worker stopping: handing unfinished jobs back');
    await metrics?.close();
    await worker.stop();
    await prober.stop();
    await sources.close();
    await database.close();
  }, log);
  return new Promise<number>(() => {});
}
