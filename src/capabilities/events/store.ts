/** The account's event feed (GET /v1/eventos): its rows in `account_events`, each joined to the event it delivers. */
import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';

export interface FeedRead {
  /** Rows after this cursor (exclusive); from the first when absent. */
  after: string | undefined;
  /** Only rows written at or before this instant (ISO), so a row still being committed next to it is not skipped; none when absent. */
  settledBy: string | undefined;
  /** How many rows at most. */
  limit: number;
}

/** The account's feed rows in cursor order. */
export async function feedRows(db: Kysely<DB>, accountId: string, read: FeedRead) {
  let q = db
    .selectFrom('account_events as a')
    .innerJoin('domain_events as e', 'e.id', 'a.event_id')
    .select(['a.id as cursor', 'a.monitor_type', 'a.monitor_id', 'e.id', 'e.kind', 'e.source', 'e.created_at', 'e.data'])
    .where('a.account_id', '=', accountId);
  if (read.after) q = q.where('a.id', '>', read.after);
  if (read.settledBy) q = q.where('a.created_at', '<=', read.settledBy);
  return q.orderBy('a.id').limit(read.limit).execute();
}

/** Whether `cursor` is one of the account's feed rows (an acknowledgement names only those). */
export async function isFeedCursorOf(db: Kysely<DB>, accountId: string, cursor: string): Promise<boolean> {
  const row = await db.selectFrom('account_events').select('id').where('id', '=', cursor).where('account_id', '=', accountId).executeTakeFirst();
  return row !== undefined;
}
