/**
 * The `case_monitors` table (spec §4.8) and what hangs off a row: its subscription to the case's
 * topic (so `nova_movimentacao` reaches it whoever's query or check found the news), the audience of
 * its own status events, and the reads and writes of its checks and own schedules (check.ts,
 * court-pages.ts, schedules.ts). The view integrators get is present.ts.
 * Lifecycle: ATIVO → SUSPENSO (a renewal was not paid) → ATIVO again when re-created; REMOVIDO is final
 * (the row stays readable: spec §3.2, "a physical deletion must not be assumed").
 */
import type { Kysely, Transaction } from 'kysely';
import { addMs, iso, type Clock } from '../../platform/clock.ts';
import { inLists } from '../../platform/db/in-lists.ts';
import type { CaseMonitorsTable, DB } from '../../platform/db/schema.ts';
import type { Audience } from '../../platform/events/log.ts';
import { caseTopic, subscribe } from '../../platform/events/subscriptions.ts';
import { activeAccountIds } from '../../platform/monitoring/active-accounts.ts';
import { dueBy } from '../../platform/monitoring/checks.ts';
import { FREQUENCIES, frequencyMs } from '../../platform/monitoring/frequency.ts';
import { monitorReads, type MonitorReads } from '../../platform/monitoring/tables.ts';
import type { OwnSchedule } from './schedules.ts';

export type MonitorRow = CaseMonitorsTable;
export type MonitorStatus = MonitorRow['status'];
type Db = Kysely<DB> | Transaction<DB>;

/** The `monitor_type` of subscriptions, feed rows and deliveries. */
export const MONITOR_TYPE = 'processo';

/** The account's monitor by id, a page of its monitors, how many are live: the shape every monitor kind's store has. */
export const CASE_MONITOR_READS: MonitorReads<MonitorRow> = monitorReads('case_monitors');

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

/** `movimentos_total` of the stored cases among `numbers`: what a check compares before and after saving (check.ts). */
export async function movementTotals(db: Kysely<DB>, numbers: string[]): Promise<Map<string, number>> {
  const totals = new Map<string, number>();
  for (const part of inLists(numbers)) {
    const rows = await db.selectFrom('cases').select(['numero_cnj', 'movimentos_total']).where('numero_cnj', 'in', part).execute();
    for (const r of rows) totals.set(r.numero_cnj, r.movimentos_total);
  }
  return totals;
}

/** Up to `limit` distinct numbers of `court` whose page is due, the most overdue ('' = DJEN news) first (court-pages.ts). */
export async function pagesDue(db: Kysely<DB>, court: string, now: string, limit: number): Promise<string[]> {
  const rows: { numero_cnj: string }[] = await dueBy(db, 'case_monitors', 'proxima_pagina_em', now)
    .select('numero_cnj')
    .where('tribunal', '=', court)
    .limit(limit)
    .execute();
  return [...new Set(rows.map((r) => r.numero_cnj))];
}

/** A DJEN communication of the monitor's case arrived: its page is read first at the next cycle. */
export async function pageNews(trx: Transaction<DB>, monitorId: string): Promise<void> {
  await trx.updateTable('case_monitors').set({ proxima_pagina_em: '' }).where('id', '=', monitorId).execute();
}

/** Each ATIVO monitor of these numbers has `column` next one frequency (its own) from `now`: the numbers were just read (schedules.ts). */
export async function scheduleNext(trx: Transaction<DB>, column: OwnSchedule, numbers: readonly string[], intervalMs: number, now: Date): Promise<void> {
  for (const part of inLists(numbers)) {
    for (const frequencia of FREQUENCIES) {
      await trx
        .updateTable('case_monitors')
        .set({ [column]: iso(addMs(now, frequencyMs(frequencia, intervalMs))) })
        .where('numero_cnj', 'in', part)
        .where('status', '=', 'ATIVO')
        .where('frequencia', '=', frequencia)
        .execute();
    }
  }
}

/** What the publication monitors' matcher reads of case monitors changed when this moved: how many are live, the latest creation or removal. */
export async function caseMonitorsVersion(db: Kysely<DB>): Promise<{ key: string; created: string | null }> {
  const c = await db
    .selectFrom('case_monitors')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('criado_em').as('created'), eb.fn.max('removido_em').as('removed')])
    .where('status', '=', 'ATIVO')
    .executeTakeFirstOrThrow();
  return { key: `${c.n}:${c.created ?? ''}:${c.removed ?? ''}`, created: c.created ?? null };
}

/** The ATIVO case monitors of active accounts: the ones a DJEN communication of their case reaches. */
export async function activeCaseMonitors(db: Kysely<DB>): Promise<MonitorRow[]> {
  return db.selectFrom('case_monitors').selectAll().where('status', '=', 'ATIVO').where('account_id', 'in', activeAccountIds(db)).execute();
}
