/**
 * The request path's charges of one group commit, written all at once on SQLite (db/group-commit.ts
 * `Batchable`): each account's balance read once inside the batch's transaction, every charge decided
 * in order against it (a charge the balance no longer covers is refused, 403 INSUFFICIENT_CREDITS,
 * and writes nothing), then one multi-row INSERT per table and one UPDATE per account. The same rows
 * and the same rules as Ledger.chargeIn, one charge at a time, which is what runs instead if this throws
 * (a second charge of one operation hits UNIQUE(account_id, operation_id) and fails alone there).
 *
 * The batch's transaction holds SQLite's write lock from its first write to its COMMIT, and the
 * balances are read inside it: had another process committed since the read, the first write fails
 * with SQLITE_BUSY_SNAPSHOT and the whole batch is refused uncharged, never written from a stale read.
 * The CHECK (balance_centavos >= 0) still stands behind the arithmetic.
 *
 * On PostgreSQL, `postgresChargeBatch` (below) writes the charges of one tick in one statement.
 */
import { countDebit } from '../observability/telemetry.ts';
import type { Clock } from '../clock.ts';
import { iso } from '../clock.ts';
import type { NodeSqliteDatabase } from '../db/sqlite-dialect.ts';
import { ApiError } from '../errors.ts';
import { newId } from '../ids.ts';
import type { Batchable, Settled, Work } from '../db/group-commit.ts';
import { powerOfTwoChunks } from '../db/batch-shapes.ts';
import { chargeTotal, type Charge, type ChargeReceipt } from './charge.ts';
import { debitRow, LEDGER_COLUMNS, SEARCH_LOG_COLUMNS, searchLogRow } from './ledger-rows.ts';
import { CompiledQuery, type Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { AsyncBatchable } from '../db/tick-batches.ts';
import { prepareOnServer } from '../db/pg-named.ts';

type Value = string | number | null;

// Re-exported for the batches of other engines, which write the same rows.
export { LEDGER_COLUMNS, SEARCH_LOG_COLUMNS } from './ledger-rows.ts';

/** Rows per INSERT at most; a batch is split into powers of two, so few statements are ever prepared. */
const MAX_ROWS_PER_INSERT = 64;

export function sqliteChargeBatch(
  connection: NodeSqliteDatabase,
  clock: Clock,
  one: (charge: Charge) => Work<ChargeReceipt>,
): Batchable<Charge, ChargeReceipt> {
  const texts = new Map<string, string>();
  /** `insert into table (…) values (…), …` for n rows, its text made once (it keys the statement cache). */
  const insertText = (table: string, columns: readonly string[], n: number) => {
    const key = `${table} ${n}`;
    let text = texts.get(key);
    if (!text) {
      const tuple = `(${columns.map(() => '?').join(', ')})`;
      text = `insert into "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) values ${Array(n).fill(tuple).join(', ')}`;
      texts.set(key, text);
    }
    return text;
  };
  const insert = (table: string, columns: readonly string[], rows: Value[][]) => {
    for (const chunk of powerOfTwoChunks(rows, MAX_ROWS_PER_INSERT)) connection.prepare(insertText(table, columns, chunk.length)).execute(chunk.flat());
  };
  const balanceOf = (accountId: string) =>
    connection
      .prepare('select "balance_centavos", "ledger_seq" from "accounts" where "id" = ?')
      .execute<{ balance_centavos: number; ledger_seq: number }>([accountId]).rows[0];

  return {
    one,
    all(charges) {
      const now = iso(clock.now());
      /** Per account: the balance read, and what the batch leaves (its balance and its last ledger row's number). */
      const balances = new Map<string, { read: number | undefined; left: number; seq: number }>();
      const logs: Value[][] = [];
      const rows: Value[][] = [];
      const settled: Array<Settled<ChargeReceipt>> = charges.map((c) => {
        let b = balances.get(c.accountId);
        if (!b) {
          const read = balanceOf(c.accountId);
          b = { read: read?.balance_centavos, left: read?.balance_centavos ?? 0, seq: read?.ledger_seq ?? 0 };
          balances.set(c.accountId, b);
        }
        const centavos = chargeTotal(c);
        if (b.read === undefined || b.left < centavos) {
          return { ok: false, error: new ApiError('INSUFFICIENT_CREDITS', undefined, { priceCentavos: centavos }) };
        }
        const searchLogId = newId('sl');
        logs.push(searchLogRow(searchLogId, c, centavos, now));
        for (const d of c.debits) {
          if (d.centavos <= 0) continue;
          b.left -= d.centavos;
          b.seq += 1;
          rows.push(debitRow(newId('led'), c, d.operationId, -d.centavos, { after: b.left, seq: b.seq }, searchLogId, now));
          countDebit(c.queryType, d.centavos);
        }
        return { ok: true, value: { searchLogId, centavos, remaining: b.left } };
      });
      insert('search_logs', SEARCH_LOG_COLUMNS, logs);
      insert('ledger', LEDGER_COLUMNS, rows);
      const update = connection.prepare('update "accounts" set "balance_centavos" = ?, "ledger_seq" = ?, "updated_at" = ? where "id" = ?');
      for (const [accountId, b] of balances) if (b.read !== undefined && b.left !== b.read) update.execute([b.left, b.seq, now, accountId]);
      return settled;
    },
  };
}

const quoted = (columns: readonly string[]) => columns.map((c) => `"${c}"`).join(', ');
/** The window of the charges of the same account queued after this one. */
const LATER = 'over (partition by c.account_id order by c.i desc rows between unbounded preceding and 1 preceding)';

/**
 * PostgreSQL: every charge of a batch in ONE statement, so one round trip and one implicit transaction
 * (its COMMIT) for all of them. $1..$10 hold one array element per charge, $11 the time:
 * - `c`: the charges, numbered in queue order; `t`: each account's total and its number of debit rows;
 * - `locked`: the accounts locked in id order, so two batches sharing accounts wait for each other
 *   instead of deadlocking;
 * - `u`: one conditional UPDATE per account, `balance >= its total` (the CHECK stands behind it), which
 *   also advances its ledger count by its rows; under READ COMMITTED a row another transaction changed
 *   meanwhile is re-read and the condition re-checked;
 * - `ok`: the charges of the accounts updated, each with its balance after (the new balance plus the
 *   charges queued after it) and its row's number (the new count minus the debit rows queued after it);
 *   the search logs and the debit rows (price > 0) are inserted from it.
 * An account whose balance does not cover its total is not touched: its charges are left undecided
 * and run one at a time (tick-batches.ts), which refuses exactly those the balance cannot cover.
 */
const PG_BATCH_SQL = `with c as materialized (
  select * from unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int[], $9::text[], $10::text[])
    with ordinality as c(account_id, centavos, operation_id, query_type, request_id, method, path, status_code, search_log_id, ledger_id, i)
),
t as (select account_id, sum(centavos)::bigint as total, count(*) filter (where centavos > 0) as n from c group by account_id),
locked as materialized (select a.id from accounts a join t on t.account_id = a.id order by a.id for update of a),
u as (
  update accounts a set balance_centavos = a.balance_centavos - t.total, ledger_seq = a.ledger_seq + t.n, updated_at = $11
  from t join locked on locked.id = t.account_id
  where a.id = t.account_id and a.balance_centavos >= t.total
  returning a.id, a.balance_centavos, a.ledger_seq
),
ok as (
  select c.*, (u.balance_centavos + coalesce(sum(c.centavos) ${LATER}, 0))::bigint as after,
    (u.ledger_seq - count(*) filter (where c.centavos > 0) ${LATER})::bigint as seq
  from c join u on u.id = c.account_id
),
logs as (
  insert into search_logs (${quoted(SEARCH_LOG_COLUMNS)})
  select search_log_id, account_id, request_id, query_type, method, path, status_code, centavos, $11 from ok
),
rows as (
  insert into ledger (${quoted(LEDGER_COLUMNS)})
  select ledger_id, account_id, 'debit', -centavos, after, operation_id, query_type, search_log_id, null, $11, seq from ok where centavos > 0
)
select i::int as i, after from ok`;

prepareOnServer(PG_BATCH_SQL);

/** One charge of PG_BATCH_SQL: one debit of `centavos` (0 writes the search log alone) and the request it answers. */
export interface PgBatchedCharge {
  accountId: string;
  centavos: number;
  operationId: string;
  queryType: string;
  requestId: string;
  method: string;
  path: string;
  statusCode: number;
  searchLogId: string;
  ledgerId: string;
}

/**
 * The statement that writes `charges` at `now`; it returns `{ i, after }` for each charge written (`i`
 * its 1-based position, `after` the balance after it). The PostgreSQL bench floor writes its own
 * statement on its own tables (bench/servers/floor-pg.ts, issue 54), so a change here shows in its ratio.
 */
export function pgChargeBatchQuery(charges: readonly PgBatchedCharge[], now: string): CompiledQuery<{ i: number; after: number }> {
  const column = <K extends keyof PgBatchedCharge>(k: K) => charges.map((c) => c[k]);
  return CompiledQuery.raw(PG_BATCH_SQL, [
    column('accountId'),
    column('centavos'),
    column('operationId'),
    column('queryType'),
    column('requestId'),
    column('method'),
    column('path'),
    column('statusCode'),
    column('searchLogId'),
    column('ledgerId'),
    now,
  ]) as CompiledQuery<{ i: number; after: number }>;
}

/**
 * The request path's charges of one tick on PostgreSQL (db/tick-batches.ts), written by PG_BATCH_SQL:
 * the same rows and rules as Ledger.chargeIn, which is what runs for a charge the batch leaves
 * undecided, or for all of them if the statement fails (a second charge of one operation hits
 * UNIQUE(account_id, operation_id) and fails alone there).
 */
export function postgresChargeBatch(db: Kysely<DB>, clock: Clock, one: (charge: Charge) => Work<ChargeReceipt>): AsyncBatchable<Charge, ChargeReceipt> {
  return {
    one,
    async all(charges) {
      const settled: Array<Settled<ChargeReceipt> | undefined> = charges.map(() => undefined);
      // The statement writes one debit per charge (the request path's shape); any other charge runs alone.
      const batched = charges.flatMap((c, at) => (c.debits.length === 1 ? [{ c, at, debit: c.debits[0]! }] : []));
      if (batched.length === 0) return settled;
      const logIds = batched.map(() => newId('sl'));
      const { rows } = await db.executeQuery(
        pgChargeBatchQuery(
          batched.map(({ c, debit }, k) => ({
            accountId: c.accountId,
            centavos: debit.centavos,
            operationId: debit.operationId,
            queryType: c.queryType,
            requestId: c.origin.requestId,
            method: c.origin.method,
            path: c.origin.path,
            statusCode: c.origin.statusCode,
            searchLogId: logIds[k]!,
            ledgerId: newId('led'),
          })),
          iso(clock.now()),
        ),
      );
      for (const { i, after } of rows) {
        const { c, at, debit } = batched[i - 1]!;
        if (debit.centavos > 0) countDebit(c.queryType, debit.centavos);
        settled[at] = { ok: true, value: { searchLogId: logIds[i - 1]!, centavos: debit.centavos, remaining: Number(after) } };
      }
      return settled;
    },
  };
}
