/**
 * Renewals of case monitors: the shared renewal (platform/monitoring/renewal.ts) on `case_monitors`,
 * charged as `monitor.processo`. A suspended monitor also drops its subscription to its case, so no
 * movement news reaches it until it is created again.
 */
import type { Logger } from 'pino';
import { unsubscribe } from '../../platform/events/subscriptions.ts';
import { renewDue as renewDueIn, type RenewalPlan, type RenewalSummary } from '../../platform/monitoring/renewal.ts';
import type { Services } from '../../platform/services.ts';
import { MONITOR_CYCLE_JOB, MONITOR_QUERY_TYPE, type MonitorRow } from './store.ts';

export type { RenewalSummary } from '../../platform/monitoring/renewal.ts';

const CASE_MONITOR_RENEWAL: RenewalPlan<MonitorRow> = {
  table: 'case_monitors',
  label: 'case monitor',
  jobKind: MONITOR_CYCLE_JOB,
  queryType: () => MONITOR_QUERY_TYPE,
  stampsPeriod: true,
  onSuspend: (trx, m) => unsubscribe(trx, m.id),
};

/** Charges every ATIVO case monitor whose period ended by `now`, or suspends it. */
export function renewDue(s: Services, now: Date, log: Logger): Promise<RenewalSummary> {
  return renewDueIn(s, CASE_MONITOR_RENEWAL, now, log);
}
