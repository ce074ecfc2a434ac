/**
 * Credits and the ledger (spec §1.2, §8). Invariants:
 * - the balance never goes negative: the debit is a conditional UPDATE, and a CHECK backs it up;
 * - every debit has exactly one ledger row, written in the caller's transaction, next to the result it
 *   pays for; UNIQUE(account_id, operation_id) makes a second charge of one operation impossible;
 * - money is integer centavos.
 * The request path's charges run through `charge` (or `transact` with `chargeIn`, when more must commit
 * with them): on SQLite they share a commit (db/group-commit.ts), written in bulk (charge-batch.ts); on
 * PostgreSQL the charges of one tick are written by one statement (db/tick-batches.ts, charge-batch.ts).
 */
import { countDebit } from '../observability/telemetry.ts';
import { sql, type Kysely, type Transaction } from 'kysely';
import { iso, type Clock } from '../clock.ts';
import type { DB, LedgerTable } from '../db/schema.ts';
import { engineOf } from '../db/engine.ts';
import { ApiError } from '../errors.ts';
import { newId } from '../ids.ts';
import { prepared } from '../db/prepared.ts';
import { sqliteConnectionOf } from '../db/sqlite-dialect.ts';
import { postgresChargeBatch, sqliteChargeBatch } from './charge-batch.ts';
import { chargeTotal, type Charge, type ChargeReceipt, type DebitLine } from './charge.ts';
import { debitRow, LEDGER_COLUMNS, rowObject, SEARCH_LOG_COLUMNS, searchLogRow } from './ledger-rows.ts';
import { GroupCommit, transactorFor, type Batchable, type Transactor, type Work } from '../db/group-commit.ts';
import { TickBatches } from '../db/tick-batches.ts';

// Renewals import these from here (platform/monitoring/renewal.ts, radars/cycle.ts).
export type { DebitLine } from './charge.ts';
export { jobOrigin } from './charge.ts';

/** The charge of one operation. Its statements run on every charged request: compiled once. */
export class Ledger {
  readonly #clock: Clock;
  readonly #transactor: Transactor;
  /** SQLite: the charges of one group commit, written at once. */
  readonly #chargeBatch: Batchable<Charge, ChargeReceipt> | undefined;
  /** PostgreSQL: the charges of one tick, written at once by one statement. */
  readonly #pgCharges: TickBatches<Charge, ChargeReceipt> | undefined;
  readonly #engine;
  readonly #takeBalance;
  readonly #insertRow;
  readonly #debitInOneStatement;
  readonly #insertSearchLog;
  readonly #balance;
  /** The last timestamp made, by millisecond: the charges of one batch mostly share it. */
  #stamp = { ms: Number.NaN, iso: '' };

