/**
 * Webhook deliveries: one row per (event, destination, name sent), with the exact body, its status
 * and the history of its attempts. `plan` creates them inside the event's transaction and enqueues a
 * job for each; the job (deliver-job.ts) makes the attempts. Statuses: PENDENTE until an attempt gets
 * a 2xx (ENTREGUE) or the last attempt fails (FALHOU); DESCARTADA when, at attempt time, the webhook is
 * inactive or has no URL any more (nothing sent; it can be resent).
 */
import { defineJob } from '../jobs/job-type.ts';
import type { Kysely, Transaction } from 'kysely';
import { iso, type Clock } from '../clock.ts';
import type { DB, DeliveryStatus, WebhookAttemptsTable, WebhookConfigsTable, WebhookDeliveriesTable } from '../db/schema.ts';
import type { Audience } from '../events/log.ts';
import { LEGACY_NAMES, type EventKind } from '../events/kinds.ts';
import { eventBody, type EventEnvelope } from '../events/payload.ts';
import { newId } from '../ids.ts';
import { transactorFor, type Transactor } from '../db/group-commit.ts';
import type { JobQueue } from '../jobs/queue.ts';

export const DELIVERY_JOB = 'webhooks.entregar';
/** One attempt to deliver a stored delivery. Its attempts are the delivery's own (TRAMITA_WEBHOOK_MAX_ATTEMPTS, default 12), given at each enqueue. */
export const DELIVERY = defineJob<{ deliveryId: string }>({ kind: DELIVERY_JOB, maxAttempts: 12 });
/** How often an idle delivery worker looks for due deliveries (one indexed query). */
export const DELIVERY_POLL_MS = 50;

/**
 * Spec §6.1: attempt n+1 comes min(120, 2^n) minutes after attempt n failed; divided by
 * TRAMITA_DEV_TIME_SCALE (1 in production) so a development run can walk the whole ladder.
 */
export function deliveryRetryDelayMs(attempt: number, timeScale = 1): number {
  return (Math.min(120, 2 ** attempt) * 60_000) / timeScale;
}

type Db = Transaction<DB> | Kysely<DB>;

/** Which kinds an account's webhook sends: all when `eventos` is null. */
export function enabledKinds(config: Pick<WebhookConfigsTable, 'eventos'>): string[] | null {
  return config.eventos === null ? null : (JSON.parse(config.eventos) as string[]);
}

export class DeliveryPlanner {
  readonly #clock: Clock;
  readonly #jobs: JobQueue;
  readonly #maxAttempts: number;
  readonly #timeScale: number;

  constructor(clock: Clock, jobs: JobQueue, maxAttempts: number, timeScale = 1) {
    this.#clock = clock;
    this.#jobs = jobs;
    this.#maxAttempts = maxAttempts;
    this.#timeScale = timeScale;
  }

