/**
 * Webhook deliveries: one row per (event, destination, name sent), with the exact body, its status
 * and the history of its attempts. planner.ts creates them inside the event's transaction and enqueues
 * a job for each; the job (deliver-job.ts) makes the attempts. Statuses: PENDENTE until an attempt gets
 * a 2xx (ENTREGUE) or the last attempt fails (FALHOU); DESCARTADA when, at attempt time, the webhook is
 * inactive or has no URL any more (nothing sent; it can be resent).
 */
import { defineJob } from '../jobs/job-type.ts';
import type { Kysely } from 'kysely';
import { iso, type Clock } from '../clock.ts';
import type { DB, DeliveryStatus, WebhookAttemptsTable, WebhookConfigsTable, WebhookDeliveriesTable } from '../db/schema.ts';
import { newId } from '../ids.ts';
import { transactorFor, type Transactor } from '../db/group-commit.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { Engine } from '../db/database.ts';
import type { JobSettlement } from '../jobs/worker.ts';
import { preparedIn, preparedRows } from '../db/prepared.ts';
import { TickBatch } from '../db/tick-batch.ts';
import { type AttemptRecord, ATTEMPT_COLUMNS, DELIVERY_STATE_COLUMNS, deliveryStateAfter, recordAttempts, selectWithConfig } from './delivery-statements.ts';

export type { AttemptRecord };

export const DELIVERY_JOB = 'webhooks.entregar';
/** One attempt to deliver a stored delivery. Its attempts are the delivery's own (TRAMITA_WEBHOOK_MAX_ATTEMPTS, default 12), given at each enqueue. */
export const DELIVERY = defineJob<{ deliveryId: string }>({ kind: DELIVERY_JOB, maxAttempts: 12 });
/**
 * How often an idle delivery worker looks for due deliveries (one indexed query; half the 100 ms p99 budget of enqueue → delivered would go to waiting at 50).
 */
export const DELIVERY_POLL_MS = 25;

/**
 * Spec §6.1: attempt n+1 comes min(120, 2^n) minutes after attempt n failed; divided by
 * TRAMITA_DEV_TIME_SCALE (1 in production) so a development run can walk the whole ladder.
 */
export function deliveryRetryDelayMs(attempt: number, timeScale = 1): number {
  return (Math.min(120, 2 ** attempt) * 60_000) / timeScale;
}

/** What an attempt whose outcome was never written says in the history. */
export const INTERRUPTED_ATTEMPT = "interrupted: the server stopped during this attempt, before the receiver's answer was recorded";

/** The health of a delivery's endpoint as its attempt read it (endpoint-health.ts); absent: healthy. */
export interface EndpointState {
  failingSince: string;
  disabledAt: string | null;
}

/** One delivery and its account's webhook configuration (none when the account has none). */
export interface DeliveryWithConfig {
  delivery: WebhookDeliveriesTable;
  config: WebhookConfigsTable | undefined;
  /** The health of the endpoint it goes to; undefined when healthy (endpoint-health.ts). */
  endpoint: EndpointState | undefined;
}

interface AttemptStart {
  deliveryId: string;
  attempt: number;
  url: string;
  startedAt: string;
}

interface AttemptOutcome {
  deliveryId: string;
  attemptId: string;
  record: AttemptRecord;
  settle: JobSettlement | undefined;
}

/**
 * Reads and settles deliveries. The three statements of every attempt (read the delivery, record the
 * attempt as started, record its outcome) are batched across the attempts of one turn of the event
 * loop (tick-batch.ts): a worker claims its deliveries together, so their reads are one query and
 * their starts one transaction, and the outcomes that arrive in the same turn are written together
 * with their jobs' settlements. Each attempt's guarantees are the ones it had alone: its start is
 * committed before it is sent, and its outcome and its job's settlement commit in one transaction.
 */
export class DeliveryStore {
  readonly #db: Kysely<DB>;
  readonly #clock: Clock;
  readonly #jobs: JobQueue;
  readonly #engine: Engine;
  /** Writes go through group commit on SQLite: a batch shares its COMMIT with other writers'. */
  readonly #transactor: Transactor;
  readonly #reads = new TickBatch<string, DeliveryWithConfig | undefined>({ all: (ids) => this.#readAll(ids) });
  readonly #starts = new TickBatch<AttemptStart, string>({ all: (items) => this.#startAll(items), isolate: true });
  readonly #outcomes = new TickBatch<AttemptOutcome, undefined>({ all: (items) => this.#recordAll(items), isolate: true });
  // The statements of a batch of attempts, compiled once per batch shape (db/prepared.ts): building
  // them with Kysely for every batch, row by row, was about a tenth of a delivery's CPU on SQLite.
  readonly #selectWithConfig;
  readonly #insertAttempts;
  readonly #upsertAttempts;
  readonly #setAttempts;
  readonly #setState;

