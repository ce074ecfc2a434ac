/**
 * The event engine. `record` runs inside the transaction of the change that caused the event, and in
 * that same transaction: stores the domain event, works out who hears about it (the account it belongs
 * to, explicit audiences such as a radar's, and subscriptions on the case's topic), adds it to each
 * account's pull feed, and creates the webhook deliveries with their jobs. So an event exists exactly
 * when its change does, and every delivery it owes is durable from that moment (at least once).
 */
import type { Kysely, Transaction } from 'kysely';
import { iso, type Clock } from '../clock.ts';
import type { DB, WebhookConfigsTable } from '../db/schema.ts';
import { newId } from '../ids.ts';
import type { DeliveryPlanner } from '../webhooks/planner.ts';
import type { Audience } from './audience.ts';
import { EVENTS, type EventKind, type EventOf } from './catalog.ts';
import type { AudienceRule } from './declare.ts';
import { integratorData } from './integrator-shape.ts';
import { checkPayload } from './payload-check.ts';
import { caseTopic } from './subscriptions.ts';

/** One recipient: an account, and the monitor through which it hears (its webhook_url wins over the account's). */
export type { Audience };

interface EventBase {
  numeroCnj: string | null;
  tribunal: string | null;
  /** The origin marker of spec §6.3: the upstream behind the change, or `tramita`. */
  source?: string;
  /**
   * The upstream record(s) behind the event, for RAW and BOTH payloads: put into the bodies of the
   * deliveries planned here, not stored with the event (migration 0016).
   */
  raw?: unknown;
}

/**
 * An event to record: its kind, and `data` of that kind's declared type (catalog.ts). `accountId` (the
 * account it belongs to) and `audience` (further recipients known to the caller: a monitor's own
 * events, a radar's results) only where the kind's audience rule admits them.
 */
export type NewDomainEvent<K extends EventKind = EventKind> = EventBase & EventOf<K>;

type Db = Transaction<DB> | Kysely<DB>;

export class EventLog {
  readonly #clock: Clock;
  readonly #deliveries: DeliveryPlanner;

  constructor(clock: Clock, deliveries: DeliveryPlanner) {
    this.#clock = clock;
    this.#deliveries = deliveries;
  }

  async record<K extends EventKind>(trx: Db, event: NewDomainEvent<K>): Promise<string> {
    const e = event as NewDomainEvent;
    checkPayload(e.kind, e.data);
    const id = newId('evt');
    const createdAt = iso(this.#clock.now());
    const source = e.source ?? 'tramita';
    const data = integratorData(EVENTS[e.kind].shape, e.data);
    await trx
      .insertInto('domain_events')
      .values({
        id,
        kind: e.kind,
        numero_cnj: e.numeroCnj,
        tribunal: e.tribunal,
        account_id: e.accountId ?? null,
        source,
        data: JSON.stringify(data),
        created_at: createdAt,
      })
      .execute();
    const audience = await this.#audience(trx, e);
    if (audience.length === 0) return id;

    const accounts = [...new Set(audience.map((a) => a.accountId))];
    for (const a of audience) {
      await trx
        .insertInto('account_events')
        .values({
          id: newId('aev'),
          account_id: a.accountId,
          event_id: id,
          kind: e.kind,
          monitor_type: a.monitorType ?? null,
          monitor_id: a.monitorId ?? null,
          created_at: createdAt,
        })
        .onConflict((oc) => oc.columns(['account_id', 'event_id']).doNothing())
        .execute();
    }
    const configs = new Map<string, WebhookConfigsTable>(
      (await trx.selectFrom('webhook_configs').selectAll().where('account_id', 'in', accounts).execute()).map((c) => [c.account_id, c]),
    );
    const envelope = { id, event: e.kind, source, created_at: createdAt, data, raw: e.raw ?? null };
    for (const a of audience) {
      const config = configs.get(a.accountId);
      if (config) await this.#deliveries.plan(trx, config, a, envelope, e.kind);
    }
    return id;
  }

  async #audience(trx: Db, e: NewDomainEvent): Promise<Audience[]> {
    const out: Audience[] = [...(e.audience ?? [])];
    if (e.accountId && !out.some((a) => a.accountId === e.accountId && !a.monitorId)) out.push({ accountId: e.accountId });
    if (e.numeroCnj && (EVENTS[e.kind].audience as AudienceRule).subscribers) {
      const subs = await trx
        .selectFrom('event_subscriptions')
        .select(['account_id', 'monitor_type', 'monitor_id', 'kinds', 'webhook_url'])
        .where('topic', '=', caseTopic(e.numeroCnj))
        .execute();
      for (const s of subs) {
        if (!(JSON.parse(s.kinds) as string[]).includes(e.kind)) continue;
        if (out.some((a) => a.monitorId === s.monitor_id)) continue;
        out.push({ accountId: s.account_id, monitorType: s.monitor_type, monitorId: s.monitor_id, webhookUrl: s.webhook_url });
      }
    }
    return out;
  }
}
