/** The asynchronous OAB searches' rows (table `oab_searches`): created with their job, read, moved along, ended once (oab-search.ts). */
import type { Kysely, Selectable, Transaction, Updateable } from 'kysely';
import type { DB, OabSearchesTable as Table } from '../../platform/db/schema.ts';

/** A search as read from the table (`id` is a number there). */
export type OabSearchRow = Selectable<Table>;

export const TERMINAL = ['SUCESSO', 'ERRO'] as const;

/** A new PENDENTE search, in the caller's transaction (beside its job). */
export function insertOabSearch(
  trx: Transaction<DB>,
  r: Pick<Table, 'account_id' | 'tribunal' | 'oab' | 'permitir_parcial' | 'enviar_callback' | 'preco_centavos' | 'request_id' | 'criado_em'>,
): Promise<OabSearchRow> {
  return trx
    .insertInto('oab_searches')
    .values({
      ...r,
      status: 'PENDENTE',
      paginas: 0,
      publicacoes: 0,
      parcial: 0,
      resultado: null,
      erro_codigo: null,
      erro_mensagem: null,
      iniciado_em: null,
      concluido_em: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The account's search `id`, if it has one. */
export function findOabSearch(db: Kysely<DB>, accountId: string, id: number): Promise<OabSearchRow | undefined> {
  return db.selectFrom('oab_searches').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
}

/** Search `id`, whoever owns it (its job reads it). */
export function oabSearchById(db: Kysely<DB>, id: number): Promise<OabSearchRow | undefined> {
  return db.selectFrom('oab_searches').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Its progress while the job runs (status, counters). */
export async function updateOabSearch(db: Kysely<DB>, id: number, set: Updateable<Table>): Promise<void> {
  await db.updateTable('oab_searches').set(set).where('id', '=', id).execute();
}

/** Its terminal state, unless it already has one; true when this call set it. */
export async function endOabSearch(trx: Transaction<DB>, id: number, set: Updateable<Table>): Promise<boolean> {
  const moved = await trx.updateTable('oab_searches').set(set).where('id', '=', id).where('status', 'not in', TERMINAL).executeTakeFirst();
  return Number(moved.numUpdatedRows) === 1;
}
