/**
 * The life of every paid monitor (case, administrative, publication and intimação monitors, radars),
 * driven by the plan its capability gives: create (or return the live one, or reactivate a suspended
 * one), change, remove. The plan names the table, the key that makes a monitor "the same" for an
 * account, the kind's own columns and its extra writes (a subscription); the price comes with each ask.
 * Each change and what the plan writes with it are one transaction, and so is the charge of a created
 * or reactivated monitor: a debit that fails leaves no monitor behind.
 * Lifecycle: ATIVO → SUSPENSO (a renewal was not paid, renewal.ts) → ATIVO again when created again;
 * the removal (REMOVIDO, or DESATIVADO for radars) is final and the row stays readable (spec §3.2).
 */
import type { Transaction } from 'kysely';
import { addMs, iso } from '../clock.ts';
import type { DB, MonitorFrequency } from '../db/schema.ts';
import type { Services } from '../services.ts';
import { DEFAULT_FREQUENCY, frequencyMs, RENEWAL_PERIOD_MS } from './frequency.ts';
import type { RenewalPlan } from './renewal.ts';
import { paidMonitors, type PaidMonitorRow } from './tables.ts';

/** What every create asks: undefined keeps (or defaults), a null webhook_url removes it. */
export interface MonitorAsk {
  accountId: string;
  webhookUrl?: string | null;
  priceCentavos: number;
}

/** What a create did: `existing` (the account's live monitor, changes applied) is free; `created` and `reactivated` start a paid period. */
export interface Creation<R> {
  kind: 'existing' | 'created' | 'reactivated';
  monitor: R;
}

/** The status a create answers: 201 for a new monitor, 200 for a returned or reactivated one. */
export const creationStatus = (c: Creation<unknown>): 200 | 201 => (c.kind === 'created' ? 201 : 200);

/** Charges a created or reactivated monitor in the creation's transaction (throws, and so rolls it back, when the balance is short). */
export type ChargeCreation<R> = (trx: Transaction<DB>, creation: Creation<R>) => Promise<void>;

export interface MonitorPlan<R extends PaidMonitorRow, A extends MonitorAsk> extends RenewalPlan<R> {
  /** The final status and its time column. */
  removed: { status: 'REMOVIDO'; at: 'removido_em' } | { status: 'DESATIVADO'; at: 'desativado_em' };
  /**
   * The columns that make two creates "the same monitor" for an account (a partial unique index keeps
   * one live row per key); absent, every create is a new monitor (radars).
   */
  key?(ask: A): Record<string, string>;
  /** A new row: ATIVO, in its first period, paid for one period from now. */
  newRow(ask: A, now: Date, s: Services): R;
  /** The kind's own columns a change may set besides `webhook_url` (frequency, courts…); empty when none changes. */
  changes?(live: R, ask: Partial<A>, s: Services): Partial<R>;
  /** The kind's own columns a reactivation sets besides the shared ones (reactivation()). */
  reactivation?(suspended: R, ask: A, now: Date): Partial<R>;
  /** More to write with a created, reactivated or changed monitor (`set`: what a change changed), in its transaction. */
  written?(trx: Transaction<DB>, monitor: R, s: Services, ask: Partial<A>, set?: Partial<R>): Promise<void>;
  /** More to undo with the removal, in its transaction. */
  onRemove?(trx: Transaction<DB>, monitor: R): Promise<void>;
}

/** What most monitors are, so a plan names only where it differs: periods stamp `atualizado_em`, a suspension waits for a new create, removal is REMOVIDO. */
const MONITOR_DEFAULTS = { stampsPeriod: true, suspension: 'until-created-again', removed: { status: 'REMOVIDO', at: 'removido_em' } } as const;

type Defaulted = keyof typeof MONITOR_DEFAULTS;

/** A plan with the defaults above where it says nothing. */
export function monitorPlan<R extends PaidMonitorRow, A extends MonitorAsk>(
  plan: Omit<MonitorPlan<R, A>, Defaulted> & Partial<Pick<MonitorPlan<R, A>, Defaulted>>,
): MonitorPlan<R, A> {
  return { ...MONITOR_DEFAULTS, ...plan };
}

