/**
 * Creating webhook deliveries (deliveries.ts has their rows and attempts): `plan` makes one delivery
 * per (event, destination, name sent) inside the event's transaction and enqueues a delivery job for
 * each; `create` makes one (a resend, a test). The retry ladder is this deployment's (spec §6.1).
 */
import type { Kysely, Transaction } from 'kysely';
import { iso, type Clock } from '../clock.ts';
import type { DB, WebhookConfigsTable } from '../db/schema.ts';
import type { Audience } from '../events/audience.ts';
import { LEGACY_NAMES, type EventKind } from '../events/kinds.ts';
import { eventBody, type EventEnvelope } from '../events/payload.ts';
import { newId } from '../ids.ts';
import type { JobQueue } from '../jobs/queue.ts';
import { DELIVERY, deliveryRetryDelayMs } from './deliveries.ts';

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
      ids.push(
        await this.create(trx, {
          accountId: config.account_id,
          eventId: envelope.id,
          eventName: name,
          monitorType: to.monitorType ?? null,
          monitorId: to.monitorId ?? null,
          url,
          body: eventBody(config.formato, { ...envelope, event: name }),
        }),
      );
    }
    return ids;
  }

  /** Held deliveries (RETIDA) back in the queue, in `trx`, each with a whole retry ladder past the attempts it already made. */
  async requeue(trx: Db, deliveryIds: string[]): Promise<void> {
    if (deliveryIds.length === 0) return;
    const now = iso(this.#clock.now());
    const requeued = await trx
      .updateTable('webhook_deliveries')
      .set((eb) => ({ status: 'PENDENTE', max_attempts: eb('attempts', '+', this.#maxAttempts), last_error: null, next_attempt_at: now, updated_at: now }))
      .where('id', 'in', deliveryIds)
      .where('status', '=', 'RETIDA')
      .returning('id')
      .execute();
    for (const { id } of requeued) await this.#jobs.add(DELIVERY, { deliveryId: id }, trx, { maxAttempts: this.#maxAttempts });
  }

  /** A delivery and its job (unless the caller makes the one attempt itself: a test), in `trx`. */
  async create(
    trx: Db,
    d: {
      accountId: string;
      eventId: string;
      eventName: string;
      monitorType: string | null;
      monitorId: string | null;
      url: string | null;
      body: string;
      resentFrom?: string;
      maxAttempts?: number;
      enqueue?: boolean;
    },
  ): Promise<string> {
    const id = newId('dlv');
    const now = iso(this.#clock.now());
    const maxAttempts = d.maxAttempts ?? this.#maxAttempts;
    await trx
      .insertInto('webhook_deliveries')
      .values({
        id,
        account_id: d.accountId,
        event_id: d.eventId,
        event_name: d.eventName,
        monitor_type: d.monitorType,
        monitor_id: d.monitorId,
        url: d.url,
        body: d.body,
        status: 'PENDENTE',
        attempts: 0,
        max_attempts: maxAttempts,
        last_status_code: null,
        last_error: null,
        next_attempt_at: now,
        resent_from: d.resentFrom ?? null,
        created_at: now,
        updated_at: now,
        delivered_at: null,
      })
      .execute();
    if (d.enqueue !== false) await this.#jobs.add(DELIVERY, { deliveryId: id }, trx, { maxAttempts });
    return id;
  }
}
