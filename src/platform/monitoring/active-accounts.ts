/**
 * Monitors and radars of a deactivated account are neither renewed nor checked until it is
 * reactivated (no charges, no upstream calls, no news for an account that cannot read them).
 */
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/schema.ts';

export const activeAccountIds = (db: Kysely<DB> | Transaction<DB>) => db.selectFrom('accounts').select('id').where('status', '=', 'active');

/** How many accounts are active: a matcher built from live monitors is rebuilt when it moves. */
export async function activeAccountCount(db: Kysely<DB>): Promise<number> {
  const row = await db
    .selectFrom('accounts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', 'active')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
