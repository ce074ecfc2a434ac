/** What every capability may use: built once per process (server, worker or CLI) from the config. */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { AccountStore } from './accounts/store.ts';
import { AsyncRequestStore } from './async/store.ts';
import { Ledger } from './billing/ledger.ts';
import { PriceTable } from './billing/prices.ts';
import { systemClock, type Clock } from './clock.ts';
import type { Database } from './db/database.ts';
import type { DB } from './db/schema.ts';
import { JobQueue } from './jobs/queue.ts';
import { EventLog } from './events/log.ts';
import { SecretBox } from './crypto/secret-box.ts';
import { WebhookConfigStore } from './webhooks/config-store.ts';
import { DeliveryStore } from './webhooks/deliveries.ts';
import { EndpointHealth } from './webhooks/endpoint-health.ts';
import { DeliveryPlanner } from './webhooks/planner.ts';
import { WebhookSender } from './webhooks/send.ts';
import type { Sources } from './ports/sources.ts';
import { NO_SOURCES } from './ports/unconfigured.ts';
import { DbSourceHealthStore, shareSourceHealth } from './observability/source-health.ts';

export interface Services {
  config: Config;
  database: Database;
  db: Kysely<DB>;
  clock: Clock;
  log: Logger;
  prices: PriceTable;
  ledger: Ledger;
  accounts: AccountStore;
  asyncRequests: AsyncRequestStore;
  jobs: JobQueue;
  /** The upstream connectors (real services or the sandbox). */
  sources: Sources;
  /** Records domain events and fans them out to feeds and webhook deliveries (platform/events). */
  events: EventLog;
  /** Secrets at rest and keyed fingerprints of personal identifiers (TRAMITA_SECRET_KEY). */
  secrets: SecretBox;
  webhooks: {
    configs: WebhookConfigStore;
    planner: DeliveryPlanner;
    deliveries: DeliveryStore;
    sender: WebhookSender;
    /** Failing and disabled endpoints (issue 55 item 7). */
    endpoints: EndpointHealth;
  };
}

export interface ServiceOverrides {
  clock?: Clock;
  prices?: PriceTable;
  sources?: Sources;
}

export function createServices(config: Config, database: Database, log: Logger, overrides: ServiceOverrides = {}): Services {
  const clock = overrides.clock ?? systemClock;
  const db = database.db;
  const jobs = new JobQueue(db, clock, database.engine);
  const planner = new DeliveryPlanner(clock, jobs, config.webhookMaxAttempts, config.devTimeScale);
  const secrets = SecretBox.openSync({ secretKey: config.secretKey, dataDir: config.dataDir });
  // Each upstream's health, shared through the database by every process (issue 51).
  shareSourceHealth({
    store: new DbSourceHealthStore(db),
    clock,
    settings: { failingAfter: config.sourceFailingAfter, probeMs: config.sourceProbeMs },
    log: log.child({ component: 'upstreams' }),
  });
  return {
    config,
    database,
    db,
    clock,
    log,
    secrets,
    prices: overrides.prices ?? PriceTable.fromFile(config.pricesFile),
    ledger: new Ledger(db, clock),
    accounts: new AccountStore(db, clock, config.maxActiveApiKeys),
    asyncRequests: new AsyncRequestStore(db, clock, { retentionHours: config.requestRetentionHours, leaseMs: config.jobLeaseMs }),
    jobs,
    sources: overrides.sources ?? NO_SOURCES,
    events: new EventLog(clock, planner),
    webhooks: {
      configs: new WebhookConfigStore(db, clock, secrets),
      planner,
      deliveries: new DeliveryStore(db, clock, jobs, database.engine),
      endpoints: new EndpointHealth(db, clock, planner, config.webhookDisableAfterHours),
      sender: new WebhookSender({ allowPrivate: config.webhookAllowPrivate, timeoutMs: config.webhookTimeoutMs, maxSockets: config.webhookConcurrency }),
    },
  };
}
