/**
 * The `publication_monitors` table, shared by intimação monitors (/v1/intimacoes/oab, origin
 * INTIMACOES) and publication monitors (/v1/monitoramentos/publicacoes, origin PUBLICACOES): their
 * inputs, reads, lists and view; creating, changing and removing them is the paid-monitor lifecycle
 * (monitor-lifecycle.ts). What a monitor follows is `tipo` + `valor` (SP123456, the
 * folded term, 20 digits); the ingest (ingest.ts) matches every new publication against all live ones.
 * Lifecycle: ATIVO → SUSPENSO (a renewal was not paid) → ATIVO again when created again; REMOVIDO is
 * final and nothing is physically deleted (spec §3.2). Every change of status or filters stamps
 * `atualizado_em`: the matcher (monitor-index.ts) is rebuilt when it moves.
 */
import type { Kysely, Transaction } from 'kysely';
import { toBrl } from '../../platform/billing/prices.ts';
import { scheduleFieldsOf } from '../../platform/monitoring/schemas.ts';
import type { DB, PublicationMonitorOrigin, PublicationMonitorsTable, PublicationMonitorType } from '../../platform/db/schema.ts';
import { ApiError } from '../../platform/errors.ts';
import { formatCnj } from '../../platform/identifiers/cnj.ts';
import { requireCourtSigla } from '../../platform/courts/table.ts';
import { pageOfMonitors, type MonitorPosition } from '../../platform/monitoring/tables.ts';
import { eventKindFor } from './ingest.ts';

export type PublicationMonitorRow = PublicationMonitorsTable;
export type PublicationMonitorStatus = PublicationMonitorRow['status'];
type Db = Kysely<DB> | Transaction<DB>;

/** The price table's query type of each origin: charged at creation and at each 30-day renewal. */
export const MONITOR_QUERY_TYPES: Record<PublicationMonitorOrigin, string> = {
  INTIMACOES: 'intimacoes.monitor_oab',
  PUBLICACOES: 'monitor.publicacoes',
};

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

/** Court siglas of a request, validated (422 UNKNOWN_COURT naming the item), deduplicated; empty means every court (null). */
export function courtFilter(siglas: readonly string[] | null | undefined, field = 'tribunais'): string[] | null | undefined {
  if (siglas === undefined || siglas === null) return siglas;
  const courts = [...new Set(siglas.map((s, i) => requireCourtSigla(s.trim(), `${field}.${i}`).sigla))].sort();
  return courts.length === 0 ? null : courts;
}

/** The account's monitor of this origin, whatever its status; undefined for an unknown id or another account's. */
export async function findMonitor(db: Db, accountId: string, origem: PublicationMonitorOrigin, id: string): Promise<PublicationMonitorRow | undefined> {
  return db
    .selectFrom('publication_monitors')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .where('origem', '=', origem)
    .executeTakeFirst();
}

/** The account's one monitor of this target that is not REMOVIDO (a partial unique index keeps it one). */
export async function findLiveMonitor(
  db: Db,
  accountId: string,
  origem: PublicationMonitorOrigin,
  target: Pick<MonitorTarget, 'tipo' | 'valor'>,
): Promise<PublicationMonitorRow | undefined> {
  return db
    .selectFrom('publication_monitors')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('origem', '=', origem)
    .where('tipo', '=', target.tipo)
    .where('valor', '=', target.valor)
    .where('status', '<>', 'REMOVIDO')
    .executeTakeFirst();
}

/** The account's most recently removed monitor of this target (a removal repeated, or an update too late). */
export async function findRemovedMonitor(
  db: Db,
  accountId: string,
  origem: PublicationMonitorOrigin,
  target: Pick<MonitorTarget, 'tipo' | 'valor'>,
): Promise<PublicationMonitorRow | undefined> {
  return db
    .selectFrom('publication_monitors')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('origem', '=', origem)
    .where('tipo', '=', target.tipo)
    .where('valor', '=', target.valor)
    .where('status', '=', 'REMOVIDO')
    .orderBy('removido_em', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

/** Live monitors of the account among these values of one type (reading by OAB). */
export async function liveMonitorsOf(
  db: Db,
  accountId: string,
  origem: PublicationMonitorOrigin,
  tipo: PublicationMonitorType,
  valores: readonly string[],
): Promise<PublicationMonitorRow[]> {
  if (valores.length === 0) return [];
  return db
    .selectFrom('publication_monitors')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('origem', '=', origem)
    .where('tipo', '=', tipo)
    .where('valor', 'in', valores)
    .where('status', '<>', 'REMOVIDO')
    .execute();
}

export type { MonitorPosition } from '../../platform/monitoring/tables.ts';

/** A page of the account's monitors of one origin, newest first; absent `status`: the live ones (ATIVO and SUSPENSO). */
export async function listMonitors(
  db: Db,
  accountId: string,
  origem: PublicationMonitorOrigin,
  f: { status?: PublicationMonitorStatus; limit: number; before?: MonitorPosition },
): Promise<PublicationMonitorRow[]> {
  return pageOfMonitors(db, 'publication_monitors', 'REMOVIDO', accountId, f, { origem });
}

export function deactivated(m: PublicationMonitorRow): ApiError {
  return new ApiError(
    'MONITOR_DEACTIVATED',
    `Monitor "${m.id}" was removed at ${m.removido_em}: its matches stay readable, but it can no longer change. Create a new one.`,
    { id: m.id },
  );
}

/** The monitor as integrators see it; next check and charge times only while it is ATIVO. */
export function monitorView(m: PublicationMonitorRow) {
  return {
    id: m.id,
    origem: m.origem,
    tipo: m.tipo,
    termo: m.termo,
    oab: m.tipo === 'OAB' ? m.valor : null,
    numeroCnj: m.tipo === 'PROCESSO' ? formatCnj(m.valor) : null,
    tribunais: m.tribunais === null ? null : (JSON.parse(m.tribunais) as string[]),
    fontes: m.fontes === null ? null : (JSON.parse(m.fontes) as string[]),
    webhookUrl: m.webhook_url,
    evento: eventKindFor(m),
    status: m.status,
    preco: toBrl(m.preco_centavos),
    desde: m.desde,
    publicacoes: m.publicacoes,
    ...scheduleFieldsOf(m),
    atualizadoEm: m.atualizado_em,
    removidoEm: m.removido_em,
  };
}
