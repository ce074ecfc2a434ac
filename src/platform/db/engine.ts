/** Which engine a Kysely instance talks to, for the few statements that differ (full-text search). */
import { PostgresAdapter, type Kysely } from 'kysely';
import type { Engine } from './database.ts';
import type { DB } from './schema.ts';

export function engineOf(db: Kysely<DB>): Engine {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}
