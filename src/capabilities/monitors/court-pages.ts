/**
 * Court pages of monitored cases, on their own schedule (issue 43 item 3): the court's own page lists
 * movements days before DataJud, so every ATIVO monitor of a court whose consultation is enabled has
 * its case's page read once per its frequency (`case_monitors.proxima_pagina_em`), whenever DataJud
 * is due. The page's new movements become `nova_movimentacao` there (store.saveDetails), and DataJud's
 * later copy of them is no news. A DJEN communication of the case puts its page first in line
 * (store.ts pageNews: a communication usually follows a movement the page already shows).
 *
 * Per court and cycle, at most the reads MONITOR_SHARE of the court host's budget serves until the next
 * cycle (TRAMITA_CONSULTA_REQUESTS_PER_MINUTE, three requests a page) are enqueued, so the enrichment
 * jobs never pile up behind the budget and callers' own lookups keep the other half; the rest wait in
 * line, the most overdue first. A failing page is the enrichment job's to retry.
 */
import { iso } from '../../platform/clock.ts';
import type { Config } from '../../config.ts';
import { cycleMs } from '../../platform/monitoring/frequency.ts';
import type { Services } from '../../platform/services.ts';
import type { CaseParts } from '../processes/parts.ts';
import { pagesDue, scheduleNext } from './store.ts';

/** The share of a court host's request budget that monitors' page reads may take. */
const MONITOR_SHARE = 0.5;
/** Requests one case's page costs on e-SAJ (open, search, page): what the budget is counted in. */
const REQUESTS_PER_PAGE_READ = 3;

/** Page reads of one court enqueued per cycle: what MONITOR_SHARE of its host's budget serves until the next one. */
export function pageReadsPerRun(config: Pick<Config, 'consultaRequestsPerMinute' | 'monitorIntervalMs'>): number {
  const requests = (config.consultaRequestsPerMinute * cycleMs(config.monitorIntervalMs) * MONITOR_SHARE) / 60_000;
  return Math.max(1, Math.floor(requests / REQUESTS_PER_PAGE_READ));
}

/** Enqueues the court pages due by `now` of every consultation court; returns how many cases' pages. */
export async function readCourtPages(s: Services, cases: CaseParts, now: Date): Promise<number> {
  const perRun = pageReadsPerRun(s.config);
  let read = 0;
  for (const court of s.sources.details?.pageCourts?.() ?? []) {
    const numbers = await pagesDue(s.db, court, iso(now), perRun);
    if (numbers.length === 0) continue;
    // The jobs and the next reads together: a crash between them neither loses a read nor repeats it.
    await s.db.transaction().execute(async (trx) => {
      for (const n of numbers) await cases.service.scheduleDetails(n, trx, { documents: false, afterFailure: false });
      await scheduleNext(trx, 'proxima_pagina_em', numbers, s.config.monitorIntervalMs, now);
    });
    read += numbers.length;
  }
  return read;
}
