/**
 * The rows a charge writes, column by column: the one definition that Ledger.chargeIn (through
 * Kysely, one row at a time) and the SQLite charge batch (multi-row INSERTs) both write. A row is a
 * tuple in its table's column order; the compiler checks that every column of the table is listed.
 */
import type { LedgerTable, SearchLogsTable } from '../db/schema.ts';
import type { Charge } from './charge.ts';

export const SEARCH_LOG_COLUMNS = [
  'id',
  'account_id',
  'request_id',
  'query_type',
  'method',
  'path',
  'status_code',
  'charged_centavos',
  'created_at',
] as const satisfies readonly (keyof SearchLogsTable)[];

export const LEDGER_COLUMNS = [
  'id',
  'account_id',
  'kind',
  'delta_centavos',
  'balance_after_centavos',
  'operation_id',
  'query_type',
  'search_log_id',
  'note',
  'created_at',
  'seq',
] as const satisfies readonly (keyof LedgerTable)[];

/** A row of `T` as a tuple in the order of `C`. */
type Row<T, C extends readonly (keyof T)[]> = { -readonly [K in keyof C]: T[C[K]] };
/** The row tuple, or `never` (so no row compiles) when `C` leaves a column of `T` out. */
type CompleteRow<T, C extends readonly (keyof T)[]> = [Exclude<keyof T, C[number]>] extends [never] ? Row<T, C> : never;

export type SearchLogRow = CompleteRow<SearchLogsTable, typeof SEARCH_LOG_COLUMNS>;
export type LedgerRow = CompleteRow<LedgerTable, typeof LEDGER_COLUMNS>;

/** The search log of a charge (`meta.searchLogId`): its origin and its total. */
export function searchLogRow(id: string, c: Omit<Charge, 'debits'>, centavos: number, now: string): SearchLogRow {
  const o = c.origin;
  return [id, c.accountId, o.requestId, c.queryType, o.method, o.path, o.statusCode, centavos, now];
}

/** Where a debit left its account: the balance after it and its number in the statement (accounts.ledger_seq). */
export interface Left {
  after: number;
  seq: number;
}

/**
 * The ledger row of one debit: `delta` is minus its centavos, `left` what the balance's UPDATE
 * returned. Computes nothing from its arguments, so a prepared statement can be built from it with
 * placeholders.
 */
export function debitRow(
  id: string,
  c: Omit<Charge, 'debits' | 'origin'>,
  operationId: string,
  delta: number,
  left: Left,
  searchLogId: string,
  now: string,
): LedgerRow {
  return [id, c.accountId, 'debit', delta, left.after, operationId, c.queryType, searchLogId, null, now, left.seq];
}

// biome-ignore lint/suspicious/noExplicitAny: a tuple's values are not typed per column, and Kysely's insert wants each column's own type
type RowObject<C extends readonly string[]> = Record<C[number], any>;

/** A row tuple as the `{ column: value }` object Kysely inserts. */
export function rowObject<C extends readonly string[]>(columns: C, row: readonly unknown[]): RowObject<C> {
  return Object.fromEntries(columns.map((c, i) => [c, row[i]])) as RowObject<C>;
}