/** The account's live monitor of the key (changes applied, free), a SUSPENSO one reactivated, or a new one; the created and reactivated ones charged. */
export async function createMonitor<R extends PaidMonitorRow, A extends MonitorAsk>(
  s: Services,
  plan: MonitorPlan<R, A>,
  ask: A,
  charge?: ChargeCreation<R>,
): Promise<Creation<R>> {
  return s.db.transaction().execute(async (trx) => {
    const creation = await createMonitorIn(s, trx, plan, ask);
    if (creation.kind !== 'existing') await charge?.(trx, creation);
    return creation;
  });
}

/** createMonitor in the caller's transaction, which charges (several creates paid at once: intimações by OAB). */
export async function createMonitorIn<R extends PaidMonitorRow, A extends MonitorAsk>(
  s: Services,
  trx: Transaction<DB>,
  plan: MonitorPlan<R, A>,
  ask: A,
): Promise<Creation<R>> {
  const now = s.clock.now();
  const live = await findLive(trx, plan, ask);
  if (live?.status === 'ATIVO') return { kind: 'existing', monitor: await applyChanges(s, trx, plan, live, ask) };
  if (live) {
    const set = { ...reactivation(live, ask, now), ...plan.reactivation?.(live, ask, now) } as Partial<R>;
    await paidMonitors(trx).updateTable(plan.table).set(set).where('id', '=', live.id).execute();
    const monitor = { ...live, ...set };
    await plan.written?.(trx, monitor, s, ask);
    return { kind: 'reactivated', monitor };
  }
  const monitor = plan.newRow(ask, now, s);
  const inserted = await paidMonitors(trx)
    .insertInto(plan.table)
    .values(monitor)
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) !== 1) {
    // A concurrent request created it between our read and our insert: that one pays, this one is free.
    const winner = await findLive(trx, plan, ask);
    if (!winner) throw new Error(`${plan.label} ${monitor.id} conflicted but no live one can be read`);
    return { kind: 'existing', monitor: winner };
  }
  await plan.written?.(trx, monitor, s, ask);
  return { kind: 'created', monitor };
}

/** Applies a change of `webhook_url` or the kind's own columns (free); the caller refuses a removed monitor. */
export async function updateMonitor<R extends PaidMonitorRow, A extends MonitorAsk>(s: Services, plan: MonitorPlan<R, A>, m: R, ask: Partial<A>): Promise<R> {
  return s.db.transaction().execute((trx) => applyChanges(s, trx, plan, m, ask));
}

/** Removed (final): checks, charges and events stop; the row stays readable. Removing it again returns it unchanged. */
export async function removeMonitor<R extends PaidMonitorRow, A extends MonitorAsk>(s: Services, plan: MonitorPlan<R, A>, m: R): Promise<R> {
  if (m.status === plan.removed.status) return m;
  const now = iso(s.clock.now());
  const set = { status: plan.removed.status, [plan.removed.at]: now, atualizado_em: now };
  return s.db.transaction().execute(async (trx) => {
    // A concurrent removal already did it: same outcome.
    const r = await paidMonitors(trx).updateTable(plan.table).set(set).where('id', '=', m.id).where('status', '<>', plan.removed.status).executeTakeFirst();
    if (Number(r.numUpdatedRows) === 1) await plan.onRemove?.(trx, m);
    return ((await paidMonitors(trx).selectFrom(plan.table).selectAll().where('id', '=', m.id).executeTakeFirst()) ?? { ...m, ...set }) as R;
  });
}

/** removeMonitor of the account's monitor `id`; undefined for an unknown id or another account's. */
export async function removeOwnMonitor<R extends PaidMonitorRow, A extends MonitorAsk>(
  s: Services,
  plan: MonitorPlan<R, A>,
  accountId: string,
  id: string,
): Promise<R | undefined> {
  const m = await paidMonitors(s.db).selectFrom(plan.table).selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
  return m && removeMonitor(s, plan, m as R);
}

