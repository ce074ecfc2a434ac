/**
 * Each OAB's DJEN history (`oab_histories`, one row per OAB): when its recent window was last read, and
 * where its consolidation (history.ts) stands.
 */
import type { Kysely, Transaction } from 'kysely';
import type { DB, OabHistoriesTable } from '../../platform/db/schema.ts';

type Db = Kysely<DB> | Transaction<DB>;

export function findHistory(db: Db, oab: string): Promise<OabHistoriesTable | undefined> {
  return db.selectFrom('oab_histories').selectAll().where('oab', '=', oab).executeTakeFirst();
}

/** The OAB's row, PENDENTE, unless one exists: true when this call created it. */
export async function createHistory(db: Db, oab: string, now: string): Promise<boolean> {
  const inserted = await db
    .insertInto('oab_histories')
    .values({
      oab,
      recente_em: null,
      consolidacao: 'PENDENTE',
      consolidado_em: null,
      paginas: 0,
      ultimo_erro: null,
      criado_em: now,
      atualizado_em: now,
    })
    .onConflict((oc) => oc.column('oab').doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
}

export async function updateHistory(db: Db, oab: string, set: Partial<Omit<OabHistoriesTable, 'oab' | 'criado_em'>>): Promise<void> {
  await db.updateTable('oab_histories').set(set).where('oab', '=', oab).execute();
}
