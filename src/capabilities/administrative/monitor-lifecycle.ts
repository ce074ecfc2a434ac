/**
 * Creating, reactivating and removing administrative-process monitors. A paid creation and its
 * charge (OperationContext.chargeIn) are one transaction: a debit that fails leaves no monitor. The
 * same rules as case monitors (monitors/lifecycle.ts): the account's live monitor of the NUP is
 * returned (free) with a changed webhook_url or frequency applied; a SUSPENSO one is reactivated
 * (charged, a new period); a concurrent create pays once.
 */
import type { Transaction } from 'kysely';
import type { DB, MonitorFrequency } from '../../platform/db/schema.ts';
import { newId } from '../../platform/ids.ts';
import { newMonitorState, reactivation, removal, repeatedCreateChanges } from '../../platform/monitoring/lifecycle.ts';
import type { Services } from '../../platform/services.ts';
import { findAdminMonitor, findLiveAdminMonitor, type AdminMonitorRow } from './monitor-store.ts';

export interface AdminMonitorRequest {
  accountId: string;
  nup: string;
  /** undefined: keep (none for a new monitor); null: remove. */
  webhookUrl?: string | null;
  frequencia?: MonitorFrequency;
  priceCentavos: number;
  charge(trx: Transaction<DB>, monitor: AdminMonitorRow): Promise<void>;
}

export type AdminCreation = { kind: 'existing' | 'created' | 'reactivated'; monitor: AdminMonitorRow };

export async function createAdminMonitor(s: Services, r: AdminMonitorRequest): Promise<AdminCreation> {
  return s.db.transaction().execute(async (trx): Promise<AdminCreation> => {
    const now = s.clock.now();
    const live = await findLiveAdminMonitor(trx, r.accountId, r.nup);
    if (live?.status === 'ATIVO') return { kind: 'existing', monitor: await applyChanges(s, trx, live, r) };
    if (live) {
      const set = reactivation(live, r, now);
      await trx.updateTable('administrative_monitors').set(set).where('id', '=', live.id).execute();
      const monitor = { ...live, ...set };
      await r.charge(trx, monitor);
      return { kind: 'reactivated', monitor };
    }
    const monitor: AdminMonitorRow = { id: newId('mpa'), account_id: r.accountId, nup: r.nup, ...newMonitorState(r, now) };
    const inserted = await trx.insertInto('administrative_monitors').values(monitor).onConflict((oc) => oc.doNothing()).executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) !== 1) {
      // A concurrent request created it between our read and our insert: that one pays, this one is free.
      const winner = await findLiveAdminMonitor(trx, r.accountId, r.nup);
      if (!winner) throw new Error(`administrative monitor of ${r.nup} conflicted but cannot be read`);
      return { kind: 'existing', monitor: winner };
    }
    await r.charge(trx, monitor);
    return { kind: 'created', monitor };
  });
}

/** REMOVIDO: checks, charges and events stop at once. Removing again returns it unchanged; undefined for another account's. */
export async function removeAdminMonitor(s: Services, accountId: string, id: string): Promise<AdminMonitorRow | undefined> {
  return s.db.transaction().execute(async (trx) => {
    const m = await findAdminMonitor(trx, accountId, id);
    if (!m || m.status === 'REMOVIDO') return m;
    const set = removal(s.clock.now());
    await trx.updateTable('administrative_monitors').set(set).where('id', '=', id).execute();
    return { ...m, ...set };
  });
}

async function applyChanges(s: Services, trx: Transaction<DB>, live: AdminMonitorRow, r: AdminMonitorRequest): Promise<AdminMonitorRow> {
  const set = repeatedCreateChanges(live, r, s.config.monitorIntervalMs, s.clock.now());
  if (!set) return live;
  await trx.updateTable('administrative_monitors').set(set).where('id', '=', live.id).execute();
  return { ...live, ...set };
}
