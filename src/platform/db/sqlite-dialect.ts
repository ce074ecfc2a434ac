/**
 * Kysely over node:sqlite (no native addon: the Node that runs us is not the one npm builds against).
 * Kysely's SqliteDialect expects a better-sqlite3-like database; this adapts DatabaseSync to it and
 * caches prepared statements by SQL text, since Kysely would otherwise prepare every query anew.
 * Kysely serialises all queries on this single connection through its own mutex (SQLite has one writer).
 *
 * Hot queries may also skip Kysely and run synchronously on the connection (`synchronousSqlite`), but
 * only when that cannot interleave with anyone else's work: on the root Kysely instance while no
 * transaction is open (a synchronous unit of work finishes before any other JS runs), or on a
 * transaction registered by its owner because it holds the connection (the charges' group commit).
 */
import { DatabaseSync, type StatementSync, type SQLInputValue } from 'node:sqlite';
import { SqliteDialect, type Driver, type Kysely, type QueryResult, type SqliteDatabase, type SqliteStatement } from 'kysely';
import type { DB } from './schema.ts';

const MAX_CACHED_STATEMENTS = 500;

function toSqlite(value: unknown): SQLInputValue {
  if (value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  return value as SQLInputValue;
}

class CachedStatement implements SqliteStatement {
  readonly reader: boolean;
  readonly #stmt: StatementSync;
  constructor(stmt: StatementSync) {
    this.#stmt = stmt;
    this.reader = stmt.columns().length > 0;
  }
  all(parameters: ReadonlyArray<unknown>): unknown[] {
    return this.#stmt.all(...parameters.map(toSqlite));
  }
  run(parameters: ReadonlyArray<unknown>) {
    return this.#stmt.run(...parameters.map(toSqlite));
  }
  iterate(parameters: ReadonlyArray<unknown>): IterableIterator<unknown> {
    return this.#stmt.iterate(...parameters.map(toSqlite)) as IterableIterator<unknown>;
  }
  /** What Kysely's SQLite connection would return for this statement. */
  execute<R>(parameters: ReadonlyArray<unknown>): QueryResult<R> {
    if (this.reader) return { rows: this.all(parameters) as R[] };
    const { changes, lastInsertRowid } = this.run(parameters);
    return { rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) };
  }
}

export class NodeSqliteDatabase implements SqliteDatabase {
  readonly raw: DatabaseSync;
  #cache = new Map<string, CachedStatement>();
  constructor(file: string) {
    this.raw = new DatabaseSync(file);
    // WAL: readers never block the writer. synchronous=NORMAL: a commit survives a process crash;
    // an OS crash can lose the last few commits, never corrupt the file. busy_timeout: the CLI writes
    // from another process while the server runs. wal_autocheckpoint=250 (default 1000 pages): the
    // checkpoint runs inside a COMMIT, on the event loop; a quarter of the pages makes each stall about
    // 1.5 ms instead of 5 ms under a steady charge load, for about a fifth more checkpoint work in all.
    this.raw.exec(
      'PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000; PRAGMA wal_autocheckpoint = 250;',
    );
  }
  prepare(sql: string): CachedStatement {
    let stmt = this.#cache.get(sql);
    if (!stmt) {
      stmt = new CachedStatement(this.raw.prepare(sql));
      if (this.#cache.size >= MAX_CACHED_STATEMENTS) this.#cache.delete(this.#cache.keys().next().value!);
      this.#cache.set(sql, stmt);
    }
    return stmt;
  }
  close(): void {
    this.#cache.clear();
    if (this.raw.isOpen) this.raw.close();
  }
}

/**
 * Kysely's SQLite dialect, except that a transaction SQLite has already rolled back is not rolled back
 * again. Some failures end the transaction inside SQLite itself (SQLITE_FULL, SQLITE_IOERR, an
 * interrupted statement); Kysely's ROLLBACK would then fail with "no transaction is active", and that
 * error would replace the one that says what happened (a full disk is a 503, db/outage.ts).
 */
class NodeSqliteDialect extends SqliteDialect {
  readonly #connection: NodeSqliteDatabase;
  constructor(connection: NodeSqliteDatabase) {
    super({ database: async () => connection });
    this.#connection = connection;
  }
  override createDriver(): Driver {
    const driver = super.createDriver();
    const raw = this.#connection.raw;
    const rollback = driver.rollbackTransaction.bind(driver);
    driver.rollbackTransaction = async (c) => {
      if (raw.isTransaction) await rollback(c);
    };
    return driver;
  }
}

/** The dialect and its one connection, opened now (so synchronous access can be registered at once). */
export function nodeSqliteDialect(file: string): { dialect: SqliteDialect; connection: NodeSqliteDatabase } {
  const connection = new NodeSqliteDatabase(file);
  return { dialect: new NodeSqliteDialect(connection), connection };
}

const roots = new WeakMap<Kysely<DB>, NodeSqliteDatabase>();
const holders = new WeakMap<Kysely<DB>, NodeSqliteDatabase>();

/** Marks `db` as the root Kysely instance over `connection` (database.ts, once per open database). */
export function registerSqliteRoot(db: Kysely<DB>, connection: NodeSqliteDatabase): void {
  roots.set(db, connection);
}

/**
 * Marks a transaction as holding `connection` until `release` is called: queries on it may run
 * synchronously, since no other work can reach the connection meanwhile (db/group-commit.ts).
 */
export function registerSqliteHolder(trx: Kysely<DB>, connection: NodeSqliteDatabase): () => void {
  holders.set(trx, connection);
  return () => holders.delete(trx);
}

export function sqliteConnectionOf(executor: Kysely<DB>): NodeSqliteDatabase | undefined {
  return roots.get(executor) ?? holders.get(executor);
}

/** The connection when `executor` may run a statement synchronously right now, else undefined (go through Kysely). */
export function synchronousSqlite(executor: Kysely<DB>): NodeSqliteDatabase | undefined {
  const held = holders.get(executor);
  if (held) return held;
  const root = roots.get(executor);
  // An open transaction (someone's, awaiting between statements) would swallow our statement.
  return root && !root.raw.isTransaction ? root : undefined;
}
