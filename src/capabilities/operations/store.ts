/**
 * What the operator's endpoints read from the store: the oldest due job (readiness), and the few
 * grouped counts the `/metrics` gauges show (jobs by kind and state, the oldest pending webhook
 * delivery, active monitors of a table, stored documents). Indexed columns only: read at every scrape.
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';

/** The `run_at` of the oldest pending job due by `nowIso`, or null. */
export async function oldestDueJob(db: Kysely<DB>, nowIso: string): Promise<string | null> {
  const row = await db
    .selectFrom('jobs')
    .select(sql<string | null>`min(run_at)`.as('oldest'))
    .where('status', '=', 'pending')
    .where('run_at', '<=', nowIso)
    .executeTakeFirst();
  return row?.oldest ?? null;
}

/** Jobs pending, running or failed, by kind and state, with the oldest due `run_at` of the pending ones. */
export function jobCounts(db: Kysely<DB>, nowIso: string) {
  return db
    .selectFrom('jobs')
    .select([
      'kind',
      'status',
      sql<number>`count(*)`.as('n'),
      sql<string | null>`min(case when status = 'pending' and run_at <= ${nowIso} then run_at end)`.as('oldest_due'),
    ])
    .where('status', 'in', ['pending', 'running', 'failed'])
    .groupBy(['kind', 'status'])
    .execute();
}

/** When the oldest webhook delivery still pending was created, or null. */
export async function oldestPendingDelivery(db: Kysely<DB>): Promise<string | null> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select(sql<string | null>`min(created_at)`.as('oldest'))
    .where('status', '=', 'PENDENTE')
    .executeTakeFirst();
  return row?.oldest ?? null;
}

export type MonitorTable = 'case_monitors' | 'publication_monitors' | 'administrative_monitors' | 'radars';

/** The ATIVO rows of a monitor table. */
export async function activeCount(db: Kysely<DB>, table: MonitorTable): Promise<number> {
  const row = await db.selectFrom(table).select(sql<number>`count(*)`.as('n')).where('status', '=', 'ATIVO').executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Stored court documents: how many, and their bytes. */
export async function storedDocumentTotals(db: Kysely<DB>): Promise<{ n: number; bytes: number }> {
  const row = await db
    .selectFrom('case_document_files')
    .select([sql<number>`count(*)`.as('n'), sql<number | null>`sum(tamanho_bytes)`.as('bytes')])
    .executeTakeFirst();
  return { n: Number(row?.n ?? 0), bytes: Number(row?.bytes ?? 0) };
}
