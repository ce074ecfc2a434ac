/**
 * The `administrative_monitors` table (spec §4.8 `processos-administrativos`): its reads, and the news
 * a save of a NUP brings its monitors (service.ts). The view integrators get is present.ts.
 * Lifecycle as case monitors: ATIVO → SUSPENSO (a renewal was not paid) → ATIVO again when created
 * again; REMOVIDO (DELETE) is final and the row stays readable (spec §3.2).
 */
import type { Transaction } from 'kysely';
import type { AdministrativeMonitorsTable, DB } from '../../platform/db/schema.ts';
import type { Audience } from '../../platform/events/log.ts';
import { monitorReads, type MonitorReads } from '../../platform/monitoring/tables.ts';

export type AdminMonitorRow = AdministrativeMonitorsTable;

/** The `monitor_type` of feed rows and deliveries. */
export const MONITOR_TYPE = 'processo_administrativo';

/** The account's monitor by id, a page of its monitors, how many are live: the shape every monitor kind's store has. */
export const ADMIN_MONITOR_READS: MonitorReads<AdminMonitorRow> = monitorReads('administrative_monitors');

/**
 * A save of the NUP brought `news` new tramitações: each ATIVO monitor of the NUP counts them, and the
 * audience of their event is returned (empty: nobody follows it, no event).
 */
export async function countNews(trx: Transaction<DB>, nup: string, news: number, now: string): Promise<Audience[]> {
  const monitors = await trx
    .selectFrom('administrative_monitors')
    .select(['id', 'account_id', 'webhook_url'])
    .where('nup', '=', nup)
    .where('status', '=', 'ATIVO')
    .execute();
  if (monitors.length === 0) return [];
  await trx
    .updateTable('administrative_monitors')
    .set((eb) => ({ novidades: eb('novidades', '+', news), atualizado_em: now }))
    .where('nup', '=', nup)
    .where('status', '=', 'ATIVO')
    .execute();
  return monitors.map((m) => ({ accountId: m.account_id, monitorType: MONITOR_TYPE, monitorId: m.id, webhookUrl: m.webhook_url }));
}
