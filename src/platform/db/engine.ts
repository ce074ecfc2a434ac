/** Which engine a Kysely instance talks to, for the few statements that differ (full-text search). */
import { PostgresAdapter, type Kysely } from 'kysely';
import type { Engine } from './database.ts';

export function engineOf(db: Kysely<any>): Engine {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}
