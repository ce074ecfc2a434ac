/**
 * Administrative-process monitors' plan for the paid-monitor lifecycle and renewal
 * (platform/monitoring/lifecycle.ts, renewal.ts): the rules of case monitors, keyed by NUP, with no
 * subscription (the cycle looks each NUP up itself, monitor-cycle.ts). Charged as
 * `monitor.processo_administrativo`.
 */
import { defineRecurring } from '../../platform/jobs/job-type.ts';
import { newId } from '../../platform/ids.ts';
import { monitorPlan, newScheduledState, scheduledColumns, type ScheduledAsk } from '../../platform/monitoring/lifecycle.ts';
import type { AdminMonitorRow } from './monitor-store.ts';

/** The price table's query type: charged at creation and at each renewal. */
export const ADMIN_MONITOR_QUERY_TYPE = 'monitor.processo_administrativo';
/** The recurring job: renewals, then checks (monitor-cycle.ts). */
export const ADMIN_MONITOR_CYCLE_JOB = 'monitoramentos.administrativos.ciclo';
export const ADMIN_MONITOR_CYCLE = defineRecurring(ADMIN_MONITOR_CYCLE_JOB);

export interface AdminMonitorAsk extends ScheduledAsk {
  /** 17 digits. */
  nup: string;
}

export const ADMIN_MONITORS = monitorPlan<AdminMonitorRow, AdminMonitorAsk>({
  table: 'administrative_monitors',
  label: 'administrative monitor',
  job: ADMIN_MONITOR_CYCLE,
  queryType: () => ADMIN_MONITOR_QUERY_TYPE,
  key: (ask) => ({ nup: ask.nup }),
  newRow: (ask, now) => ({ id: newId('mpa'), account_id: ask.accountId, nup: ask.nup, ...newScheduledState(ask, now) }),
  ...scheduledColumns,
});
