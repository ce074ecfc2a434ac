/**
 * Creating, reactivating and removing administrative-process monitors. A paid creation and its
 * charge (OperationContext.chargeIn) are one transaction: a debit that fails leaves no monitor. The
 * same rules as case monitors (monitors/lifecycle.ts): the account's live monitor of the NUP is
 * returned (free) with a changed webhook_url or frequency applied; a SUSPENSO one is reactivated
 * (charged, a new period); a concurrent create pays once.
 */
import type { Transaction } from 'kysely';
import { addMs, iso } from '../../platform/clock.ts';
import type { DB, MonitorFrequency } from '../../platform/db/schema.ts';
import { newId } from '../../platform/ids.ts';
import { DEFAULT_FREQUENCY, frequencyMs, RENEWAL_PERIOD_MS } from '../../platform/monitoring/frequency.ts';
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
      const set = {
        status: 'ATIVO', periodo: live.periodo + 1, preco_centavos: r.priceCentavos, ultimo_erro: null,
        webhook_url: r.webhookUrl !== undefined ? r.webhookUrl : live.webhook_url, frequencia: r.frequencia ?? live.frequencia,
        proxima_verificacao_em: iso(now), proxima_cobranca_em: iso(addMs(now, RENEWAL_PERIOD_MS)), atualizado_em: iso(now),
      } as const;
      await trx.updateTable('administrative_monitors').set(set).where('id', '=', live.id).execute();
      const monitor = { ...live, ...set };
      await r.charge(trx, monitor);
      return { kind: 'reactivated', monitor };
    }
    const monitor: AdminMonitorRow = {
      id: newId('mpa'), account_id: r.accountId, nup: r.nup, webhook_url: r.webhookUrl ?? null, frequencia: r.frequencia ?? DEFAULT_FREQUENCY,
      status: 'ATIVO', situacao: 'PENDENTE', preco_centavos: r.priceCentavos, verificacoes: 0, novidades: 0, ultima_verificacao_em: null,
      // Checked at the next cycle; paid for one period from now.
      proxima_verificacao_em: iso(now), proxima_cobranca_em: iso(addMs(now, RENEWAL_PERIOD_MS)), periodo: 1, ultimo_erro: null,
      criado_em: iso(now), atualizado_em: iso(now), removido_em: null,
    };
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
    const now = iso(s.clock.now());
    const set = { status: 'REMOVIDO', removido_em: now, atualizado_em: now } as const;
    await trx.updateTable('administrative_monitors').set(set).where('id', '=', id).execute();
    return { ...m, ...set };
  });
}

async function applyChanges(s: Services, trx: Transaction<DB>, live: AdminMonitorRow, r: AdminMonitorRequest): Promise<AdminMonitorRow> {
  const set: Partial<AdminMonitorRow> = {};
  if (r.webhookUrl !== undefined && r.webhookUrl !== live.webhook_url) set.webhook_url = r.webhookUrl;
  if (r.frequencia !== undefined && r.frequencia !== live.frequencia) {
    set.frequencia = r.frequencia;
    if (live.ultima_verificacao_em) set.proxima_verificacao_em = iso(addMs(new Date(live.ultima_verificacao_em), frequencyMs(r.frequencia, s.config.monitorIntervalMs)));
  }
  if (Object.keys(set).length === 0) return live;
  set.atualizado_em = iso(s.clock.now());
  await trx.updateTable('administrative_monitors').set(set).where('id', '=', live.id).execute();
  return { ...live, ...set };
}
