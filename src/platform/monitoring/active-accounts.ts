/**
 * Monitors and radars of a deactivated account are neither renewed nor checked until it is
 * reactivated (no charges, no upstream calls, no news for an account that cannot read them).
 */
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/schema.ts';

export const activeAccountIds = (db: Kysely<DB> | Transaction<DB>) => db.selectFrom('accounts').select('id').where('status', '=', 'active');
