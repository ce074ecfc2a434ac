/**
 * The `publication_monitors` table, shared by intimação monitors (/v1/intimacoes/oab, origin
 * INTIMACOES) and publication monitors (/v1/monitoramentos/publicacoes, origin PUBLICACOES): create,
 * reactivate, update, remove, read and list. What a monitor follows is `tipo` + `valor` (SP123456, the
 * folded term, 20 digits); the ingest (ingest.ts) matches every new publication against all live ones.
 * Lifecycle: ATIVO → SUSPENSO (a renewal was not paid) → ATIVO again when created again; REMOVIDO is
 * final and nothing is physically deleted (spec §3.2). Every change of status or filters stamps
 * `atualizado_em`: the matcher (monitor-index.ts) is rebuilt when it moves.
 */
import type { Kysely, Transaction } from 'kysely';
import { toBrl } from '../../platform/billing/prices.ts';
import { addMs, iso } from '../../platform/clock.ts';
import { brasiliaDay } from '../../platform/format.ts';
import type { DB, PublicationMonitorOrigin, PublicationMonitorsTable, PublicationMonitorType } from '../../platform/db/schema.ts';
import { ApiError } from '../../platform/errors.ts';
import { formatCnj } from '../../platform/identifiers/cnj.ts';
import { newId } from '../../platform/ids.ts';
import { RENEWAL_PERIOD_MS } from '../../platform/monitoring/frequency.ts';
import type { Services } from '../../platform/services.ts';
import { checkWebhookUrl } from '../../platform/webhooks/url-guard.ts';
import { requireCourtSigla } from '../../platform/courts/table.ts';
import { eventKindFor } from './ingest.ts';

/** A monitor hears publications from the day it is created, a gazette day: the day in Brasília (at 22:00 there it is already tomorrow in UTC). */
const creationDay = (now: Date): string => brasiliaDay(iso(now))!;

export type PublicationMonitorRow = PublicationMonitorsTable;
export type PublicationMonitorStatus = PublicationMonitorRow['status'];
type Db = Kysely<DB> | Transaction<DB>;

/** The price table's query type of each origin: charged at creation and at each 30-day renewal. */
export const MONITOR_QUERY_TYPES: Record<PublicationMonitorOrigin, string> = {
  INTIMACOES: 'intimacoes.monitor_oab',
  PUBLICACOES: 'monitor.publicacoes',
};

const ID_PREFIX: Record<PublicationMonitorOrigin, string> = { INTIMACOES: 'int', PUBLICACOES: 'pmon' };

/** What a monitor follows: `valor` is the canonical key, `termo` what the integrator wrote (or its display form). */
export interface MonitorTarget {
  tipo: PublicationMonitorType;
  valor: string;
  termo: string;
}

/** The changes a create (of a live monitor) or an update may bring; undefined keeps, null removes. */
export interface MonitorChanges {
  webhookUrl?: string | null;
  /** Validated siglas (courtFilter); null: every court. */
  tribunais?: string[] | null;
  /** Validated sources (sourceFilter); null: every source. */
  fontes?: string[] | null;
}

export interface MonitorRequest extends MonitorChanges {
  accountId: string;
  origem: PublicationMonitorOrigin;
  target: MonitorTarget;
  priceCentavos: number;
}

/** What a create did: `existing` is free (`reused`); `created` and `reactivated` start a paid period. */
export interface Creation {
  kind: 'existing' | 'created' | 'reactivated';
  monitor: PublicationMonitorRow;
}

/** Court siglas of a request, validated (422 UNKNOWN_COURT naming the item), deduplicated; empty means every court (null). */
export function courtFilter(siglas: readonly string[] | null | undefined, field = 'tribunais'): string[] | null | undefined {
  if (siglas === undefined || siglas === null) return siglas;
  const courts = [...new Set(siglas.map((s, i) => requireCourtSigla(s.trim(), `${field}.${i}`).sigla))].sort();
  return courts.length === 0 ? null : courts;
}

/**
 * A request's `webhook_url`: HTTPS and public (400 INVALID_WEBHOOK_URL), normalized; undefined keeps,
 * null removes. Deliveries are signed with the account's secret, so the account gets one now.
 */
export async function webhookUrlOf(s: Services, accountId: string, raw: string | null | undefined): Promise<string | null | undefined> {
  if (typeof raw !== 'string') return raw;
  const url = (await checkWebhookUrl(raw, { allowPrivate: s.config.webhookAllowPrivate, field: 'webhook_url' })).href;
  await s.webhooks.configs.ensure(accountId);
  return url;
}

/**
 * Each request in `trx`: the account's live monitor of the same origin and target (changes applied,
 * free), a SUSPENSO one reactivated, or a new one. The caller charges the created and reactivated
 * ones in the same transaction, so a failed debit leaves none of them behind.
 */