  /** The wait after a failed attempt `attempt` (the ladder, under this deployment's time scale). */
  retryDelayMs(attempt: number): number {
    return deliveryRetryDelayMs(attempt, this.#timeScale);
  }

  /** The deliveries one recipient of an event is owed under its account's configuration (none when inactive or not enabled). */
  async plan(trx: Db, config: WebhookConfigsTable, to: Audience, envelope: EventEnvelope, kind: EventKind): Promise<string[]> {
    if (!config.ativo) return [];
    const enabled = enabledKinds(config);
    if (enabled && !enabled.includes(kind)) return [];
    const url = to.webhookUrl ?? null;
    if (url === null && config.url === null) return [];
    const legacy = config.nomes_legados ? LEGACY_NAMES[kind] : undefined;
    const ids: string[] = [];
    for (const name of legacy ? [kind, legacy] : [kind]) {
      ids.push(await this.create(trx, {
        accountId: config.account_id, eventId: envelope.id, eventName: name, monitorType: to.monitorType ?? null, monitorId: to.monitorId ?? null,
        url, body: eventBody(config.formato, { ...envelope, event: name }),
      }));
    }
    return ids;
  }

  /** A delivery and its job (unless the caller makes the one attempt itself: a test), in `trx`. */
  async create(trx: Db, d: { accountId: string; eventId: string; eventName: string; monitorType: string | null; monitorId: string | null; url: string | null; body: string; resentFrom?: string; maxAttempts?: number; enqueue?: boolean }): Promise<string> {
    const id = newId('dlv');
    const now = iso(this.#clock.now());
    const maxAttempts = d.maxAttempts ?? this.#maxAttempts;
    await trx.insertInto('webhook_deliveries').values({
      id, account_id: d.accountId, event_id: d.eventId, event_name: d.eventName, monitor_type: d.monitorType, monitor_id: d.monitorId,
      url: d.url, body: d.body, status: 'PENDENTE', attempts: 0, max_attempts: maxAttempts, last_status_code: null, last_error: null,
      next_attempt_at: now, resent_from: d.resentFrom ?? null, created_at: now, updated_at: now, delivered_at: null,
    }).execute();
    if (d.enqueue !== false) await this.#jobs.add(DELIVERY, { deliveryId: id }, trx, { maxAttempts });
    return id;
  }
}

/** What an attempt whose outcome was never written says in the history. */
export const INTERRUPTED_ATTEMPT = 'interrupted: the server stopped during this attempt, before the receiver\'s answer was recorded';

export interface AttemptRecord {
  attempt: number;
  url: string | null;
  startedAt: string;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  responseExcerpt: string | null;
  /** When the next attempt comes; null when this one settled the delivery. */
  nextAttemptAt: string | null;
  status: DeliveryStatus;
}

/** Reads and settles deliveries. */
export class DeliveryStore {
  readonly #db: Kysely<DB>;
  readonly #clock: Clock;
  /** Attempts settle through group commit on SQLite: many deliveries finishing together share one COMMIT. */
  readonly #transactor: Transactor;

  constructor(db: Kysely<DB>, clock: Clock) {
    this.#db = db;
    this.#clock = clock;
    this.#transactor = transactorFor(db);
  }

  async get(id: string, accountId?: string): Promise<WebhookDeliveriesTable | undefined> {
    let q = this.#db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id);
    if (accountId) q = q.where('account_id', '=', accountId);
    return q.executeTakeFirst();
  }

  /** A delivery and its account's webhook configuration, in one query (the hot path of every attempt). */
  async getWithConfig(id: string): Promise<{ delivery: WebhookDeliveriesTable; config: WebhookConfigsTable | undefined } | undefined> {
    const row = await this.#db.selectFrom('webhook_deliveries as d').leftJoin('webhook_configs as c', 'c.account_id', 'd.account_id')
      .selectAll('d')
      .select(['c.account_id as c_account_id', 'c.url as c_url', 'c.token_sealed as c_token_sealed', 'c.secret_sealed as c_secret_sealed',
        'c.secret_prefix as c_secret_prefix', 'c.formato as c_formato', 'c.ativo as c_ativo', 'c.eventos as c_eventos',
        'c.nomes_legados as c_nomes_legados', 'c.feed_cursor as c_feed_cursor', 'c.created_at as c_created_at', 'c.updated_at as c_updated_at'])
      .where('d.id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    const { c_account_id, c_url, c_token_sealed, c_secret_sealed, c_secret_prefix, c_formato, c_ativo, c_eventos, c_nomes_legados, c_feed_cursor, c_created_at, c_updated_at, ...delivery } = row;
    const config = c_account_id === null ? undefined : {
      account_id: c_account_id, url: c_url, token_sealed: c_token_sealed, secret_sealed: c_secret_sealed!, secret_prefix: c_secret_prefix!,
      formato: c_formato!, ativo: c_ativo!, eventos: c_eventos, nomes_legados: c_nomes_legados!, feed_cursor: c_feed_cursor, created_at: c_created_at!, updated_at: c_updated_at!,
    };
    return { delivery: delivery as WebhookDeliveriesTable, config };
  }

  /**
   * Records an attempt as started, before anything is sent: it counts, and stays in the history as
   * interrupted, if the process dies before its outcome is written (a crash, kill -9, a hang past the
   * lease). Returns the attempt's id for `recordAttempt`.
   */
  async startAttempt(deliveryId: string, attempt: number, url: string, startedAt: string): Promise<string> {
    const id = newId('att');
    await this.#transactor.run(async (trx) => {
      await trx.insertInto('webhook_attempts').values({
        id, delivery_id: deliveryId, attempt, url, started_at: startedAt, status_code: null,
        latency_ms: 0, error: INTERRUPTED_ATTEMPT, response_excerpt: null, next_attempt_at: null,
      }).execute();
      await trx.updateTable('webhook_deliveries').set({ attempts: attempt, updated_at: iso(this.#clock.now()) }).where('id', '=', deliveryId).execute();
    });
    return id;
  }

  /** One attempt's outcome and the delivery's new state, together (with `also`: the job's settlement). */
  async recordAttempt(deliveryId: string, attemptId: string, a: AttemptRecord, also?: (trx: Transaction<DB>) => Promise<void>): Promise<void> {
    const now = iso(this.#clock.now());
    await this.#transactor.run(async (trx) => {
      await also?.(trx);
      await trx.updateTable('webhook_attempts').set({
        status_code: a.statusCode, latency_ms: a.latencyMs, error: a.error, response_excerpt: a.responseExcerpt, next_attempt_at: a.nextAttemptAt,
      }).where('id', '=', attemptId).execute();
      await trx.updateTable('webhook_deliveries').set({
        status: a.status, attempts: a.attempt, last_status_code: a.statusCode, last_error: a.error, next_attempt_at: a.nextAttemptAt,
        updated_at: now, delivered_at: a.status === 'ENTREGUE' ? now : null,
      }).where('id', '=', deliveryId).execute();
    });
  }

  /** Every attempt used up without a final outcome (the last ones were interrupted): FALHOU, with `also` (the job's settlement). */
  async exhaust(deliveryId: string, also?: (trx: Transaction<DB>) => Promise<void>): Promise<void> {
    await this.#transactor.run(async (trx) => {
      await also?.(trx);
      await trx.updateTable('webhook_deliveries').set({ status: 'FALHOU', last_error: INTERRUPTED_ATTEMPT, next_attempt_at: null, updated_at: iso(this.#clock.now()) })
        .where('id', '=', deliveryId).where('status', '=', 'PENDENTE').execute();
    });
  }

  async discard(deliveryId: string, reason: string): Promise<void> {
    await this.#db.updateTable('webhook_deliveries').set({ status: 'DESCARTADA', last_error: reason, next_attempt_at: null, updated_at: iso(this.#clock.now()) })
      .where('id', '=', deliveryId).execute();
  }

  /** A page of the account's deliveries, newest first. */
  /** Newest first; `since`/`until` bound the creation instant (ISO; `until` excluded). */
  async list(accountId: string, f: { status?: DeliveryStatus; event?: string; before?: string; since?: string; until?: string; limit: number }): Promise<WebhookDeliveriesTable[]> {
    let q = this.#db.selectFrom('webhook_deliveries').selectAll().where('account_id', '=', accountId);
    if (f.status) q = q.where('status', '=', f.status);
    if (f.event) q = q.where('event_name', '=', f.event);
    if (f.since) q = q.where('created_at', '>=', f.since);
    if (f.until) q = q.where('created_at', '<', f.until);
    if (f.before) q = q.where('id', '<', f.before);
    return q.orderBy('id', 'desc').limit(f.limit).execute();
  }

  async attempts(deliveryIds: string[]): Promise<Map<string, WebhookAttemptsTable[]>> {
    const out = new Map<string, WebhookAttemptsTable[]>(deliveryIds.map((id) => [id, []]));
    if (deliveryIds.length === 0) return out;
    const rows = await this.#db.selectFrom('webhook_attempts').selectAll().where('delivery_id', 'in', deliveryIds).orderBy('attempt').execute();
    for (const r of rows) out.get(r.delivery_id)!.push(r);
    return out;
  }
}
