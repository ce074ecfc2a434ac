/**
 * The `publication_monitors` table, shared by intimação monitors (/v1/intimacoes/oab, origin
 * INTIMACOES) and publication monitors (/v1/monitoramentos/publicacoes, origin PUBLICACOES): their
 * reads and lists (the view is present.ts); creating, changing and removing them is the paid-monitor lifecycle
 * (lifecycle.ts). What a monitor follows is `tipo` + `valor` (SP123456, the folded term, 20 digits);
 * the publications' ingest (publications/ingest.ts) matches every new publication against all live ones.
 * Lifecycle: ATIVO → SUSPENSO (a renewal was not paid) → ATIVO again when created again; REMOVIDO is
 * final and nothing is physically deleted (spec §3.2). Every change of status or filters stamps
 * `atualizado_em`: the matcher (monitor-index.ts) is rebuilt when it moves.
 */
import type { Kysely, Transaction } from 'kysely';
import type { DB, PublicationMonitorOrigin, PublicationMonitorsTable, PublicationMonitorType } from '../../platform/db/schema.ts';
import { monitorReads, type MonitorReads } from '../../platform/monitoring/tables.ts';

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

/** The reads every monitor kind's store has (platform/monitoring/tables.ts), per origin: intimação monitors and publication monitors. */
export const MONITOR_READS: Record<PublicationMonitorOrigin, MonitorReads<PublicationMonitorRow>> = {
  INTIMACOES: monitorReads('publication_monitors', { origem: 'INTIMACOES' }),
  PUBLICACOES: monitorReads('publication_monitors', { origem: 'PUBLICACOES' }),
};

/** The account's monitors of one origin and type. */
function ofKind(db: Db, accountId: string, origem: PublicationMonitorOrigin, tipo: PublicationMonitorType) {
  return db.selectFrom('publication_monitors').selectAll().where('account_id', '=', accountId).where('origem', '=', origem).where('tipo', '=', tipo);
}

/**
 * The account's monitor of this target: the live one (not REMOVIDO; a partial unique index keeps it
 * one), or the most recently removed one (a removal repeated, or an update too late).
 */
export async function findOfTarget(
  db: Db,
  accountId: string,
  origem: PublicationMonitorOrigin,
  target: Pick<MonitorTarget, 'tipo' | 'valor'>,
  which: 'live' | 'removed',
): Promise<PublicationMonitorRow | undefined> {
  const q = ofKind(db, accountId, origem, target.tipo).where('valor', '=', target.valor);
  if (which === 'live') return q.where('status', '<>', 'REMOVIDO').executeTakeFirst();
  return q.where('status', '=', 'REMOVIDO').orderBy('removido_em', 'desc').orderBy('id', 'desc').executeTakeFirst();
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
  return ofKind(db, accountId, origem, tipo).where('valor', 'in', valores).where('status', '<>', 'REMOVIDO').execute();
}

/** What the matcher (monitor-index.ts) is built from changed when this moved: how many monitors there are and the latest change. */
export async function monitorsVersion(db: Kysely<DB>): Promise<{ key: string; latest: string | null }> {
  const v = await db
    .selectFrom('publication_monitors')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('atualizado_em').as('latest')])
    .executeTakeFirstOrThrow();
  return { key: `${v.n}:${v.latest ?? ''}`, latest: v.latest ?? null };
}

/** The ATIVO monitors of active accounts: monitors of deactivated accounts hear nothing (their cycles skip them too). */
export async function activeMonitors(db: Kysely<DB>): Promise<PublicationMonitorRow[]> {
  return db
    .selectFrom('publication_monitors as m')
    .innerJoin('accounts as a', 'a.id', 'm.account_id')
    .selectAll('m')
    .where('m.status', '=', 'ATIVO')
    .where('a.status', '=', 'active')
    .execute();
}
