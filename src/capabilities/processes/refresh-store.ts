/**
 * The accounts' refreshes of a case (case_refreshes, spec §4.3): a live one per account and case,
 * moved by the refresh job (refresh.ts) to CONCLUIDA or ERRO.
 */
import type { Kysely, Transaction, Updateable } from 'kysely';
import type { CaseRefreshesTable, DB } from '../../platform/db/schema.ts';

type Executor = Kysely<DB> | Transaction<DB>;

/** The statuses of a refresh still waiting on its job. */
export const LIVE = ['PENDENTE', 'PROCESSANDO'] as const;

/** The account's refreshes of the case. */
const ofAccountCase = (db: Executor, accountId: string, numeroCnj: string) =>
  db.selectFrom('case_refreshes').selectAll().where('account_id', '=', accountId).where('numero_cnj', '=', numeroCnj);

/** The account's live refresh of the case, if any. */
export function liveRefresh(db: Executor, accountId: string, numeroCnj: string): Promise<CaseRefreshesTable | undefined> {
  return ofAccountCase(db, accountId, numeroCnj).where('status', 'in', LIVE).executeTakeFirst();
}

export async function insertRefresh(db: Executor, refresh: CaseRefreshesTable): Promise<void> {
  await db.insertInto('case_refreshes').values(refresh).execute();
}

/** The account's latest refresh of the case. */
export function latestRefresh(db: Executor, accountId: string, numeroCnj: string): Promise<CaseRefreshesTable | undefined> {
  return ofAccountCase(db, accountId, numeroCnj).orderBy('solicitado_em', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
}

/** How a refresh stands (a summary waiting on it reads this). */
export function refreshOutcome(db: Executor, id: string): Promise<Pick<CaseRefreshesTable, 'status' | 'erro_codigo' | 'erro_mensagem'> | undefined> {
  return db.selectFrom('case_refreshes').select(['status', 'erro_codigo', 'erro_mensagem']).where('id', '=', id).executeTakeFirst();
}

/** Every account's live refresh of the case. */
export function liveRefreshesOf(db: Executor, numeroCnj: string): Promise<CaseRefreshesTable[]> {
  return db.selectFrom('case_refreshes').selectAll().where('numero_cnj', '=', numeroCnj).where('status', 'in', LIVE).execute();
}

/** Moves every live refresh of the case (the job started, or ended in ERRO for all). */
export async function updateLiveRefreshes(db: Executor, numeroCnj: string, set: Updateable<CaseRefreshesTable>): Promise<void> {
  await db.updateTable('case_refreshes').set(set).where('numero_cnj', '=', numeroCnj).where('status', 'in', LIVE).execute();
}

/** Moves one refresh whatever its status. */
export async function updateRefresh(db: Executor, id: string, set: Updateable<CaseRefreshesTable>): Promise<void> {
  await db.updateTable('case_refreshes').set(set).where('id', '=', id).execute();
}

/** Moves one refresh if it is still live; false when another worker settled it meanwhile. */
export async function updateLiveRefresh(db: Executor, id: string, set: Updateable<CaseRefreshesTable>): Promise<boolean> {
  const done = await db.updateTable('case_refreshes').set(set).where('id', '=', id).where('status', 'in', LIVE).executeTakeFirst();
  return Number(done.numUpdatedRows) === 1;
}
