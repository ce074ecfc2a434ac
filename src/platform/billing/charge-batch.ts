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
 */
import { countDebit } from '../observability/telemetry.ts';
import type { Clock } from '../clock.ts';
import { iso } from '../clock.ts';
import type { NodeSqliteDatabase } from '../db/sqlite-dialect.ts';
import { ApiError } from '../errors.ts';
import { newId } from '../ids.ts';
import type { Batchable, Settled, Work } from '../db/group-commit.ts';

/** What the operation runner charges for one answered request. */
export interface Charge {
  accountId: string;
  centavos: number;
  /** The ledger's operation id (unique per account). */
  operationId: string;
  queryType: string;
  requestId: string;
  method: string;
  path: string;
  statusCode: number;
}

export interface Charged {
  searchLogId: string;
  /** The balance after this charge, in centavos. */
  remaining: number;
}

type Value = string | number | null;

const SEARCH_LOG_COLUMNS = ['id', 'account_id', 'request_id', 'query_type', 'method', 'path', 'status_code', 'charged_centavos', 'created_at'];
const LEDGER_COLUMNS = ['id', 'account_id', 'kind', 'delta_centavos', 'balance_after_centavos', 'operation_id', 'query_type', 'search_log_id', 'note', 'created_at'];
/** Rows per INSERT at most; a batch is split into powers of two, so few statements are ever prepared. */
const MAX_ROWS_PER_INSERT = 64;

export function sqliteChargeBatch(connection: NodeSqliteDatabase, clock: Clock, one: (charge: Charge) => Work<Charged>): Batchable<Charge, Charged> {
  const texts = new Map<string, string>();
  /** `insert into table (…) values (…), …` for n rows, its text made once (it keys the statement cache). */
  const insertText = (table: string, columns: string[], n: number) => {
    const key = `${table} ${n}`;
    let text = texts.get(key);
    if (!text) {
      const tuple = `(${columns.map(() => '?').join(', ')})`;
      text = `insert into "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) values ${Array(n).fill(tuple).join(', ')}`;
      texts.set(key, text);
    }
    return text;
  };
  const insert = (table: string, columns: string[], rows: Value[][]) => {
    for (let at = 0; at < rows.length;) {
      let n = MAX_ROWS_PER_INSERT;
      while (n > rows.length - at) n >>= 1;
      connection.prepare(insertText(table, columns, n)).execute(rows.slice(at, at + n).flat());
      at += n;
    }
  };
  const balanceOf = (accountId: string) =>
    (connection.prepare('select "balance_centavos" from "accounts" where "id" = ?').execute<{ balance_centavos: number }>([accountId]).rows[0]?.balance_centavos);

  return {
    one,
    all(charges) {
      const now = iso(clock.now());
      const balances = new Map<string, { read: number | undefined; left: number }>();
      const logs: Value[][] = [];
      const rows: Value[][] = [];
      const settled: Array<Settled<Charged>> = charges.map((c) => {
        let b = balances.get(c.accountId);
        if (!b) {
          const read = balanceOf(c.accountId);
          b = { read, left: read ?? 0 };
          balances.set(c.accountId, b);
        }
        if (b.read === undefined || b.left < c.centavos) {
          return { ok: false, error: new ApiError('INSUFFICIENT_CREDITS', undefined, { priceCentavos: c.centavos }) };
        }
        b.left -= c.centavos;
        const searchLogId = newId('sl');
        logs.push([searchLogId, c.accountId, c.requestId, c.queryType, c.method, c.path, c.statusCode, c.centavos, now]);
        if (c.centavos > 0) {
          rows.push([newId('led'), c.accountId, 'debit', -c.centavos, b.left, c.operationId, c.queryType, searchLogId, null, now]);
          countDebit(c.queryType, c.centavos);
        }
        return { ok: true, value: { searchLogId, remaining: b.left } };
      });
      insert('search_logs', SEARCH_LOG_COLUMNS, logs);
      insert('ledger', LEDGER_COLUMNS, rows);
      const update = connection.prepare('update "accounts" set "balance_centavos" = ?, "updated_at" = ? where "id" = ?');
      for (const [accountId, b] of balances) if (b.read !== undefined && b.left !== b.read) update.execute([b.left, now, accountId]);
      return settled;
    },
  };
}
