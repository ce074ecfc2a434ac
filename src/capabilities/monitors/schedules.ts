/**
 * A case monitor's own schedules beside its DataJud check (`proxima_verificacao_em`): its court's page
 * (`proxima_pagina_em`, court-pages.ts) and its number's DJEN communications (`proxima_diario_em`,
 * publications/case-polling.ts). Each is kept per monitor, one period of the monitor's frequency
 * (scaled by TRAMITA_MONITOR_INTERVAL_MS) after the last read of its case; several accounts may follow
 * one case, and the case is read once when any of them is due, so the shortest frequency among them
 * sets the case's pace. The writes after a read are the store's (store.ts scheduleNext).
 */
import { addMs, iso } from '../../platform/clock.ts';
import type { MonitorFrequency } from '../../platform/db/schema.ts';
import { frequencyMs } from '../../platform/monitoring/frequency.ts';

/** The columns of a case monitor's own schedules. */
export type OwnSchedule = 'proxima_pagina_em' | 'proxima_diario_em';
const OWN_SCHEDULES: readonly OwnSchedule[] = ['proxima_pagina_em', 'proxima_diario_em'];

/**
 * A monitor's frequency changed: a shorter one brings each own schedule to at most one new period from
 * `now` (a DIARIA monitor made HORARIA hears DJEN within the hour, not at tomorrow's ask); a longer one
 * takes effect after the next read.
 */
export function schedulesForFrequency(
  live: Record<OwnSchedule, string>,
  frequencia: MonitorFrequency | undefined,
  now: Date,
  intervalMs: number,
): Partial<Record<OwnSchedule, string>> {
  if (frequencia === undefined) return {};
  const latest = iso(addMs(now, frequencyMs(frequencia, intervalMs)));
  const set: Partial<Record<OwnSchedule, string>> = {};
  for (const column of OWN_SCHEDULES) if (live[column] > latest) set[column] = latest;
  return set;
}