/** The account's one monitor of the ask's key that is not removed; none for a plan without a key. */
async function findLive<R extends PaidMonitorRow, A extends MonitorAsk>(trx: Transaction<DB>, plan: MonitorPlan<R, A>, ask: A): Promise<R | undefined> {
  if (!plan.key) return undefined;
  let q = paidMonitors(trx).selectFrom(plan.table).selectAll().where('account_id', '=', ask.accountId).where('status', '<>', plan.removed.status);
  for (const [column, value] of Object.entries(plan.key(ask))) q = q.where(column as 'id', '=', value);
  return (await q.executeTakeFirst()) as R | undefined;
}

async function applyChanges<R extends PaidMonitorRow, A extends MonitorAsk>(
  s: Services,
  trx: Transaction<DB>,
  plan: MonitorPlan<R, A>,
  live: R,
  ask: Partial<A>,
): Promise<R> {
  const set: Partial<R> = plan.changes?.(live, ask, s) ?? {};
  if (ask.webhookUrl !== undefined && ask.webhookUrl !== live.webhook_url) set.webhook_url = ask.webhookUrl;
  if (Object.keys(set).length === 0) return live;
  set.atualizado_em = iso(s.clock.now());
  await paidMonitors(trx).updateTable(plan.table).set(set).where('id', '=', live.id).execute();
  const monitor = { ...live, ...set };
  await plan.written?.(trx, monitor, s, ask, set);
  return monitor;
}

/** What every reactivation sets: a new paid period at today's price, the error cleared, checked at the next cycle. */
function reactivation(suspended: PaidMonitorRow, ask: MonitorAsk, now: Date) {
  return {
    status: 'ATIVO',
    periodo: suspended.periodo + 1,
    preco_centavos: ask.priceCentavos,
    ultimo_erro: null,
    webhook_url: ask.webhookUrl !== undefined ? ask.webhookUrl : suspended.webhook_url,
    proxima_verificacao_em: iso(now),
    proxima_cobranca_em: iso(addMs(now, RENEWAL_PERIOD_MS)),
    atualizado_em: iso(now),
  } as const;
}

// ---- monitors checked at a frequency (case and administrative monitors) ---------------------------

/** The columns of a monitor checked at a chosen frequency, with counters of its checks. */
export interface ScheduledRow extends PaidMonitorRow {
  frequencia: MonitorFrequency;
  ultima_verificacao_em: string | null;
}

export interface ScheduledAsk extends MonitorAsk {
  /** undefined: keep (or DIARIA for a new monitor). */
  frequencia?: MonitorFrequency;
}

/** A new scheduled monitor's state: ATIVO, checked at the next cycle, paid for one period from now. */
export function newScheduledState(ask: ScheduledAsk, now: Date) {
  return {
    webhook_url: ask.webhookUrl ?? null,
    frequencia: ask.frequencia ?? DEFAULT_FREQUENCY,
    status: 'ATIVO',
    situacao: 'PENDENTE',
    preco_centavos: ask.priceCentavos,
    verificacoes: 0,
    novidades: 0,
    ultima_verificacao_em: null,
    proxima_verificacao_em: iso(now),
    proxima_cobranca_em: iso(addMs(now, RENEWAL_PERIOD_MS)),
    periodo: 1,
    ultimo_erro: null,
    criado_em: iso(now),
    atualizado_em: iso(now),
    removido_em: null,
  } as const;
}

/** The plan parts of a scheduled monitor: a change or reactivation may bring a new frequency. */
export const scheduledColumns = {
  changes(live: ScheduledRow, ask: Partial<ScheduledAsk>, s: Services): { frequencia?: MonitorFrequency; proxima_verificacao_em?: string } {
    if (ask.frequencia === undefined || ask.frequencia === live.frequencia) return {};
    // Counted from the last check; a monitor not yet checked is due already.
    const last = live.ultima_verificacao_em;
    return {
      frequencia: ask.frequencia,
      ...(last ? { proxima_verificacao_em: iso(addMs(new Date(last), frequencyMs(ask.frequencia, s.config.monitorIntervalMs))) } : {}),
    };
  },
  reactivation: (suspended: ScheduledRow, ask: ScheduledAsk): { frequencia: MonitorFrequency } => ({ frequencia: ask.frequencia ?? suspended.frequencia }),
};
