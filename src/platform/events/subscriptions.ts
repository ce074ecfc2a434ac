/**
 * Subscriptions: which monitor of which account wants which event kinds on a topic. A case monitor
 * subscribes to `cnj:<20 digits>`, so news of that case reaches it whoever's query or check brought
 * it. Written in the monitor's own transaction; removed with it.
 */
import type { Kysely, Transaction } from 'kysely';
import { iso, type Clock } from '../clock.ts';
import type { DB } from '../db/schema.ts';
import { newId } from '../ids.ts';
import type { EventKind } from './kinds.ts';
import type { Audience } from './audience.ts';

export interface Subscription {
  accountId: string;
  topic: string;
  monitorType: string;
  monitorId: string;
  kinds: EventKind[];
  webhookUrl: string | null;
}

export const caseTopic = (numeroCnj: string): string => `cnj:${numeroCnj}`;

export async function subscribe(trx: Transaction<DB> | Kysely<DB>, clock: Clock, s: Subscription): Promise<void> {
  await trx
    .insertInto('event_subscriptions')
    .values({
      id: newId('sub'),
      account_id: s.accountId,
      topic: s.topic,
      monitor_type: s.monitorType,
      monitor_id: s.monitorId,
      kinds: JSON.stringify(s.kinds),
      webhook_url: s.webhookUrl,
      created_at: iso(clock.now()),
    })
    .onConflict((oc) => oc.column('monitor_id').doUpdateSet({ topic: s.topic, kinds: JSON.stringify(s.kinds), webhook_url: s.webhookUrl }))
    .execute();
}

export async function unsubscribe(trx: Transaction<DB> | Kysely<DB>, monitorId: string): Promise<void> {
  await trx.deleteFrom('event_subscriptions').where('monitor_id', '=', monitorId).execute();
}

/**
 * Every monitor following the topic, whatever kinds it subscribed to, as an audience: for news of the
 * followed object itself that no subscription names by kind (a case's parties arriving after its
 * first answer, issue 43).
 */
export async function followers(db: Transaction<DB> | Kysely<DB>, topic: string): Promise<Audience[]> {
  const rows = await db
    .selectFrom('event_subscriptions')
    .select(['account_id', 'monitor_type', 'monitor_id', 'webhook_url'])
    .where('topic', '=', topic)
    .execute();
  return rows.map((r) => ({ accountId: r.account_id, monitorType: r.monitor_type, monitorId: r.monitor_id, webhookUrl: r.webhook_url }));
}
