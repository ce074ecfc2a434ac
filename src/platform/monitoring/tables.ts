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

type Db = Kysely<DB> | Transaction<DB>;

/** What a monitor list asks: a status (absent: the live ones, all but removed), a page size, the last row of the previous page. */
export interface MonitorListFilter<S extends string = string> {
  status?: S;
  limit: number;
  before?: MonitorPosition;
}

/**
 * The reads every monitor kind's store has (issue 55 item 6: one monitor store shape): the account's
 * monitor by id, a page of its monitors newest first, how many are live. Each kind's store makes one
 * on its table; `scope` narrows by more columns (a publication monitor's origin).
 */
export interface MonitorReads<R extends PaidMonitorRow> {
  /** The account's monitor, whatever its status; undefined for an unknown id or another account's (or another scope's). */
  find(db: Db, accountId: string, id: string): Promise<R | undefined>;
  /** A page of the account's monitors, newest first: those of `status`, or without it the live ones. */
  list(db: Db, accountId: string, f: MonitorListFilter<R['status']>): Promise<R[]>;
  /** How many monitors the account has: the live ones (all but removed), or all. */
  count(db: Db, accountId: string, which: 'live' | 'all'): Promise<number>;
}

export function monitorReads<R extends PaidMonitorRow>(table: PaidMonitorTable, scope: Record<string, string> = {}, removed = 'REMOVIDO'): MonitorReads<R> {
  const own = (db: Db, accountId: string) => {
    let q = paidMonitors(db).selectFrom(table).where('account_id', '=', accountId);
    for (const [column, value] of Object.entries(scope)) q = q.where(column, '=', value);
    return q;
  };
  return {
    async find(db, accountId, id) {
      return (await own(db, accountId).selectAll().where('id', '=', id).executeTakeFirst()) as R | undefined;
    },
    async list(db, accountId, f) {
      let q = own(db, accountId).selectAll();
      q = f.status ? q.where('status', '=', f.status) : q.where('status', '<>', removed);
      if (f.before) {
        const { criadoEm, id } = f.before;
        q = q.where((eb) => eb.or([eb('criado_em', '<', criadoEm), eb.and([eb('criado_em', '=', criadoEm), eb('id', '<', id)])]));
      }
      return (await q.orderBy('criado_em', 'desc').orderBy('id', 'desc').limit(f.limit).execute()) as R[];
    },
    async count(db, accountId, which) {
      let q = own(db, accountId).select((eb) => eb.fn.countAll<number>().as('n'));
      if (which === 'live') q = q.where('status', '<>', removed);
      const row = await q.executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}
