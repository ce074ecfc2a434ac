/**
 * The gauges read from the store at each scrape of `/metrics` (platform/observability/telemetry.ts):
 * jobs by kind and state with the oldest due job's lag, the oldest pending webhook delivery, and the
 * active monitors and radars by kind. A few grouped queries over indexed columns per scrape.
 */
import { telemetry } from '../../platform/observability/telemetry.ts';
import { readBudgets } from '../../platform/observability/upstreams.ts';
import type { Services } from '../../platform/services.ts';
import { activeCount, jobCounts, oldestPendingDelivery, storedDocumentTotals, type MonitorTable } from './store.ts';

const MONITOR_TABLES = {
  processos: 'case_monitors',
  publicacoes: 'publication_monitors',
  processos_administrativos: 'administrative_monitors',
  radars: 'radars',
} as const satisfies Record<string, MonitorTable>;

const ageSeconds = (nowMs: number, isoTime: string | null | undefined) => (isoTime ? Math.max(0, (nowMs - Date.parse(isoTime)) / 1000) : 0);

export async function refreshStoreGauges(s: Services): Promise<void> {
  const now = s.clock.now();
  const nowIso = now.toISOString();
  const jobs = await jobCounts(s.db, nowIso);
  telemetry.jobs.reset();
  telemetry.jobLag.reset();
  const STATE = { pending: 'queued', running: 'running', failed: 'failed' } as const;
  for (const row of jobs) {
    telemetry.jobs.labels(row.kind, STATE[row.status as keyof typeof STATE]).set(Number(row.n));
    if (row.status === 'pending') telemetry.jobLag.labels(row.kind).set(ageSeconds(now.getTime(), row.oldest_due));
  }
  telemetry.oldestPendingDelivery.set(ageSeconds(now.getTime(), await oldestPendingDelivery(s.db)));
  for (const [kind, table] of Object.entries(MONITOR_TABLES) as [string, MonitorTable][])
    telemetry.monitorsActive.labels(kind).set(await activeCount(s.db, table));
  const documents = await storedDocumentTotals(s.db);
  telemetry.storedDocuments.set(documents.n);
  telemetry.storedDocumentBytes.set(documents.bytes);
  readBudgets();
}
