/**
 * A Kysely driver wrapper that turns the PostgreSQL driver's outage errors (a refused or lost
 * connection, an administrator shutdown, a pool that cannot hand out a connection in time) into
 * `StorageUnavailable`, so every layer above tells "the database is away" from a bug without
 * knowing pg's error shapes (db/outage.ts). Everything else passes through untouched.
 */
import type { DatabaseConnection, Driver, PostgresDialectConfig, QueryResult, TransactionSettings } from 'kysely';
import { PostgresDialect } from 'kysely';
import { isPostgresOutage, StorageUnavailable } from './outage.ts';

function rethrow(err: unknown): never {
  throw isPostgresOutage(err) && !(err instanceof StorageUnavailable) ? new StorageUnavailable('postgres', err) : err;
}

/** `.catch`, not an async wrapper: every PostgreSQL query passes here, and an extra async frame per query costs. */
function guard<T>(work: () => Promise<T>): Promise<T> {
  return work().catch(rethrow);
}

class GuardedConnection implements DatabaseConnection {
  readonly inner: DatabaseConnection;
  constructor(inner: DatabaseConnection) {
    this.inner = inner;
  }
  executeQuery<R>(...args: Parameters<DatabaseConnection['executeQuery']>): Promise<QueryResult<R>> {
    return guard(() => this.inner.executeQuery<R>(...args));
  }
  async *streamQuery<R>(...args: Parameters<DatabaseConnection['streamQuery']>): AsyncIterableIterator<QueryResult<R>> {
    try {
      yield* this.inner.streamQuery<R>(...args);
    } catch (err) {
      rethrow(err);
    }
  }
}

const unwrap = (c: DatabaseConnection): DatabaseConnection => (c instanceof GuardedConnection ? c.inner : c);

class GuardedDriver implements Driver {
  readonly #inner: Driver;
  constructor(inner: Driver) {
    this.#inner = inner;
  }
  init(...args: Parameters<Driver['init']>) {
    return guard(() => this.#inner.init(...args));
  }
  async acquireConnection(...args: Parameters<Driver['acquireConnection']>) {
    return new GuardedConnection(await guard(() => this.#inner.acquireConnection(...args)));
  }
  beginTransaction(c: DatabaseConnection, settings: TransactionSettings) {
    return guard(() => this.#inner.beginTransaction(unwrap(c), settings));
  }
  commitTransaction(c: DatabaseConnection) {
    return guard(() => this.#inner.commitTransaction(unwrap(c)));
  }
  rollbackTransaction(c: DatabaseConnection) {
    return guard(() => this.#inner.rollbackTransaction(unwrap(c)));
  }
  savepoint(c: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['savepoint']>>[2]) {
    return guard(() => this.#inner.savepoint!(unwrap(c), name, compile));
  }
  rollbackToSavepoint(c: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['savepoint']>>[2]) {
    return guard(() => this.#inner.rollbackToSavepoint!(unwrap(c), name, compile));
  }
  releaseSavepoint(c: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['savepoint']>>[2]) {
    return guard(() => this.#inner.releaseSavepoint!(unwrap(c), name, compile));
  }
  releaseConnection(c: DatabaseConnection, ...rest: [Parameters<Driver['releaseConnection']>[1]?]) {
    return this.#inner.releaseConnection(unwrap(c), ...rest);
  }
  destroy(...args: Parameters<Driver['destroy']>) {
    return this.#inner.destroy(...args);
  }
}

/** PostgreSQL through pg, with outages raised as StorageUnavailable. */
export class GuardedPostgresDialect extends PostgresDialect {
  constructor(config: PostgresDialectConfig) {
    super(config);
  }
  override createDriver(): Driver {
    return new GuardedDriver(super.createDriver());
  }
}
