/**
 * Case monitors' plan for the paid-monitor lifecycle and renewal (platform/monitoring/lifecycle.ts,
 * renewal.ts; spec §4.8): one live monitor per account and case, checked at its frequency; its
 * subscription to the case's topic (movement news) is written with every create, reactivation or
 * change of `webhook_url`, and dropped with a suspension or a removal. Charged as `monitor.processo`.
 */
import { defineRecurring } from '../../platform/jobs/job-type.ts';
import type { Court } from '../../platform/courts/table.ts';
import { unsubscribe } from '../../platform/events/subscriptions.ts';
import type { Cnj } from '../../platform/identifiers/cnj.ts';
import { newId } from '../../platform/ids.ts';
import { iso } from '../../platform/clock.ts';
import { monitorPlan, newScheduledState, scheduledColumns, type ScheduledAsk } from '../../platform/monitoring/lifecycle.ts';
import { schedulesForFrequency } from './schedules.ts';
import { subscribeMonitor, type MonitorRow } from './store.ts';

/** The recurring job of case monitors: renewals, then checks (check.ts). */
export const MONITOR_CYCLE_JOB = 'monitoramentos.processos.ciclo';
export const MONITOR_CYCLE = defineRecurring(MONITOR_CYCLE_JOB);
/** The query type of the price table: charged at creation and at each renewal. */
export const MONITOR_QUERY_TYPE = 'monitor.processo';

export interface CaseMonitorAsk extends ScheduledAsk {
  /** A case of a court with a DataJud index (the caller checked). */
  cnj: Cnj & { court: Court };
}

export const CASE_MONITORS = monitorPlan<MonitorRow, CaseMonitorAsk>({
  table: 'case_monitors',
  label: 'case monitor',
  job: MONITOR_CYCLE,
  queryType: () => MONITOR_QUERY_TYPE,
  key: (ask) => ({ numero_cnj: ask.cnj.digits }),
  newRow: (ask, now) => ({
    id: newId('mon'),
    account_id: ask.accountId,
    numero_cnj: ask.cnj.digits,
    tribunal: ask.cnj.court.sigla,
    datajud_alias: ask.cnj.court.datajudAlias!,
    ...newScheduledState(ask, now),
    // Its court's page (when a consultation reads it) is read at the next cycle, then once per frequency (court-pages.ts).
    proxima_pagina_em: iso(now),
    // Its number is asked of DJEN at the next cycle (its recent history), then once per frequency (publications/case-polling.ts).
    proxima_diario_em: iso(now),
  }),
  ...scheduledColumns,
  changes: (live, ask, s) => ({
    ...scheduledColumns.changes(live, ask, s),
    ...(ask.frequencia !== live.frequencia ? schedulesForFrequency(live, ask.frequencia, s.clock.now(), s.config.monitorIntervalMs) : {}),
  }),
  // Movement news reach it (and its webhook_url) from now on; re-subscribing updates it.
  written: async (trx, m, s, _ask, set) => {
    if (!set || set.webhook_url !== undefined) await subscribeMonitor(trx, s.clock, m);
  },
  onSuspend: (trx, m) => unsubscribe(trx, m.id),
  onRemove: (trx, m) => unsubscribe(trx, m.id),
});
