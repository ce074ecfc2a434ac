/**
 * The gauges read from the store at each scrape of `/metrics` (platform/observability/telemetry.ts):
 * jobs by kind and state with the oldest due job's lag, the oldest pending webhook delivery, and the
 * active monitors and radars by kind. A few grouped queries over indexed columns per scrape.
 */
import { sql } from 'kysely';
import { telemetry } from '../../platform/observability/telemetry.ts';
import { readBudgets } from '../../platform/observability/upstreams.ts';
import type { Services } from '../../platform/services.ts';

const MONITOR_TABLES = {
  processos: 'case_monitors',
  publicacoes: 'publication_monitors',
  processos_administrativos: 'administrative_monitors',
  radars: 'radars',
} as const;

const ageSeconds = (nowMs: number, isoTime: string | null | undefined) => (isoTime ? Math.max(0, (nowMs - Date.parse(isoTime)) / 1000) : 0);

export async function refreshStoreGauges(s: Services): Promise<void> {
  const now = s.clock.now();
  const nowIso = now.toISOString();
  const jobs = await s.db
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
  telemetry.jobs.reset();
  telemetry.jobLag.reset();
  const STATE = { pending: 'queued', running: 'running', failed: 'failed' } as const;
  for (const row of jobs) {
    telemetry.jobs.labels(row.kind, STATE[row.status as keyof typeof STATE]).set(Number(row.n));
    if (row.status === 'pending') telemetry.jobLag.labels(row.kind).set(ageSeconds(now.getTime(), row.oldest_due));
  }
  const pending = await s.db
    .selectFrom('webhook_deliveries')
    .select(sql<string | null>`min(created_at)`.as('oldest'))
    .where('status', '=', 'PENDENTE')
    .executeTakeFirst();
  telemetry.oldestPendingDelivery.set(ageSeconds(now.getTime(), pending?.oldest));
  for (const [kind, table] of Object.entries(MONITOR_TABLES)) {
    const row = await s.db.selectFrom(table).select(sql<number>`count(*)`.as('n')).where('status', '=', 'ATIVO').executeTakeFirst();
    telemetry.monitorsActive.labels(kind).set(Number(row?.n ?? 0));
  }
  const documents = await s.db
    .selectFrom('case_document_files')
    .select([sql<number>`count(*)`.as('n'), sql<number | null>`sum(tamanho_bytes)`.as('bytes')])
    .executeTakeFirst();
  telemetry.storedDocuments.set(Number(documents?.n ?? 0));
  telemetry.storedDocumentBytes.set(Number(documents?.bytes ?? 0));
  readBudgets();
}
