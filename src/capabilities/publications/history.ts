/**
 * What Tramita knows of one OAB's publications, and how it learns more (spec §2.3, §3.2):
 * - a recent window (the last RECENT_DAYS days), fetched when a lawyer endpoint finds it older than the
 *   store's freshness policy (TRAMITA_CASE_FRESH_MINUTES);
 * - the consolidated history: a background job that walks DJEN year by year back to HISTORY_START,
 *   halving any window that hits DJEN's 10,000-result cap, until every window was read whole. Until
 *   then the lawyer summary says `cobertura.parcial`; from then on `cobertura.completa`.
 */
import { defineJob, jobHandler } from '../../platform/jobs/job-type.ts';
import { brasiliaDayBefore } from '../../platform/format.ts';
import { DAY_MS, iso } from '../../platform/clock.ts';
import type { OabHistoriesTable } from '../../platform/db/schema.ts';
import type { JobHandler } from '../../platform/jobs/worker.ts';
import type { Services } from '../../platform/services.ts';
import { NO_TERMINAL, progressReporter } from '../../platform/observability/progress.ts';
import type { PublicationQuery, PublicationRecord, PublicationSource } from '../../platform/ports/publications.ts';
import type { PublicationIngest } from './ingest.ts';
import { createHistory, findHistory, updateHistory } from './history-store.ts';

export const RECENT_DAYS = 30;
/** DJEN's national gazette starts here; nothing older exists to consolidate. */
export const HISTORY_START = '2020-01-01';
export const CONSOLIDATION_JOB = 'advogados.historico.consolidar';
/** An OAB's whole DJEN history, read once; DJEN's budget is 20 requests a minute, so failures wait minutes, not seconds. */
export const CONSOLIDATION = defineJob<{ oab: string }>({
  kind: CONSOLIDATION_JOB,
  maxAttempts: 6,
  dedupeKey: ({ oab }) => `${CONSOLIDATION_JOB}:${oab}`,
  retryDelayMs: (attempt) => Math.min(3_600_000, 120_000 * 2 ** (attempt - 1)),
});
const dayAfter = (d: string, n: number): string => iso(new Date(Date.parse(`${d}T00:00:00Z`) + n * DAY_MS)).slice(0, 10);

export interface HistoryFetch {
  /** Every window was read to its short page. */
  complete: boolean;
  requests: number;
}

/**
 * Every publication of the query from `desde` to `ate`, window by window (newest first); a window
 * DJEN caps is split in halves, down to single days. `onWindow` sees each window's items as they come
 * (ingest as you go: a failure halfway keeps what was read, and memory holds one window at a time).
 */
export async function fetchHistory(
  source: PublicationSource,
  query: PublicationQuery,
  range: { desde: string; ate: string },
  onWindow: (items: PublicationRecord[], windows: { done: number; total: number }) => Promise<void>,
  signal?: AbortSignal,
): Promise<HistoryFetch> {
  const out: HistoryFetch = { complete: true, requests: 0 };
  const pending: { desde: string; ate: string }[] = yearWindows(range.desde, range.ate);
  for (let done = 1; pending.length > 0; done++) {
    const w = pending.shift()!;
    const r = await source.search({ ...query, desde: w.desde, ate: w.ate }, { signal });
    out.requests += r.requests;
    // Windows read and known so far (a full window is split in two below, so the total can grow).
    await onWindow(r.items, { done, total: done + pending.length + (r.complete ? 0 : 2) });
    if (r.complete) continue;
    const days = (Date.parse(w.ate) - Date.parse(w.desde)) / DAY_MS;
    if (days < 1) {
      out.complete = false;
      continue;
    }
    const middle = dayAfter(w.desde, Math.floor(days / 2));
    pending.unshift({ desde: dayAfter(middle, 1), ate: w.ate }, { desde: w.desde, ate: middle });
  }
  return out;
}

/** [desde, ate] cut into calendar-year windows, newest first. */
function yearWindows(desde: string, ate: string): { desde: string; ate: string }[] {
  const out: { desde: string; ate: string }[] = [];
  for (let y = Number(ate.slice(0, 4)); y >= Number(desde.slice(0, 4)); y--) {
    out.push({ desde: `${y}-01-01` > desde ? `${y}-01-01` : desde, ate: `${y}-12-31` < ate ? `${y}-12-31` : ate });
  }
  return out;
}

export async function oabHistory(s: Services, oab: string): Promise<OabHistoriesTable | undefined> {
  return findHistory(s.db, oab);
}

/** The row of this OAB, created (with its consolidation job) on first use. */
export async function ensureHistory(s: Services, oab: string): Promise<OabHistoriesTable> {
  const now = iso(s.clock.now());
  await s.db.transaction().execute(async (trx) => {
    if (await createHistory(trx, oab, now)) await enqueueConsolidation(s, oab, trx);
  });
  return (await oabHistory(s, oab))!;
}

async function enqueueConsolidation(s: Services, oab: string, trx = s.db): Promise<void> {
  await s.jobs.add(CONSOLIDATION, { oab }, trx);
}

export function parseOabKey(oab: string): { uf: string; numero: string } {
  return { uf: oab.slice(0, 2), numero: oab.slice(2) };
}

/** Fetches the recent window when the stored one is older than the freshness policy; returns the history row. */
export async function syncRecent(s: Services, ingest: PublicationIngest, oab: string, signal?: AbortSignal): Promise<OabHistoriesTable> {
  const history = await ensureHistory(s, oab);
  const now = s.clock.now();
  const freshMs = s.config.caseFreshMinutes * 60_000;
  if (history.recente_em && now.getTime() - Date.parse(history.recente_em) < freshMs) return history;
  const source = s.sources.publications;
  const r = await source.search({ oab: parseOabKey(oab), desde: brasiliaDayBefore(now, RECENT_DAYS), ate: brasiliaDayBefore(now) }, { signal });
  await ingest.ingest(r.items, source.info);
  const set = { recente_em: iso(now), atualizado_em: iso(now) };
  await updateHistory(s.db, oab, set);
  return { ...history, ...set };
}

export function consolidationJob(s: Services, ingest: PublicationIngest): JobHandler {
  return jobHandler(CONSOLIDATION, {
    async run({ oab }, { job, log }) {
      const started = s.clock.now();
      const progress = progressReporter(log, 'OAB history consolidation', { out: NO_TERMINAL });
      let publicacoes = 0;
      await updateHistory(s.db, oab, { consolidacao: 'EM_ANDAMENTO', atualizado_em: iso(started) });
      const source = s.sources.publications;
      try {
        const r = await fetchHistory(source, { oab: parseOabKey(oab) }, { desde: HISTORY_START, ate: brasiliaDayBefore(started) }, async (items, windows) => {
          await ingest.ingest(items, source.info);
          publicacoes += items.length;
          progress(windows.done, windows.total, { oab, publicacoes });
        });
        const done = iso(s.clock.now());
        await updateHistory(s.db, oab, {
          consolidacao: r.complete ? 'CONCLUIDA' : 'ERRO',
          consolidado_em: r.complete ? done : null,
          paginas: r.requests,
          // The history also covers the recent window.
          recente_em: done,
          ultimo_erro: r.complete ? null : 'DJEN capped a single day at 10,000 results; that day stays partial.',
          atualizado_em: done,
        });
      } catch (err) {
        const final = job.attempts >= job.max_attempts;
        await updateHistory(s.db, oab, { consolidacao: final ? 'ERRO' : 'PENDENTE', ultimo_erro: (err as Error).message, atualizado_em: iso(s.clock.now()) });
        if (!final) throw err;
      }
    },
  });
}
