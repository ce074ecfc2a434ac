/**
 * What the publication monitors let other capabilities use (their door). The publication monitors
 * own their table, plan, matcher and view; the publications capability owns the cycle that asks DJEN
 * for them and the ingest that matches what comes back (publications → publication-monitors, never
 * back: docs/architecture.md). Intimação monitors are rows of the same table (origin INTIMACOES).
 */
export { eventKindFor } from './event-kind.ts';
export { courtFilter } from './input.ts';
export { deactivated, PUBLICATION_CYCLE, PUBLICATION_MONITORS, type PublicationMonitorAsk } from './lifecycle.ts';
export { MonitorIndex, type LiveMonitors } from './monitor-index.ts';
export { monitorView } from './present.ts';
export { CourtsField, PublicationMonitor, WebhookUrlField } from './schemas.ts';
export { watchesDjen } from './sources.ts';
export {
  findOfTarget,
  liveMonitorsOf,
  MONITOR_QUERY_TYPES,
  MONITOR_READS,
  type MonitorTarget,
  type PublicationMonitorRow,
} from './store.ts';
