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
import { chargeTotal, type Charge, type ChargeReceipt } from './charge.ts';
import { debitRow, LEDGER_COLUMNS, SEARCH_LOG_COLUMNS, searchLogRow } from './ledger-rows.ts';

type Value = string | number | null;

// Re-exported for the batches of other engines, which write the same rows.
export { LEDGER_COLUMNS, SEARCH_LOG_COLUMNS } from './ledger-rows.ts';

/** Rows per INSERT at most; a batch is split into powers of two, so few statements are ever prepared. */
const MAX_ROWS_PER_INSERT = 64;

export function sqliteChargeBatch(connection: NodeSqliteDatabase, clock: Clock, one: (charge: Charge) => Work<ChargeReceipt>): Batchable<Charge, ChargeReceipt> {
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
      const settled: Array<Settled<ChargeReceipt>> = charges.map((c) => {
        let b = balances.get(c.accountId);
        if (!b) {
          const read = balanceOf(c.accountId);
          b = { read, left: read ?? 0 };
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
          rows.push(debitRow(newId('led'), c, d.operationId, -d.centavos, b.left, searchLogId, now));
          countDebit(c.queryType, d.centavos);
        }
        return { ok: true, value: { searchLogId, centavos, remaining: b.left } };
      });
      insert('search_logs', SEARCH_LOG_COLUMNS, logs);
      insert('ledger', LEDGER_COLUMNS, rows);
      const update = connection.prepare('update "accounts" set "balance_centavos" = ?, "updated_at" = ? where "id" = ?');
      for (const [accountId, b] of balances) if (b.read !== undefined && b.left !== b.read) update.execute([b.left, now, accountId]);
      return settled;
    },
  };
}
