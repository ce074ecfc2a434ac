/**
 * The `case_monitors` table (spec §4.8) and what hangs off a row: its subscription to the case's
 * topic (so `nova_movimentacao` reaches it whoever's query or check found the news), the audience of
 * its own status events, and the view integrators get.
 * Lifecycle: ATIVO → SUSPENSO (a renewal was not paid) → ATIVO again when re-created; REMOVIDO is final
 * (the row stays readable: spec §3.2, "a physical deletion must not be assumed").
 */
import { pageOfMonitors } from '../../platform/monitoring/tables.ts';
import type { Kysely, Transaction } from 'kysely';
import { toBrl } from '../../platform/billing/prices.ts';
import { scheduleFieldsOf } from '../../platform/monitoring/schemas.ts';
import type { Clock } from '../../platform/clock.ts';
import type { CaseMonitorsTable, DB } from '../../platform/db/schema.ts';
import type { Audience } from '../../platform/events/log.ts';
import { caseTopic, subscribe } from '../../platform/events/subscriptions.ts';
import { formatCnj } from '../../platform/identifiers/cnj.ts';
import { MonitorShape } from './schemas.ts';

export type MonitorRow = CaseMonitorsTable;
export type MonitorStatus = MonitorRow['status'];
type Db = Kysely<DB> | Transaction<DB>;

/** The `monitor_type` of subscriptions, feed rows and deliveries. */
export const MONITOR_TYPE = 'processo';

/** The account's monitor, whatever its status; undefined for an unknown id or another account's. */
export async function findMonitor(db: Db, accountId: string, id: string): Promise<MonitorRow | undefined> {
  return db.selectFrom('case_monitors').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
}

/** A page of the account's monitors, newest first; `before` is the last row of the previous page. */
export async function listMonitors(
  db: Db,
  accountId: string,
  f: { status?: MonitorStatus; limit: number; before?: { criadoEm: string; id: string } },
): Promise<MonitorRow[]> {
  return pageOfMonitors(db, 'case_monitors', 'REMOVIDO', accountId, f);
}

/** Movement news of the case reach the monitor (and its webhook_url) from now on; re-subscribing updates it. */
export async function subscribeMonitor(trx: Db, clock: Clock, m: Pick<MonitorRow, 'id' | 'account_id' | 'numero_cnj' | 'webhook_url'>): Promise<void> {
  await subscribe(trx, clock, {
    accountId: m.account_id,
    topic: caseTopic(m.numero_cnj),
    monitorType: MONITOR_TYPE,
    monitorId: m.id,
    kinds: ['nova_movimentacao'],
    webhookUrl: m.webhook_url,
  });
}

/** Who hears the monitor's own status events: its account, through this monitor (and its webhook_url). */
export function monitorAudience(m: Pick<MonitorRow, 'id' | 'account_id' | 'webhook_url'>): Audience[] {
  return [{ accountId: m.account_id, monitorType: MONITOR_TYPE, monitorId: m.id, webhookUrl: m.webhook_url }];
}

/** The monitor as integrators see it (its twins: MonitorShape); next check and charge times only while it is ATIVO. */
export function monitorView(m: MonitorRow) {
  return MonitorShape.present({
    id: m.id,
    numeroCnj: formatCnj(m.numero_cnj),
    tribunal: m.tribunal,
    frequencia: m.frequencia,
    webhookUrl: m.webhook_url,
    status: m.status,
    situacao: m.situacao,
    preco: toBrl(m.preco_centavos),
    verificacoes: m.verificacoes,
    novidades: m.novidades,
    ...scheduleFieldsOf(m),
    removidoEm: m.removido_em,
    atualizadoEm: m.atualizado_em,
  });
}
