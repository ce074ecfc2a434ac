/**
 * The tables of paid monitors (case, administrative, publication and intimação monitors, radars): the
 * columns they all have, and one way to query any of them by those columns alone.
 */
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/schema.ts';

/** The columns every paid monitor has, whatever else its table holds. */
export interface PaidMonitorRow {
  id: string;
  account_id: string;
  status: string;
  periodo: number;
  preco_centavos: number;
  webhook_url: string | null;
  proxima_verificacao_em: string;
  proxima_cobranca_em: string;
  ultimo_erro: string | null;
  atualizado_em: string;
}

/** The tables of DB whose rows are paid monitors. */
export type PaidMonitorTable = { [T in keyof DB]: DB[T] extends PaidMonitorRow ? T : never }[keyof DB];

/**
 * Any paid-monitor table, its columns unchecked: the code that uses it writes only the shared columns,
 * the columns a plan names (its key, its removal) and rows the plan built for that table.
 */
// biome-ignore lint/suspicious/noExplicitAny: one accessor for several tables of different row types; each plan's rows keep their table's type.
export type AnyPaidMonitors = Kysely<Record<PaidMonitorTable, any>>;
export const paidMonitors = (db: Kysely<DB> | Transaction<DB>) => db as unknown as AnyPaidMonitors;

/** `(criado_em, id)` of the last row of the previous page. */
export type MonitorPosition = { criadoEm: string; id: string };

/**
 * A page of the account's monitors in `table`, newest first: those of `status`, or without it the
 * live ones (all but `removed`); `scope` narrows by more columns (a publication monitor's origin).
 */
export async function pageOfMonitors<R extends PaidMonitorRow>(
  db: Kysely<DB> | Transaction<DB>,
  table: PaidMonitorTable,
  removed: string,
  accountId: string,
  f: { status?: string; limit: number; before?: MonitorPosition },
  scope: Record<string, string> = {},
): Promise<R[]> {
  let q = paidMonitors(db).selectFrom(table).selectAll().where('account_id', '=', accountId);
  for (const [column, value] of Object.entries(scope)) q = q.where(column, '=', value);
  q = f.status ? q.where('status', '=', f.status) : q.where('status', '<>', removed);
  if (f.before) {
    const { criadoEm, id } = f.before;
    q = q.where((eb) => eb.or([eb('criado_em', '<', criadoEm), eb.and([eb('criado_em', '=', criadoEm), eb('id', '<', id)])]));
  }
  return (await q.orderBy('criado_em', 'desc').orderBy('id', 'desc').limit(f.limit).execute()) as R[];
}
