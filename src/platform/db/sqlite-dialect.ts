/**
 * Kysely over node:sqlite (no native addon: the Node that runs us is not the one npm builds against).
 * Kysely's SqliteDialect expects a better-sqlite3-like database; this adapts DatabaseSync to it and
 * caches prepared statements by SQL text, since Kysely would otherwise prepare every query anew.
 * Kysely serialises all queries on this single connection through its own mutex (SQLite has one writer).
 */
import { DatabaseSync, type StatementSync, type SQLInputValue } from 'node:sqlite';
import { SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely';

const MAX_CACHED_STATEMENTS = 500;

function toSqlite(value: unknown): SQLInputValue {
  if (value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  return value as SQLInputValue;
}

class CachedStatement implements SqliteStatement {
  readonly reader: boolean;
  #stmt: StatementSync;
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
}

export class NodeSqliteDatabase implements SqliteDatabase {
  readonly raw: DatabaseSync;
  #cache = new Map<string, CachedStatement>();
  constructor(file: string) {
    this.raw = new DatabaseSync(file);
    // WAL: readers never block the writer. synchronous=NORMAL: a commit survives a process crash;
    // an OS crash can lose the last few commits, never corrupt the file. busy_timeout: the CLI writes
    // from another process while the server runs.
    this.raw.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;');
  }
  prepare(sql: string): SqliteStatement {
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

export function nodeSqliteDialect(file: string): SqliteDialect {
  return new SqliteDialect({ database: async () => new NodeSqliteDatabase(file) });
}
