/**
 * Creating, reactivating and removing case monitors (spec §4.8). Each change, the monitor's
 * subscription to its case and, for a paid creation, its charge (the runner's OperationContext.chargeIn)
 * are written in one transaction: a debit that fails leaves no monitor behind.
 */
import type { Transaction } from 'kysely';
import type { Court } from '../../platform/courts/table.ts';
import type { DB, MonitorFrequency } from '../../platform/db/schema.ts';
import { unsubscribe } from '../../platform/events/subscriptions.ts';
import type { Cnj } from '../../platform/identifiers/cnj.ts';
import { newId } from '../../platform/ids.ts';
import { newMonitorState, reactivation, removal, repeatedCreateChanges } from '../../platform/monitoring/lifecycle.ts';
import type { Services } from '../../platform/services.ts';
import { findLiveMonitor, findMonitor, insertMonitor, subscribeMonitor, type MonitorRow } from './store.ts';

export interface MonitorRequest {
  accountId: string;
  /** A case of a court with a DataJud index (the caller checked). */
  cnj: Cnj & { court: Court };
  /** undefined: keep (or none for a new monitor); null: remove. */
  webhookUrl?: string | null;
  /** undefined: keep (or DIARIA for a new monitor). */
  frequencia?: MonitorFrequency;
  priceCentavos: number;
  /** Charges a created or reactivated monitor inside the creation's transaction (throws when the balance is short). */
  charge?: (trx: Transaction<DB>, monitor: MonitorRow) => Promise<void>;
}

/** What a create request did: `existing` is free; `created` and `reactivated` are charged. */
export type Creation =
  | { kind: 'existing'; monitor: MonitorRow }
  | { kind: 'created' | 'reactivated'; monitor: MonitorRow };

/** The account's live monitor of the case (updated), a reactivated suspended one, or a new one. */
export async function createMonitor(s: Services, r: MonitorRequest): Promise<Creation> {
  return s.db.transaction().execute(async (trx): Promise<Creation> => {
    const live = await findLiveMonitor(trx, r.accountId, r.cnj.digits);
    if (live?.status === 'ATIVO') return { kind: 'existing', monitor: await applyChanges(s, trx, live, r) };
    if (live) {
      const monitor = await reactivate(s, trx, live, r);
      await r.charge?.(trx, monitor);
      return { kind: 'reactivated', monitor };
    }
    const monitor = newMonitor(s, r);
    if (!(await insertMonitor(trx, monitor))) {
      // A concurrent request created it between our read and our insert: that one pays, this one is free.
      const winner = await findLiveMonitor(trx, r.accountId, r.cnj.digits);
      if (!winner) throw new Error(`case monitor of ${r.cnj.digits} conflicted but cannot be read`);
      return { kind: 'existing', monitor: winner };
    }
    await subscribeMonitor(trx, s.clock, monitor);
    await r.charge?.(trx, monitor);
    return { kind: 'created', monitor };
  });
}

/**
 * Marks the monitor REMOVIDO and drops its subscription: checks and charges stop. Removing it again
 * returns it unchanged; undefined for an unknown id or another account's.
 */
export async function removeMonitor(s: Services, accountId: string, id: string): Promise<MonitorRow | undefined> {
  return s.db.transaction().execute(async (trx) => {
    const m = await findMonitor(trx, accountId, id);
    if (!m || m.status === 'REMOVIDO') return m;
    const set = removal(s.clock.now());
    await trx.updateTable('case_monitors').set(set).where('id', '=', id).execute();
    await unsubscribe(trx, id);
    return { ...m, ...set };
  });
}

function newMonitor(s: Services, r: MonitorRequest): MonitorRow {
  return {
    id: newId('mon'), account_id: r.accountId, numero_cnj: r.cnj.digits, tribunal: r.cnj.court.sigla, datajud_alias: r.cnj.court.datajudAlias!,
    ...newMonitorState(r, s.clock.now()),
  };
}

/** A repeated create may change the webhook_url or the frequency of the live monitor (free). */
async function applyChanges(s: Services, trx: Transaction<DB>, live: MonitorRow, r: MonitorRequest): Promise<MonitorRow> {
  const set = repeatedCreateChanges(live, r, s.config.monitorIntervalMs, s.clock.now());
  if (!set) return live;
  await trx.updateTable('case_monitors').set(set).where('id', '=', live.id).execute();
  const updated = { ...live, ...set };
  if (set.webhook_url !== undefined) await subscribeMonitor(trx, s.clock, updated);
  return updated;
}

/** A suspended monitor created again: a new paid period at today's price, checked at the next cycle. */
async function reactivate(s: Services, trx: Transaction<DB>, suspended: MonitorRow, r: MonitorRequest): Promise<MonitorRow> {
  const set = reactivation(suspended, r, s.clock.now());
  await trx.updateTable('case_monitors').set(set).where('id', '=', suspended.id).execute();
  const monitor = { ...suspended, ...set };
  await subscribeMonitor(trx, s.clock, monitor);
  return monitor;
}