  constructor(db: Kysely<DB>, clock: Clock) {
    this.#clock = clock;
    this.#engine = engineOf(db);
    this.#transactor = transactorFor(db);
    const connection = sqliteConnectionOf(db);
    const one =
      (c: Charge): Work<ChargeReceipt> =>
      (trx) =>
        this.chargeIn(trx, c);
    this.#chargeBatch = connection && this.#transactor instanceof GroupCommit ? sqliteChargeBatch(connection, clock, one) : undefined;
    this.#pgCharges = this.#engine === 'postgres' ? new TickBatches(db, postgresChargeBatch(db, clock, one)) : undefined;
    // The rows of ledger-rows.ts, with a placeholder for each value a charge gives.
    const charge = (p: Record<string, unknown>) =>
      ({ accountId: p.accountId, queryType: p.queryType, origin: { requestId: p.requestId, method: p.method, path: p.path, statusCode: p.status } }) as Omit<
        Charge,
        'debits'
      >;
    // biome-ignore lint/suspicious/noExplicitAny: prepared()'s placeholders, each standing in for a value of its column's type
    const debit = (p: Record<string, any>) => debitRow(p.id, charge(p), p.operationId, p.delta, { after: p.after, seq: p.seq }, p.searchLogId, p.now);
    this.#takeBalance = prepared(['centavos', 'now', 'accountId'], (p) => takeBalance(db, p.centavos, p.now, p.accountId));
    this.#insertRow = prepared(['id', 'accountId', 'delta', 'after', 'seq', 'operationId', 'queryType', 'searchLogId', 'now'], (p) =>
      db.insertInto('ledger').values(rowObject(LEDGER_COLUMNS, debit(p))),
    );
    // PostgreSQL: the account row stays locked from this statement to the COMMIT only, not across the
    // round trips of a separate ledger INSERT (all charges of one account queue on that lock). The
    // balance after and the row's number come from the UPDATE; a bare parameter in a SELECT list is
    // text to PostgreSQL, so the delta is cast.
    this.#debitInOneStatement = prepared(['centavos', 'delta', 'now', 'accountId', 'id', 'operationId', 'queryType', 'searchLogId'], (p) => {
      const row = debit({ ...p, after: null, seq: null });
      return db
        .with('d', () => takeBalance(db, p.centavos, p.now, p.accountId))
        .insertInto('ledger')
        .columns(LEDGER_COLUMNS)
        .expression((eb) =>
          eb.selectFrom('d').select(
            LEDGER_COLUMNS.map((column, i) => {
              if (column === 'balance_after_centavos') return sql<number>`d.balance_centavos`.as(column);
              if (column === 'seq') return sql<number>`d.ledger_seq`.as(column);
              if (column === 'delta_centavos') return sql<number>`cast(${row[i]} as bigint)`.as(column);
              return sql`${row[i]}`.as(column);
            }),
          ),
        )
        .returning('balance_after_centavos');
    });
    this.#balance = prepared(['accountId'], (p) => db.selectFrom('accounts').select('balance_centavos').where('id', '=', p.accountId));
    this.#insertSearchLog = prepared(['id', 'accountId', 'requestId', 'queryType', 'method', 'path', 'status', 'charged', 'now'], (p) =>
      db.insertInto('search_logs').values(rowObject(SEARCH_LOG_COLUMNS, searchLogRow(p.id, charge(p), p.charged, p.now))),
    );
  }

  /**
   * Runs a charge's writes (search log, debit, and whatever must commit with them) atomically. On
   * SQLite the charges of one event-loop turn share a transaction, each in its own savepoint: `work`
   * must use only `trx` and wait on nothing but its statements.
   */
  transact<T>(work: Work<T>): Promise<T> {
    return this.#transactor.run(work);
  }

  /**
   * Charges one answered request on its own: the search log, the conditional debit and its ledger row
   * (at price 0, the search log and the balance), committed before this resolves; 403
   * INSUFFICIENT_CREDITS, writing nothing, when the balance does not cover it.
   */
  charge(c: Charge): Promise<ChargeReceipt> {
    if (this.#chargeBatch) return (this.#transactor as GroupCommit).runBatched(this.#chargeBatch, c);
    if (this.#pgCharges) return this.#pgCharges.run(c);
    return this.transact((trx) => this.chargeIn(trx, c));
  }

  /**
   * THE charge recipe: every debit, in a request or in a background job, is written here, inside the
   * caller's transaction, next to what it pays for: one search log with the total, then each debit
   * (a conditional UPDATE of the balance and its ledger row). 403 INSUFFICIENT_CREDITS when the balance
   * does not cover a debit: the caller's transaction, and so everything it wrote, rolls back.
   */
  async chargeIn(trx: Transaction<DB>, c: Charge): Promise<ChargeReceipt> {
    const searchLogId = newId('sl');
    const centavos = chargeTotal(c);
    await this.#recordSearch(trx, searchLogId, c, centavos);
    let remaining: number | undefined;
    for (const d of c.debits) {
      if (d.centavos > 0) {
        remaining = await this.#debit(trx, c, d, searchLogId);
        // Counted when written: a transaction that then rolls back (rare) was counted too. The ledger is the account of record.
        countDebit(c.queryType, d.centavos);
      }
    }
    remaining ??= (await this.#balanceIn(trx, c.accountId)) ?? 0;
    return { searchLogId, centavos, remaining };
  }

  async #debit(trx: Transaction<DB>, c: Charge, d: DebitLine, searchLogId: string): Promise<number> {
    const now = this.#now();
    if (this.#engine === 'postgres') {
      const values = {
        centavos: d.centavos,
        delta: -d.centavos,
        now,
        accountId: c.accountId,
        id: newId('led'),
        operationId: d.operationId,
        queryType: c.queryType,
        searchLogId,
      };
      const row = (await this.#debitInOneStatement(trx, values)).rows[0];
      if (!row) throw new ApiError('INSUFFICIENT_CREDITS', undefined, { priceCentavos: d.centavos });
      return row.balance_after_centavos;
    }
    const row = (await this.#takeBalance(trx, { centavos: d.centavos, now, accountId: c.accountId })).rows[0];
    if (!row) throw new ApiError('INSUFFICIENT_CREDITS', undefined, { priceCentavos: d.centavos });
    await this.#insertRow(trx, {
      id: newId('led'),
      accountId: c.accountId,
      delta: -d.centavos,
      after: row.balance_centavos,
      seq: row.ledger_seq,
      operationId: d.operationId,
      queryType: c.queryType,
      searchLogId,
      now,
    });
    return row.balance_centavos;
  }

  /** The balance as `trx` sees it (a charge at price 0 still reports it). */
  async #balanceIn(trx: Transaction<DB>, accountId: string): Promise<number | undefined> {
    return (await this.#balance(trx, { accountId })).rows[0]?.balance_centavos;
  }

  /** The record of a charged answer or job (`meta.searchLogId`), written with its charge. */
  async #recordSearch(trx: Transaction<DB>, id: string, c: Charge, centavos: number): Promise<void> {
    const { requestId, method, path, statusCode } = c.origin;
    await this.#insertSearchLog(trx, {
      id,
      accountId: c.accountId,
      requestId,
      queryType: c.queryType,
      method,
      path,
      status: statusCode,
      charged: centavos,
      now: this.#now(),
    });
  }

  /** iso(clock.now()), formatted once per millisecond. */
  #now(): string {
    const d = this.#clock.now();
    const ms = d.getTime();
    if (ms !== this.#stamp.ms) this.#stamp = { ms, iso: iso(d) };
    return this.#stamp.iso;
  }
}