export async function createMonitorIn(s: Services, trx: Transaction<DB>, r: MonitorRequest): Promise<Creation> {
  const live = await findLiveMonitor(trx, r.accountId, r.origem, r.target);
  if (live?.status === 'ATIVO') return { kind: 'existing', monitor: await applyChanges(s, trx, live, r) };
  if (live) return { kind: 'reactivated', monitor: await reactivate(s, trx, live, r) };
  const monitor = newMonitor(s, r);
  const inserted = await trx.insertInto('publication_monitors').values(monitor).onConflict((oc) => oc.doNothing()).executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return { kind: 'created', monitor };
  // A concurrent request created it between our read and our insert: that one pays, this one is free.
  const winner = await findLiveMonitor(trx, r.accountId, r.origem, r.target);
  if (!winner) throw new Error(`publication monitor ${r.target.tipo}:${r.target.valor} conflicted but cannot be read`);
  return { kind: 'existing', monitor: winner };
}

/** The account's monitor of this origin, whatever its status; undefined for an unknown id or another account's. */
export async function findMonitor(db: Db, accountId: string, origem: PublicationMonitorOrigin, id: string): Promise<PublicationMonitorRow | undefined> {
  return db.selectFrom('publication_monitors').selectAll().where('id', '=', id).where('account_id', '=', accountId).where('origem', '=', origem).executeTakeFirst();
}

/** The account's one monitor of this target that is not REMOVIDO (a partial unique index keeps it one). */
export async function findLiveMonitor(db: Db, accountId: string, origem: PublicationMonitorOrigin, target: Pick<MonitorTarget, 'tipo' | 'valor'>): Promise<PublicationMonitorRow | undefined> {
  return db.selectFrom('publication_monitors').selectAll().where('account_id', '=', accountId).where('origem', '=', origem)
    .where('tipo', '=', target.tipo).where('valor', '=', target.valor).where('status', '<>', 'REMOVIDO').executeTakeFirst();
}

/** The account's most recently removed monitor of this target (a removal repeated, or an update too late). */
export async function findRemovedMonitor(db: Db, accountId: string, origem: PublicationMonitorOrigin, target: Pick<MonitorTarget, 'tipo' | 'valor'>): Promise<PublicationMonitorRow | undefined> {
  return db.selectFrom('publication_monitors').selectAll().where('account_id', '=', accountId).where('origem', '=', origem)
    .where('tipo', '=', target.tipo).where('valor', '=', target.valor).where('status', '=', 'REMOVIDO')
    .orderBy('removido_em', 'desc').orderBy('id', 'desc').executeTakeFirst();
}

/** Live monitors of the account among these values of one type (reading by OAB). */
export async function liveMonitorsOf(db: Db, accountId: string, origem: PublicationMonitorOrigin, tipo: PublicationMonitorType, valores: readonly string[]): Promise<PublicationMonitorRow[]> {
  if (valores.length === 0) return [];
  return db.selectFrom('publication_monitors').selectAll().where('account_id', '=', accountId).where('origem', '=', origem)
    .where('tipo', '=', tipo).where('valor', 'in', valores).where('status', '<>', 'REMOVIDO').execute();
}

export type MonitorPosition = { criadoEm: string; id: string };

/** A page of the account's monitors of one origin, newest first; absent `status`: the live ones (ATIVO and SUSPENSO). */
export async function listMonitors(db: Db, accountId: string, origem: PublicationMonitorOrigin, f: { status?: PublicationMonitorStatus; limit: number; before?: MonitorPosition }): Promise<PublicationMonitorRow[]> {
  let q = db.selectFrom('publication_monitors').selectAll().where('account_id', '=', accountId).where('origem', '=', origem);
  q = f.status ? q.where('status', '=', f.status) : q.where('status', '<>', 'REMOVIDO');
  if (f.before) {
    const { criadoEm, id } = f.before;
    q = q.where((eb) => eb.or([eb('criado_em', '<', criadoEm), eb.and([eb('criado_em', '=', criadoEm), eb('id', '<', id)])]));
  }
  return q.orderBy('criado_em', 'desc').orderBy('id', 'desc').limit(f.limit).execute();
}

/** Applies a webhook or court change (free); a REMOVIDO monitor cannot change (422 MONITOR_DEACTIVATED). */
export async function updateMonitor(s: Services, m: PublicationMonitorRow, changes: MonitorChanges): Promise<PublicationMonitorRow> {
  if (m.status === 'REMOVIDO') throw deactivated(m);
  return s.db.transaction().execute((trx) => applyChanges(s, trx, m, changes));
}

/** Status REMOVIDO: checks, charges and events stop; the row stays readable. Removing it again returns it unchanged. */
export async function removeMonitor(s: Services, m: PublicationMonitorRow): Promise<PublicationMonitorRow> {
  if (m.status === 'REMOVIDO') return m;
  const now = iso(s.clock.now());
  const set = { status: 'REMOVIDO', removido_em: now, atualizado_em: now } as const;
  // A concurrent removal already did it: same outcome.
  await s.db.updateTable('publication_monitors').set(set).where('id', '=', m.id).where('status', '<>', 'REMOVIDO').execute();
  return (await s.db.selectFrom('publication_monitors').selectAll().where('id', '=', m.id).executeTakeFirst()) ?? { ...m, ...set };
}

