/**
 * Credits and the ledger (spec §1.2, §8). Invariants:
 * - the balance never goes negative: the debit is a conditional UPDATE, and a CHECK backs it up;
 * - every debit has exactly one ledger row, written in the caller's transaction, next to the result it
 *   pays for; UNIQUE(account_id, operation_id) makes a second charge of one operation impossible;
 * - money is integer centavos.
 */
import type { Kysely, Transaction } from 'kysely';
import { iso, type Clock } from '../clock.ts';
import type { DB, LedgerTable } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';
import { newId } from '../ids.ts';

export interface Debit {
  accountId: string;
  centavos: number;
  operationId: string;
  queryType: string;
  searchLogId: string | null;
}

/** Debits inside `trx`; 403 INSUFFICIENT_CREDITS (and the caller's rollback) when the balance is short. */
export async function debit(trx: Transaction<DB>, clock: Clock, d: Debit): Promise<number> {
  const now = iso(clock.now());
  const row = await trx.updateTable('accounts')
    .set((eb) => ({ balance_centavos: eb('balance_centavos', '-', d.centavos), updated_at: now }))
    .where('id', '=', d.accountId)
    .where('balance_centavos', '>=', d.centavos)
    .returning('balance_centavos')
    .executeTakeFirst();
  if (!row) throw new ApiError('INSUFFICIENT_CREDITS', undefined, { priceCentavos: d.centavos });
  await trx.insertInto('ledger').values({
    id: newId('led'), account_id: d.accountId, kind: 'debit', delta_centavos: -d.centavos,
    balance_after_centavos: row.balance_centavos, operation_id: d.operationId, query_type: d.queryType,
    search_log_id: d.searchLogId, note: null, created_at: now,
  }).execute();
  return row.balance_centavos;
}

/** Adds credits (operator top-up); one ledger row. Returns the new balance, or undefined for no such account. */
export async function credit(db: Kysely<DB>, clock: Clock, accountId: string, centavos: number, note: string | null): Promise<number | undefined> {
  if (!Number.isInteger(centavos) || centavos <= 0) throw new RangeError('a credit is a positive whole number of centavos');
  return db.transaction().execute(async (trx) => {
    const now = iso(clock.now());
    const row = await trx.updateTable('accounts')
      .set((eb) => ({ balance_centavos: eb('balance_centavos', '+', centavos), updated_at: now }))
      .where('id', '=', accountId)
      .returning('balance_centavos')
      .executeTakeFirst();
    if (!row) return undefined;
    await trx.insertInto('ledger').values({
      id: newId('led'), account_id: accountId, kind: 'credit', delta_centavos: centavos,
      balance_after_centavos: row.balance_centavos, operation_id: null, query_type: null,
      search_log_id: null, note, created_at: now,
    }).execute();
    return row.balance_centavos;
  });
}

export async function balanceOf(db: Kysely<DB>, accountId: string): Promise<number | undefined> {
  const row = await db.selectFrom('accounts').select('balance_centavos').where('id', '=', accountId).executeTakeFirst();
  return row?.balance_centavos;
}

/** One page of the statement, newest first; `before` is the (created_at, id) of the last row seen. */
export async function statement(db: Kysely<DB>, accountId: string, limit: number, before?: { createdAt: string; id: string }): Promise<LedgerTable[]> {
  let q = db.selectFrom('ledger').selectAll().where('account_id', '=', accountId);
  if (before) {
    q = q.where((eb) => eb.or([
      eb('created_at', '<', before.createdAt),
      eb.and([eb('created_at', '=', before.createdAt), eb('id', '<', before.id)]),
    ]));
  }
  return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}
