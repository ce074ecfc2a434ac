/**
 * The daily bulk cadernos (djen.md §4.6) of the courts TRAMITA_DJEN_CADERNOS lists: one request per
 * court and day brings every communication of that court, however many monitors follow it. Yesterday's
 * and today's `D` caderno of each court are ingested once final (`Processado`, or `Sem comunicações` /
 * `Cancelado`: nothing to read); which ones were is remembered in `publication_syncs`
 * (`caderno:<sigla>:<data>:D`). One not final yet is asked again at most once per
 * TRAMITA_MONITOR_INTERVAL_MS (`caderno-tentativa:…`), so the cycle does not spend DJEN's budget on it
 * every minute.
 */
import { backgroundFailureLevel } from '../../platform/db/outage.ts';
import type { Logger } from 'pino';
import { brasiliaDayBefore } from '../../platform/format.ts';
import { addMs, iso } from '../../platform/clock.ts';
import type { Services } from '../../platform/services.ts';
import { SourceError } from '../../platform/ports/source-error.ts';
import { COURTS } from '../../platform/courts/table.ts';
import type { CycleBudget } from './cycle-budget.ts';
import { NO_TERMINAL, progressReporter } from '../../platform/observability/progress.ts';
import type { PublicationIngest } from './ingest.ts';
import { markSynced, syncTimes } from './sync-store.ts';

const FINAL = new Set(['Processado', 'Sem comunicações', 'Cancelado']);

export interface CadernoSummary {
  ingested: number;
  /** Cadernos asked that were not final yet. */
  pending: number;
  failed: number;
}

/** The configured courts: TRAMITA_DJEN_CADERNOS siglas, or every court for `all`. */
export function cadernoCourts(configured: readonly string[]): string[] {
  return configured.includes('all') ? COURTS.map((c) => c.sigla) : [...configured];
}

export const cadernoKey = (sigla: string, data: string) => `caderno:${sigla}:${data}:D`;
const attemptKey = (sigla: string, data: string) => `caderno-tentativa:${sigla}:${data}:D`;

/** Ingests the final cadernos of yesterday and today not ingested yet, within the run's budget. */
export async function ingestCadernos(s: Services, ingest: PublicationIngest, now: Date, budget: CycleBudget, log: Logger): Promise<CadernoSummary> {
  const summary: CadernoSummary = { ingested: 0, pending: 0, failed: 0 };
  const courts = cadernoCourts(s.config.djenCadernos);
  if (courts.length === 0) return summary;
  // Yesterday first: it is the one most likely final.
  const days = [brasiliaDayBefore(now, 1), brasiliaDayBefore(now)];
  const wanted = days.flatMap((data) => courts.map((sigla) => ({ sigla, data })));
  const known = await syncTimes(
    s.db,
    wanted.flatMap(({ sigla, data }) => [cadernoKey(sigla, data), attemptKey(sigla, data)]),
  );
  const retryBefore = addMs(now, -s.config.monitorIntervalMs).getTime();
  const source = s.sources.publications;
  const progress = progressReporter(log, 'caderno ingest', { out: NO_TERMINAL });
  let seen = 0;
  for (const { sigla, data } of wanted) {
    progress(seen++, wanted.length, { ...summary });
    if (known.has(cadernoKey(sigla, data))) continue;
    const tried = known.get(attemptKey(sigla, data));
    if (tried !== undefined && Date.parse(tried) > retryBefore) continue;
    if (!budget.take()) break;
    try {
      const info = await source.caderno(sigla, data, 'D', async (items) => {
        await ingest.ingest(items, source.info);
      });
      const final = FINAL.has(info.status);
      await markSynced(s.db, final ? cadernoKey(sigla, data) : attemptKey(sigla, data), iso(now));
      if (final) summary.ingested++;
      else summary.pending++;
    } catch (err) {
      summary.failed++;
      budget.noteFailure(err);
      if (err instanceof SourceError) log.warn({ tribunal: sigla, data, failure: err.failure }, 'caderno: DJEN failed');
      else log[backgroundFailureLevel(err)]({ err, tribunal: sigla, data }, 'caderno ingest failed');
      await markSynced(s.db, attemptKey(sigla, data), iso(now));
    }
  }
  if (summary.ingested + summary.pending + summary.failed > 0) progress(wanted.length, wanted.length, { ...summary });
  return summary;
}

/** Courts whose caderno of yesterday was ingested: their publications up to yesterday are all in the store. */
export async function coveredCourts(s: Services, now: Date): Promise<Set<string>> {
  const courts = cadernoCourts(s.config.djenCadernos);
  if (courts.length === 0) return new Set();
  const yesterday = brasiliaDayBefore(now, 1);
  const done = await syncTimes(
    s.db,
    courts.map((sigla) => cadernoKey(sigla, yesterday)),
  );
  return new Set(courts.filter((sigla) => done.has(cadernoKey(sigla, yesterday))));
}
