/**
 * Rate-limit counters shared by every API process of a PostgreSQL deployment (issue 19, item 4):
 * one row per (route class and key, window start), summed by the processes' periodic flushes
 * (platform/http/shared-windows.ts). SQLite deployments are one process and count in memory; the
 * table exists there too, empty, so both engines have one schema.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('rate_limit_counters')
    .addColumn('bucket', 'text', (c) => c.notNull())
    // Milliseconds since the epoch, a multiple of the class's window: every process agrees on it.
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_limit_counters_pk', ['bucket', 'window_start'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('rate_limit_counters').execute();
}
