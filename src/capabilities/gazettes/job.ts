/**
 * The gazettes' background ingest, `diarios.ingestao`: every INGEST_EVERY_MS (or TRAMITA_MONITOR_INTERVAL_MS
 * when shorter, so a demo's publication monitors hear a new edition within seconds), for each gazette
 * TRAMITA_GAZETTE_COURTS lists, the days from TRAMITA_GAZETTE_BACKFILL_DAYS back to today that the
 * store lacks, today always again (days.ts). Resumable and idempotent by construction: the days done
 * stay done. One line per gazette that brought something, a warning per gazette that failed (the
 * others go on; the failed days are asked again at the next run), a summary per run.
 */
import { defineRecurring, jobHandler } from '../../platform/jobs/job-type.ts';
import { addMs, DAY_MS } from '../../platform/clock.ts';
import type { JobHandler } from '../../platform/jobs/worker.ts';
import type { Services } from '../../platform/services.ts';
import { configuredGazettes, type GazetteDays } from './days.ts';

export const GAZETTE_INGEST_JOB = 'diarios.ingestao';
export const GAZETTE_INGEST = defineRecurring(GAZETTE_INGEST_JOB);
const INGEST_EVERY_MS = 30 * 60_000;

export function gazetteIngestJob(s: Services, days: GazetteDays): JobHandler {
  return jobHandler(GAZETTE_INGEST, {
    async run(_payload, { clock, log }) {
      const gazettes = configuredGazettes(s.config.gazetteCourts);
      const fim = days.today();
      const inicio = new Date(Date.parse(fim) - s.config.gazetteBackfillDays * DAY_MS).toISOString().slice(0, 10);
      const total = { diarios: gazettes.length, falhas: 0, dias: 0, publicacoes: 0, novas: 0, eventos: 0 };
      for (const [i, gazette] of gazettes.entries()) {
        try {
          const r = await days.ensure(gazette, { inicio, fim }, { refreshToday: true });
          total.dias += r.dias;
          total.publicacoes += r.publicacoes;
          total.novas += r.novas;
          total.eventos += r.eventos;
          if (r.novas > 0) log.info({ diario: gazette, ...r, progresso: `${i + 1}/${gazettes.length}` }, 'gazette ingest progress');
        } catch (err) {
          total.falhas++;
          log.warn(
            { diario: gazette, err: { message: (err as Error).message, failure: (err as { failure?: string }).failure } },
            'gazette ingest failed; its missing days are asked again at the next run',
          );
        }
      }
      if (gazettes.length > 0) log[total.novas > 0 || total.falhas > 0 ? 'info' : 'debug']({ ...total, inicio, fim }, 'gazette ingest run');
      return addMs(clock.now(), Math.min(INGEST_EVERY_MS, s.config.monitorIntervalMs));
    },
  });
}
