/** Which engine a Kysely instance talks to, for the few statements that differ (full-text search). */
import { PostgresAdapter, type Kysely } from 'kysely';
import type { DB } from './schema.ts';

export type Engine = 'sqlite' | 'postgres';

export function engineOf(db: Kysely<DB>): Engine {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}
