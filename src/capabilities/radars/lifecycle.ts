/**
 * Radars' plan for the paid-monitor lifecycle and renewal (platform/monitoring/lifecycle.ts,
 * renewal.ts; spec §4.8 "monitor.novos_processos"): every create is a new radar (no key), written with
 * its baseline results; a renewal the balance does not cover suspends it and every later cycle tries
 * again, so a top-up resumes it; DESATIVADO is final (spec §3.2).
 */
import { defineRecurring } from '../../platform/jobs/job-type.ts';
import type { Transaction } from 'kysely';
import type { DB, RadarsTable } from '../../platform/db/schema.ts';
import { monitorPlan, type MonitorAsk } from '../../platform/monitoring/lifecycle.ts';

export const RADAR_CYCLE_JOB = 'monitoramentos.novos_processos.ciclo';
export const RADAR_CYCLE = defineRecurring(RADAR_CYCLE_JOB);
export const RADAR_QUERY_TYPE = 'monitor.novos_processos';

export interface RadarAsk extends MonitorAsk {
  /** The new radar, built and validated by the caller (create.ts). */
  row: RadarsTable;
  /** Writes what the provider lists now as its baseline (no events), in the creation's transaction. */
  baseline(trx: Transaction<DB>, radar: RadarsTable): Promise<void>;
}

export const RADARS = monitorPlan<RadarsTable, RadarAsk>({
  table: 'radars',
  label: 'radar',
  job: RADAR_CYCLE,
  queryType: () => RADAR_QUERY_TYPE,
  stampsPeriod: false,
  suspension: 'retried-each-cycle',
  removed: { status: 'DESATIVADO', at: 'desativado_em' },
  newRow: (ask) => ask.row,
  written: async (trx, radar, _s, ask) => ask.baseline?.(trx, radar),
});
