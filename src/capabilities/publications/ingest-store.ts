/**
 * The ingest's writes (ingest.ts), each in the batch's transaction: which publications are stored
 * already, the new ones inserted once, stored copies updated, the OAB index fed, and each match
 * recorded once per (monitor, publication) with the event it became.
 */
import type { Transaction } from 'kysely';
import type { DB, PublicationMatchesTable, PublicationsTable } from '../../platform/db/schema.ts';

type Trx = Transaction<DB>;

/** The stored ones among `ids`: whether each is active, and its stored item when `withRaw` (the largest column: only when it may have changed). */
export function storedStates(trx: Trx, ids: readonly string[], withRaw: boolean): Promise<{ id: string; ativo: number; raw?: string }[]> {
  return trx
    .selectFrom('publications')
    .select(['id', 'ativo'])
    .$if(withRaw, (q) => q.select('raw'))
    .where('id', 'in', ids)
    .execute();
}

/** Inserts the rows not stored yet; the ids this call inserted (another writer may store some first). */
export async function insertPublications(trx: Trx, rows: readonly PublicationsTable[]): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const inserted = await trx
    .insertInto('publications')
    .values([...rows])
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .execute();
  return new Set(inserted.map((r) => r.id));
}

/** Changes to stored copies, one publication each (a cancellation, a changed item). */
export async function updatePublications(trx: Trx, changes: readonly { id: string; set: Partial<Omit<PublicationsTable, 'id'>> }[]): Promise<void> {
  for (const c of changes) await trx.updateTable('publications').set(c.set).where('id', '=', c.id).execute();
}

/** OAB index rows, each (OAB, publication) once. */
export async function indexLawyers(trx: Trx, rows: readonly DB['publication_lawyers'][]): Promise<void> {
  if (rows.length === 0) return;
  await trx
    .insertInto('publication_lawyers')
    .values([...rows])
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** The match row, once per (monitor, publication): false when it was already recorded. */
export async function recordMatch(
  trx: Trx,
  m: { id: string; account_id: string; origem: PublicationMatchesTable['origem'] },
  p: { id: string; dataDisponibilizacao: string },
  now: string,
): Promise<boolean> {
  const inserted = await trx
    .insertInto('publication_matches')
    .values({
      monitor_id: m.id,
      publicacao_id: p.id,
      account_id: m.account_id,
      origem: m.origem,
      data_disponibilizacao: p.dataDisponibilizacao,
      evento_id: null,
      criado_em: now,
    })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** The event a match became. */
export async function linkMatchEvent(trx: Trx, monitorId: string, publicacaoId: string, eventId: string): Promise<void> {
  await trx
    .updateTable('publication_matches')
    .set({ evento_id: eventId })
    .where('monitor_id', '=', monitorId)
    .where('publicacao_id', '=', publicacaoId)
    .execute();
}

/** One more publication matched by a publication monitor. */
export async function countMonitorMatch(trx: Trx, monitorId: string): Promise<void> {
  await trx
    .updateTable('publication_monitors')
    .set((eb) => ({ publicacoes: eb('publicacoes', '+', 1) }))
    .where('id', '=', monitorId)
    .execute();
}