  constructor(db: Kysely<DB>, clock: Clock, jobs: JobQueue, engine: Engine) {
    this.#db = db;
    this.#engine = engine;
    this.#clock = clock;
    this.#jobs = jobs;
    this.#transactor = transactorFor(db);
    this.#selectWithConfig = preparedIn((ids) => selectWithConfig(db).where('d.id', 'in', ids));
    this.#insertAttempts = preparedRows(ATTEMPT_COLUMNS, (rows) => db.insertInto('webhook_attempts').values(rows));
    this.#upsertAttempts = preparedRows(ATTEMPT_COLUMNS, (rows) => recordAttempts(db, rows));
    this.#setAttempts = preparedIn(
      (ids, p) => db.updateTable('webhook_deliveries').set({ attempts: p.attempt, updated_at: p.now }).where('id', 'in', ids),
      ['attempt', 'now'],
    );
    this.#setState = preparedIn((ids, p) => db.updateTable('webhook_deliveries').set(p).where('id', 'in', ids), DELIVERY_STATE_COLUMNS);
  }

  async get(id: string, accountId?: string): Promise<WebhookDeliveriesTable | undefined> {
    let q = this.#db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id);
    if (accountId) q = q.where('account_id', '=', accountId);
    return q.executeTakeFirst();
  }

  /** A delivery and its account's webhook configuration (the hot path of every attempt; read with the others of this turn). */
  getWithConfig(id: string): Promise<DeliveryWithConfig | undefined> {
    return this.#reads.add(id);
  }

  async #readAll(ids: string[]): Promise<Array<DeliveryWithConfig | undefined>> {
    const { rows } = await this.#selectWithConfig(this.#db, ids);
    const found = new Map<string, DeliveryWithConfig>();
    for (const row of rows) {
      const {
        c_account_id,
        c_url,
        c_token_sealed,
        c_secret_sealed,
        c_secret_prefix,
        c_formato,
        c_ativo,
        c_eventos,
        c_nomes_legados,
        c_feed_cursor,
        c_created_at,
        c_updated_at,
        e_failing_since,
        e_disabled_at,
        ...delivery
      } = row;
      const config =
        c_account_id === null
          ? undefined
          : {
              account_id: c_account_id,
              url: c_url,
              token_sealed: c_token_sealed,
              secret_sealed: c_secret_sealed!,
              secret_prefix: c_secret_prefix!,
              formato: c_formato!,
              ativo: c_ativo!,
              eventos: c_eventos,
              nomes_legados: c_nomes_legados!,
              feed_cursor: c_feed_cursor,
              created_at: c_created_at!,
              updated_at: c_updated_at!,
            };
      const endpoint = e_failing_since === null ? undefined : { failingSince: e_failing_since, disabledAt: e_disabled_at };
      found.set(delivery.id, { delivery: delivery as WebhookDeliveriesTable, config, endpoint });
    }
    // Each caller gets its own copy: one of them may be handed the same delivery twice.
    return ids.map((id) => {
      const f = found.get(id);
      return f && { delivery: { ...f.delivery }, config: f.config, endpoint: f.endpoint };
    });
  }

  /**
   * Records an attempt as started, before anything is sent: it counts, and stays in the history as
   * interrupted, if the process dies before its outcome is written (a crash, kill -9, a hang past the
   * lease). Returns the attempt's id for `recordAttempt`.
   */
  startAttempt(deliveryId: string, attempt: number, url: string, startedAt: string): Promise<string> {
    return this.#starts.add({ deliveryId, attempt, url, startedAt });
  }

  async #startAll(items: AttemptStart[]): Promise<string[]> {
    const ids = items.map(() => newId('att'));
    const now = iso(this.#clock.now());
    const rows = items.map((it, i) => ({
      id: ids[i],
      delivery_id: it.deliveryId,
      attempt: it.attempt,
      url: it.url,
      started_at: it.startedAt,
      status_code: null,
      latency_ms: 0,
      error: INTERRUPTED_ATTEMPT,
      response_excerpt: null,
      next_attempt_at: null,
    }));
    const byAttempt = Map.groupBy(items, (it) => it.attempt);
    if (this.#engine === 'postgres' && byAttempt.size === 1) {
      // One statement, one round trip instead of four (BEGIN, INSERT, UPDATE, COMMIT): PostgreSQL runs
      // a data-modifying WITH atomically with its main statement. (SQLite has no INSERT inside WITH.)
      const [[attempt, group]] = byAttempt;
      await this.#db
        .with('started', (db) => db.insertInto('webhook_attempts').values(rows))
        .updateTable('webhook_deliveries')
        .set({ attempts: attempt, updated_at: now })
        .where(
          'id',
          'in',
          group.map((it) => it.deliveryId),
        )
        .execute();
      return ids;
    }
    await this.#transactor.run(async (trx) => {
      await this.#insertAttempts(trx, rows);
      for (const [attempt, group] of byAttempt) {
        await this.#setAttempts(
          trx,
          group.map((it) => it.deliveryId),
          { attempt, now },
        );
      }
    });
    return ids;
  }

  /** One attempt's outcome and the delivery's new state, together (with `settle`: the job's settlement). */
  recordAttempt(deliveryId: string, attemptId: string, record: AttemptRecord, settle?: JobSettlement): Promise<void> {
    return this.#outcomes.add({ deliveryId, attemptId, record, settle });
  }

  async #recordAll(items: AttemptOutcome[]): Promise<undefined[]> {
    const now = iso(this.#clock.now());
    const attempts = items.map(({ attemptId, deliveryId, record: a }) => ({
      id: attemptId,
      delivery_id: deliveryId,
      attempt: a.attempt,
      url: a.url,
      started_at: a.startedAt,
      status_code: a.statusCode,
      latency_ms: a.latencyMs,
      error: a.error,
      response_excerpt: a.responseExcerpt,
      next_attempt_at: a.nextAttemptAt,
    }));
    // Deliveries that end the same way (all those delivered at attempt 1 with a 204, say) in one statement each.
    const byOutcome = Map.groupBy(items, (it) =>
      JSON.stringify([it.record.status, it.record.attempt, it.record.statusCode, it.record.error, it.record.nextAttemptAt]),
    );
    const deliveryState = (a: AttemptRecord) => deliveryStateAfter(a, now);
    const workerId = items[0].settle?.workerId;
    const allDone = items.every(
      (it) =>
        it.settle &&
        it.settle.workerId === workerId &&
        !('retryAt' in it.settle.outcome && it.settle.outcome.retryAt) &&
        !('failed' in it.settle.outcome && it.settle.outcome.failed),
    );
    if (this.#engine === 'postgres' && byOutcome.size === 1 && allDone) {
      // The hot case in one statement, one round trip instead of five: PostgreSQL runs data-modifying
      // WITHs atomically with their main statement.
      await this.#db
        .with('settled', (qc) =>
          this.#jobs.doneStatement(
            qc,
            workerId!,
            items.map((it) => it.settle!.id),
          ),
        )
        .with('recorded', (qc) => recordAttempts(qc, attempts))
        .updateTable('webhook_deliveries')
        .set(deliveryState(items[0].record))
        .where(
          'id',
          'in',
          items.map((it) => it.deliveryId),
        )
        .execute();
      return items.map(() => undefined);
    }
    await this.#transactor.run(async (trx) => {
      for (const [worker, group] of Map.groupBy(
        items.filter((it) => it.settle),
        (it) => it.settle!.workerId,
      )) {
        await this.#jobs.settleMany(
          trx,
          worker,
          group.map((it) => it.settle!),
        );
      }
      await this.#upsertAttempts(trx, attempts);
      for (const [, group] of byOutcome) {
        await this.#setState(
          trx,
          group.map((it) => it.deliveryId),
          deliveryState(group[0].record),
        );
      }
    });
    return items.map(() => undefined);
  }

  /** Every attempt used up without a final outcome (the last ones were interrupted): FALHOU, with `settle` (the job's settlement). */
  async exhaust(deliveryId: string, settle?: JobSettlement): Promise<void> {
    await this.#transactor.run(async (trx) => {
      if (settle) await this.#jobs.settleMany(trx, settle.workerId, [settle]);
      await trx
        .updateTable('webhook_deliveries')
        .set({ status: 'FALHOU', last_error: INTERRUPTED_ATTEMPT, next_attempt_at: null, updated_at: iso(this.#clock.now()) })
        .where('id', '=', deliveryId)
        .where('status', '=', 'PENDENTE')
        .execute();
    });
  }

  async discard(deliveryId: string, reason: string): Promise<void> {
    await this.#db
      .updateTable('webhook_deliveries')
      .set({ status: 'DESCARTADA', last_error: reason, next_attempt_at: null, updated_at: iso(this.#clock.now()) })
      .where('id', '=', deliveryId)
      .execute();
  }

  /** Kept, not attempted, while its endpoint `url` is disabled (RETIDA): re-enabling the endpoint resends or discards it. */
  async hold(deliveryId: string, accountId: string, url: string): Promise<void> {
    const now = iso(this.#clock.now());
    await this.#transactor.run(async (trx) => {
      await trx
        .updateTable('webhook_deliveries')
        .set({ status: 'RETIDA', last_error: 'endpoint disabled: kept until it is re-enabled', next_attempt_at: null, updated_at: now })
        .where('id', '=', deliveryId)
        .where('status', '=', 'PENDENTE')
        .execute();
      await trx
        .insertInto('webhook_held_deliveries')
        .values({ delivery_id: deliveryId, account_id: accountId, url, held_at: now })
        .onConflict((oc) => oc.column('delivery_id').doNothing())
        .execute();
    });
  }

  /** A page of the account's deliveries, newest first. */
  /** Newest first; `since`/`until` bound the creation instant (ISO; `until` excluded). */
  async list(
    accountId: string,
    f: { status?: DeliveryStatus; event?: string; before?: string; since?: string; until?: string; limit: number },
  ): Promise<WebhookDeliveriesTable[]> {
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
