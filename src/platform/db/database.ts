/**
 * Opens the storage engine the configuration asks for: PostgreSQL when DATABASE_URL is set, otherwise
 * the embedded SQLite file under TRAMITA_DATA_DIR. Both run the same migrations and the same queries.
 */
import path from 'node:path';
import { Kysely, sql } from 'kysely';
import { Migrator, type MigrationProvider } from 'kysely/migration';
import type pg from 'pg';
import { StatementNaming } from './pg-named.ts';
import type { Config } from '../../config.ts';
import type { DB } from './schema.ts';
import { nodeSqliteDialect, registerSqliteRoot } from './sqlite-dialect.ts';
import { migrations } from './migrations/index.ts';
import { GuardedPostgresDialect } from './guarded-driver.ts';
import { noteStorageFailure, reasonOf, type StorageLog } from './outage.ts';
import { createPrivateFile, ensurePrivateDir, secureSqliteFiles } from './file-modes.ts';
import type { Engine } from './engine.ts';

export type { Engine } from './engine.ts';

export interface Database {
  db: Kysely<DB>;
  engine: Engine;
  /** Where the data lives, for logs: a file path or the PostgreSQL URL without its password. */
  location: string;
  /** SQLite: the store's files back to owner-only modes (db/file-modes.ts); migrate calls it when done. */
  secureFiles?(): void;
  close(): Promise<void>;
}

/** The embedded store's file name inside TRAMITA_DATA_DIR. */
export const SQLITE_FILE_NAME = 'tramita.db';

export function sqliteFile(config: Pick<Config, 'dataDir'>): string {
  return path.join(config.dataDir, SQLITE_FILE_NAME);
}

/** Where a database reports what goes wrong outside any query (a pooled connection lost while idle). */
export type { StorageLog } from './outage.ts';

export async function openDatabase(
  config: Pick<Config, 'dataDir' | 'databaseUrl'> & Partial<Pick<Config, 'dbConnectTimeoutMs' | 'pgPreparedStatements'>>,
  log?: StorageLog,
): Promise<Database> {
  if (config.databaseUrl) {
    // Loaded here, not at start: a SQLite deployment never holds the driver in memory.
    const { Pool, types } = (await import('pg')).default;
    const pool = new Pool({
      connectionString: config.databaseUrl,
      max: 10,
      // A request waits this long for a connection, then answers 503 STORAGE_UNAVAILABLE (db/outage.ts).
      connectionTimeoutMillis: config.dbConnectTimeoutMs ?? 5_000,
      // A dead server behind a quiet connection is found by the kernel's probes, not at the next query.
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      // bigint columns (centavos) come back as numbers: every amount is far below 2^53.
      types: { getTypeParser: (oid: number, format?: 'text' | 'binary') => (oid === 20 ? Number : types.getTypeParser(oid, format)) } as pg.CustomTypesConfig,
    });
    // An idle pooled connection the server closed (a restart, a failover: 57P01) is emitted here; without
    // a listener Node ends the process. The pool has already dropped it and opens new ones on demand.
    pool.on('error', (err) => {
      noteStorageFailure('postgres', 'idle_connection');
      log?.warn({ err: { message: reasonOf(err) } }, 'PostgreSQL closed an idle connection; the pool reconnects on demand');
    });
    const naming = config.pgPreparedStatements === false ? undefined : new StatementNaming(log);
    // A connection lost while checked out but between queries (inside a transaction) emits 'error' on
    // its client, which nobody else listens to: the next query on it fails and says so, and the pool
    // drops it on release (it is no longer queryable).
    pool.on('connect', (client) => {
      client.on('error', () => {});
      naming?.apply(client);
    });
    const db = new Kysely<DB>({ dialect: new GuardedPostgresDialect({ pool }) });
    const url = new URL(config.databaseUrl);
    url.password = url.password ? '***' : '';
    return { db, engine: 'postgres', location: url.toString(), close: () => db.destroy() };
  }
  // Owner-only from the first byte (db/file-modes.ts): the directory 0700, the file created 0600 before
  // SQLite opens it, and a store found looser tightened with a warn line.
  ensurePrivateDir(config.dataDir, log);
  const file = sqliteFile(config);
  createPrivateFile(file);
  secureSqliteFiles(file, log);
  const { dialect, connection } = nodeSqliteDialect(file);
  const db = new Kysely<DB>({ dialect });
  registerSqliteRoot(db, connection);
  // Kysely closes the connection only if it ever used it; the connection is open from the start.
  return {
    db,
    engine: 'sqlite',
    location: file,
    secureFiles: () => secureSqliteFiles(file, log),
    close: async () => {
      await db.destroy();
      connection.close();
    },
  };
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Told before and after each migration of an existing database: some rewrite tables that grow with the store. */
export interface MigrationSteps {
  starting(name: string): void;
  applied(name: string, ms: number): void;
}

/**
 * Applies pending migrations one at a time; returns the names applied. Throws with the failing
 * migration's name. Another process migrating at the same time is fine: each step takes the
 * migrator's lock and applies what is still pending. `steps` hears of each migration only when the
 * database already had some applied: creating a new one is quick and needs no play-by-play.
 */
export async function migrate(database: Database, steps?: MigrationSteps): Promise<string[]> {
  const migrator = new Migrator({ db: database.db, provider });
  const applied: string[] = [];
  // No migration ran yet if this throws: the database itself failed (unreachable, refused); its error says why.
  const told = (await migrator.getMigrations()).some((m) => m.executedAt) ? steps : undefined;
  for (;;) {
    const next = (await migrator.getMigrations()).find((m) => !m.executedAt);
    if (!next) {
      // Nothing pending; Kysely's own checks still refuse a database that ran migrations this code
      // lacks (an older version started on a newer schema).
      const { error } = await migrator.migrateToLatest();
      if (error) throw error;
      // Migrations write the WAL and may rebuild tables: their files are checked again.
      database.secureFiles?.();
      return applied;
    }
    told?.starting(next.name);
    const started = performance.now();
    const { error, results } = await migrator.migrateUp();
    if (error) {
      const failed = results?.find((r) => r.status === 'Error')?.migrationName;
      if (!failed) throw error;
      throw new Error(`migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    for (const r of results ?? []) {
      if (r.status !== 'Success') continue;
      applied.push(r.migrationName);
      told?.applied(r.migrationName, Math.round(performance.now() - started));
    }
  }
}

/** Migration steps as log lines, for the processes that start on a database. */
export function loggedMigrationSteps(log: { info(fields: object, msg: string): void }): MigrationSteps {
  return {
    starting: (name) => log.info({ migration: name }, 'applying migration'),
    applied: (name, ms) => log.info({ migration: name, ms }, 'migration applied'),
  };
}

/** Migrations this code has that the database has not applied (a process started before a `tramita migrate`, or a newer one). */
export async function pendingMigrations(database: Database): Promise<string[]> {
  const all = await new Migrator({ db: database.db, provider }).getMigrations();
  return all.filter((m) => !m.executedAt).map((m) => m.name);
}

export async function ping(database: Database): Promise<void> {
  await sql`select 1`.execute(database.db);
}