/** Adds credits (operator top-up); one ledger row. Returns the new balance, or undefined for no such account. */
export async function credit(db: Kysely<DB>, clock: Clock, accountId: string, centavos: number, note: string | null): Promise<number | undefined> {
  if (!Number.isInteger(centavos) || centavos <= 0) throw new RangeError('a credit is a positive whole number of centavos');
  return db.transaction().execute(async (trx) => {
    const now = iso(clock.now());
    const row = await trx
      .updateTable('accounts')
      .set((eb) => ({ balance_centavos: eb('balance_centavos', '+', centavos), ledger_seq: eb('ledger_seq', '+', 1), updated_at: now }))
      .where('id', '=', accountId)
      .returning(['balance_centavos', LEDGER_SEQ])
      .executeTakeFirst();
    if (!row) return undefined;
    await trx
      .insertInto('ledger')
      .values({
        id: newId('led'),
        account_id: accountId,
        kind: 'credit',
        delta_centavos: centavos,
        balance_after_centavos: row.balance_centavos,
        operation_id: null,
        query_type: null,
        search_log_id: null,
        note,
        created_at: now,
        seq: row.ledger_seq,
      })
      .execute();
    return row.balance_centavos;
  });
}

export async function balanceOf(db: Kysely<DB>, accountId: string): Promise<number | undefined> {
  const row = await db.selectFrom('accounts').select('balance_centavos').where('id', '=', accountId).executeTakeFirst();
  return row?.balance_centavos;
}

/** What a statement may be narrowed to (the console's filters): a kind, a query type, instants (ISO; `until` excluded). */
export interface StatementFilter {
  kind?: 'debit' | 'credit';
  queryType?: string;
  since?: string;
  until?: string;
}

/**
 * One page of the statement, newest first in the order the balance changed (ledger.seq, taken under the
 * balance's row lock: each row's balance after is the next older one's plus its delta); `before` is the
 * seq of the last row seen. Read along the ledger's primary key (account_id, seq) (migration 0029); the
 * filters, times included, narrow the account's rows on the way and need no index of their own.
 */
export async function statement(db: Kysely<DB>, accountId: string, limit: number, before?: number, filter: StatementFilter = {}): Promise<LedgerTable[]> {
  let q = db.selectFrom('ledger').selectAll().where('account_id', '=', accountId);
  if (filter.kind) q = q.where('kind', '=', filter.kind);
  if (filter.queryType) q = q.where('query_type', '=', filter.queryType);
  if (filter.since) q = q.where('created_at', '>=', filter.since);
  if (filter.until) q = q.where('created_at', '<', filter.until);
  if (before !== undefined) q = q.where('seq', '<', before);
  return q.orderBy('seq', 'desc').limit(limit).execute();
}

/**
 * The debit of a balance, when it covers `centavos`: the balance and the account's ledger count move in
 * one UPDATE, under the row's lock, which returns both (the row's balance after and its number).
 */
function takeBalance(db: Kysely<DB>, centavos: number, now: string, accountId: string) {
  return db
    .updateTable('accounts')
    .set((eb) => ({ balance_centavos: eb('balance_centavos', '-', centavos), ledger_seq: eb('ledger_seq', '+', 1), updated_at: now }))
    .where('id', '=', accountId)
    .where('balance_centavos', '>=', centavos)
    .returning(['balance_centavos', LEDGER_SEQ]);
}

/** `accounts.ledger_seq` as an UPDATE returns it: always there (the column is optional in schema.ts for the account code only). */
const LEDGER_SEQ = sql<number>`ledger_seq`.as('ledger_seq');
