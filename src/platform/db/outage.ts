/**
 * Telling a storage outage from a bug (issue 29): PostgreSQL restarting, failing over or unreachable,
 * SQLite busy, full or failing I/O. Such a failure is nobody's mistake and passes by itself: a request
 * that meets it answers `503 STORAGE_UNAVAILABLE` (never a 500), a background loop logs it, counts it
 * and tries again later, and the process never exits because of it. Nothing was written: every
 * charge and its result share one transaction, which the failure rolled back.
 */
import { telemetry } from '../observability/telemetry.ts';

/** Where the storage layer writes its warnings (an outage noted, a statement re-prepared): the process's logger. */
export interface StorageLog {
  warn(obj: object, msg: string): void;
}

/** SQLite primary result codes (the low byte of an extended code): BUSY, LOCKED, READONLY, IOERR, FULL, CANTOPEN, PROTOCOL. */
const SQLITE_OUTAGES = new Set([5, 6, 8, 10, 13, 14, 15]);

/**
 * PostgreSQL SQLSTATEs of an unavailable server: the connection-exception class 08, administrator,
 * crash or start-up shutdown (57P01-57P03), too many connections or no resources (53xxx: disk full,
 * out of memory), and a read-only transaction (25006: connected to a standby during a failover).
 */
function postgresOutage(sqlstate: string): boolean {
  return sqlstate.startsWith('08') || /^57P0[1-3]$/.test(sqlstate) || sqlstate.startsWith('53') || sqlstate === '25006';
}

/** Node's socket errors, as pg reports a lost or refused connection. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNABORTED']);

/** pg's own messages for a connection that is gone or could not be had (they carry no code). */
const PG_CONNECTION_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|is not queryable|Client has encountered a connection error|Connection closed/i;

/** A failure of the storage itself, raised by the database driver; `cause` is the driver's error. */
export class StorageUnavailable extends Error {
  readonly engine: 'sqlite' | 'postgres';
  constructor(engine: 'sqlite' | 'postgres', cause: unknown) {
    super(`the ${engine === 'postgres' ? 'PostgreSQL' : 'SQLite'} storage is unavailable: ${reasonOf(cause)}`, { cause });
    this.name = 'StorageUnavailable';
    this.engine = engine;
  }
}

/** What a driver error says, without its SQL or parameters (they may hold personal data). */
export function reasonOf(err: unknown): string {
  const e = err as { code?: unknown; errcode?: unknown; errstr?: unknown; message?: unknown } | undefined;
  if (typeof e?.errstr === 'string') return `${e.errstr} (SQLite ${String(e.errcode)})`;
  const code = typeof e?.code === 'string' ? ` (${e.code})` : '';
  return `${typeof e?.message === 'string' ? e.message.split('\n')[0].slice(0, 160) : String(err)}${code}`;
}

/** The SQLite error a failed statement threw, when it is an outage (errors from node:sqlite carry `errcode`). */
function sqliteOutage(err: unknown): boolean {
  const errcode = (err as { errcode?: unknown } | undefined)?.errcode;
  return typeof errcode === 'number' && SQLITE_OUTAGES.has(errcode & 0xff);
}

/** A PostgreSQL driver error that means the server is unreachable or not serving (not a bad query). */
export function isPostgresOutage(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | undefined;
  if (!e) return false;
  if (typeof e.code === 'string') {
    if (NETWORK_CODES.has(e.code)) return true;
    if (/^[0-9A-Z]{5}$/.test(e.code)) return postgresOutage(e.code);
  }
  return typeof e.message === 'string' && PG_CONNECTION_MESSAGES.test(e.message);
}

/** The engine whose outage `err` (or one of its causes) is, or undefined when it is not a storage outage. */
export function storageOutageOf(err: unknown): 'sqlite' | 'postgres' | undefined {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof StorageUnavailable) return e.engine;
    if (sqliteOutage(e)) return 'sqlite';
  }
  return undefined;
}

/** Counts one storage failure, by where it was met (telemetry's `tramita_storage_failures_total`). */
export function noteStorageFailure(engine: 'sqlite' | 'postgres', where: string): void {
  telemetry.storageFailures.labels(engine, where).inc();
}

/**
 * A unique constraint refused a row another transaction inserted first (PostgreSQL 23505; SQLite
 * SQLITE_CONSTRAINT_PRIMARYKEY/UNIQUE): the race of two first writes of the same key. Running the
 * loser again sees the winner's row.
 */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: unknown; errcode?: unknown } | undefined;
  return e?.code === '23505' || e?.errcode === 1555 || e?.errcode === 2067;
}

/**
 * Kysely's refusal once the database was closed: the process is stopping, and this work outlived the
 * shutdown's grace (a 202 operation past the drain, a job past the worker's grace). It ends uncharged
 * and runs again after the restart (its job lease was handed back); nothing is wrong with the data.
 */
export function isDatabaseClosed(err: unknown): boolean {
  return err instanceof Error && /driver has already been destroyed/.test(err.message);
}

/** The log level of a failure met by background work: the database away or closed is expected (warn), anything else a bug (error). */
export function backgroundFailureLevel(err: unknown): 'warn' | 'error' {
  return storageOutageOf(err) || isDatabaseClosed(err) ? 'warn' : 'error';
}
