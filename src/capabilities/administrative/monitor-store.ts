/**
 * The `administrative_monitors` table (spec §4.8 `processos-administrativos`) and the view
 * integrators get. Lifecycle as case monitors: ATIVO → SUSPENSO (a renewal was not paid) → ATIVO
 * again when created again; REMOVIDO (DELETE) is final and the row stays readable (spec §3.2).
 */
import type { Kysely, Transaction } from 'kysely';
import { toBrl } from '../../platform/billing/prices.ts';
import { scheduleFieldsOf } from '../../platform/monitoring/schemas.ts';
import type { AdministrativeMonitorsTable, DB } from '../../platform/db/schema.ts';
import { formatNup } from '../../platform/identifiers/nup.ts';
import { pageOfMonitors } from '../../platform/monitoring/tables.ts';
import { AdminMonitorShape } from './schemas.ts';

export type AdminMonitorRow = AdministrativeMonitorsTable;
type Db = Kysely<DB> | Transaction<DB>;

/** The `monitor_type` of feed rows and deliveries. */
export const MONITOR_TYPE = 'processo_administrativo';

export async function findAdminMonitor(db: Db, accountId: string, id: string): Promise<AdminMonitorRow | undefined> {
  return db.selectFrom('administrative_monitors').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
}

export async function listAdminMonitors(
  db: Db,
  accountId: string,
  f: { status?: AdminMonitorRow['status']; limit: number; before?: { criadoEm: string; id: string } },
): Promise<AdminMonitorRow[]> {
  return pageOfMonitors(db, 'administrative_monitors', 'REMOVIDO', accountId, f);
}

/** The monitor as integrators see it (its twins: AdminMonitorShape); next check and charge times only while it is ATIVO. */
export function adminMonitorView(m: AdminMonitorRow) {
  return AdminMonitorShape.present({
    id: m.id,
    nup: formatNup(m.nup),
    frequencia: m.frequencia,
    webhookUrl: m.webhook_url,
    status: m.status,
    situacao: m.situacao,
    preco: toBrl(m.preco_centavos),
    verificacoes: m.verificacoes,
    novidades: m.novidades,
    ...scheduleFieldsOf(m),
    atualizadoEm: m.atualizado_em,
    removidoEm: m.removido_em,
  });
}