export function deactivated(m: PublicationMonitorRow): ApiError {
  return new ApiError('MONITOR_DEACTIVATED', `Monitor "${m.id}" was removed at ${m.removido_em}: its matches stay readable, but it can no longer change. Create a new one.`, { id: m.id });
}

/** The monitor as integrators see it; next check and charge times only while it is ATIVO. */
export function monitorView(m: PublicationMonitorRow) {
  const active = m.status === 'ATIVO';
  return {
    id: m.id, origem: m.origem, tipo: m.tipo, termo: m.termo,
    oab: m.tipo === 'OAB' ? m.valor : null,
    numeroCnj: m.tipo === 'PROCESSO' ? formatCnj(m.valor) : null,
    tribunais: m.tribunais === null ? null : JSON.parse(m.tribunais) as string[],
    fontes: m.fontes === null ? null : JSON.parse(m.fontes) as string[],
    webhookUrl: m.webhook_url, evento: eventKindFor(m), status: m.status, preco: toBrl(m.preco_centavos),
    desde: m.desde, publicacoes: m.publicacoes, ultimaVerificacaoEm: m.ultima_verificacao_em,
    proximaVerificacaoEm: active ? m.proxima_verificacao_em : null, proximaCobrancaEm: active ? m.proxima_cobranca_em : null,
    ultimoErro: m.ultimo_erro, criadoEm: m.criado_em, atualizadoEm: m.atualizado_em, removidoEm: m.removido_em,
  };
}

function newMonitor(s: Services, r: MonitorRequest): PublicationMonitorRow {
  const now = s.clock.now();
  return {
    id: newId(ID_PREFIX[r.origem]), account_id: r.accountId, origem: r.origem, tipo: r.target.tipo, valor: r.target.valor, termo: r.target.termo,
    tribunais: courtsColumn(r.tribunais), fontes: courtsColumn(r.fontes), webhook_url: r.webhookUrl ?? null, status: 'ATIVO', preco_centavos: r.priceCentavos, periodo: 1,
    // Paid for one period from now; checked at the next cycle. Publications before today are history, not news.
    proxima_cobranca_em: iso(addMs(now, RENEWAL_PERIOD_MS)), desde: creationDay(now), publicacoes: 0,
    ultima_verificacao_em: null, proxima_verificacao_em: iso(now), ultimo_erro: null, criado_em: iso(now), atualizado_em: iso(now), removido_em: null,
  };
}

/** A suspended monitor created again: a new paid period at today's price, news from today on, checked at the next cycle. */
async function reactivate(s: Services, trx: Transaction<DB>, suspended: PublicationMonitorRow, r: MonitorRequest): Promise<PublicationMonitorRow> {
  const now = s.clock.now();
  const set = {
    status: 'ATIVO', periodo: suspended.periodo + 1, preco_centavos: r.priceCentavos, ultimo_erro: null, termo: r.target.termo,
    webhook_url: r.webhookUrl !== undefined ? r.webhookUrl : suspended.webhook_url,
    tribunais: r.tribunais !== undefined ? courtsColumn(r.tribunais) : suspended.tribunais,
    fontes: r.fontes !== undefined ? courtsColumn(r.fontes) : suspended.fontes,
    // What was published while it was suspended is history: the integrator did not pay for those days.
    desde: creationDay(now), proxima_verificacao_em: iso(now), proxima_cobranca_em: iso(addMs(now, RENEWAL_PERIOD_MS)), atualizado_em: iso(now),
  } as const;
  await trx.updateTable('publication_monitors').set(set).where('id', '=', suspended.id).execute();
  return { ...suspended, ...set };
}

async function applyChanges(s: Services, trx: Transaction<DB>, m: PublicationMonitorRow, c: MonitorChanges): Promise<PublicationMonitorRow> {
  const set: Partial<PublicationMonitorRow> = {};
  if (c.webhookUrl !== undefined && c.webhookUrl !== m.webhook_url) set.webhook_url = c.webhookUrl;
  if (c.tribunais !== undefined && courtsColumn(c.tribunais) !== m.tribunais) set.tribunais = courtsColumn(c.tribunais);
  if (c.fontes !== undefined && courtsColumn(c.fontes) !== m.fontes) set.fontes = courtsColumn(c.fontes);
  if (Object.keys(set).length === 0) return m;
  set.atualizado_em = iso(s.clock.now());
  await trx.updateTable('publication_monitors').set(set).where('id', '=', m.id).execute();
  return { ...m, ...set };
}

/** A JSON list column (courts, sources); null for every one. */
function courtsColumn(list: string[] | null | undefined): string | null {
  return list ? JSON.stringify(list) : null;
}
