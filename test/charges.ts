/**
 * What an account was charged, as the ledger and the search log record it: each debit with the
 * answer or job it paid for. Tests compare it with what a charge must write (operation id, origin).
 */
import type { Kysely } from 'kysely';
import type { DB } from '../src/platform/db/schema.ts';

export interface ChargeRecord {
  queryType: string | null;
  operationId: string | null;
  centavos: number;
  requestId: string;
  method: string;
  path: string;
  statusCode: number;
}

/** The account's ledger debits as stored, oldest first (the statement's order: the ledger's key, account and seq). */
export async function debitRows(db: Kysely<DB>, accountId: string) {
  return db.selectFrom('ledger').selectAll().where('account_id', '=', accountId).where('kind', '=', 'debit').orderBy('seq').execute();
}

/** The account's debits, oldest first, each with its search log. */
export async function chargeRecords(db: Kysely<DB>, accountId: string): Promise<ChargeRecord[]> {
  const rows = await db
    .selectFrom('ledger')
    .innerJoin('search_logs', 'search_logs.id', 'ledger.search_log_id')
    .select([
      'ledger.query_type',
      'ledger.operation_id',
      'ledger.delta_centavos',
      'search_logs.request_id',
      'search_logs.method',
      'search_logs.path',
      'search_logs.status_code',
    ])
    .where('ledger.account_id', '=', accountId)
    .where('ledger.kind', '=', 'debit')
    .orderBy('ledger.seq')
    .execute();
  return rows.map((r) => ({
    queryType: r.query_type,
    operationId: r.operation_id,
    centavos: -Number(r.delta_centavos),
    requestId: r.request_id,
    method: r.method,
    path: r.path,
    statusCode: Number(r.status_code),
  }));
}
