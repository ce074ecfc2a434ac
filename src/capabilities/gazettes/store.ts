/**
 * The gazettes' own records: the days read whole (`gazette_days`, one row per gazette and day), the
 * electoral editions (`gazette_editions`, id `<tribunal>:<número>`), and a gazette publication read
 * back from the publication store by the id a search gave.
 */
import type { Kysely } from 'kysely';
import type { DB, GazetteDaysTable, GazetteEditionsTable, PublicationsTable } from '../../platform/db/schema.ts';
import type { Period } from '../../platform/http/period.ts';

/** The days of `period` a gazette has read, with when and whether one waits for its STF edition. */
export function readDays(db: Kysely<DB>, gazette: string, period: Period) {
  return db
    .selectFrom('gazette_days')
    .select(['dia', 'ingerido_em', 'aguardando_edicao'])
    .where('fonte', '=', gazette)
    .where('dia', '>=', period.inicio)
    .where('dia', '<=', period.fim)
    .execute();
}

/** A day read whole (again: the row is replaced). */
export async function saveDay(db: Kysely<DB>, day: GazetteDaysTable): Promise<void> {
  const { fonte, dia, ...row } = day;
  await db
    .insertInto('gazette_days')
    .values({ fonte, dia, ...row })
    .onConflict((oc) => oc.columns(['fonte', 'dia']).doUpdateSet(row))
    .execute();
}

/** Ids of the editions of one court and day already stored. */
export async function storedEditionIds(db: Kysely<DB>, tribunal: string, day: string): Promise<Set<string>> {
  const rows = await db.selectFrom('gazette_editions').select('id').where('tribunal', '=', tribunal).where('data', '=', day).execute();
  return new Set(rows.map((r) => r.id));
}

/** An edition recorded once (by id): a second writer's copy is left as it is. */
export async function saveEdition(db: Kysely<DB>, edition: GazetteEditionsTable): Promise<void> {
  await db
    .insertInto('gazette_editions')
    .values(edition)
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

export type EditionPosition = { data: string; numero: number };

/** A court's editions in `period`, newest first (day, then number), after `before`. */
export function editionsOf(db: Kysely<DB>, tribunal: string, period: Period, o: { limit: number; before?: EditionPosition }): Promise<GazetteEditionsTable[]> {
  const before = o.before;
  let q = db.selectFrom('gazette_editions').selectAll().where('tribunal', '=', tribunal).where('data', '>=', period.inicio).where('data', '<=', period.fim);
  if (before) q = q.where((eb) => eb.or([eb('data', '<', before.data), eb.and([eb('data', '=', before.data), eb('numero', '<', before.numero)])]));
  return q.orderBy('data', 'desc').orderBy('numero', 'desc').limit(o.limit).execute();
}

export function findEdition(db: Kysely<DB>, id: string): Promise<GazetteEditionsTable | undefined> {
  return db.selectFrom('gazette_editions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A stored publication by id, of one gazette (`fonte`) when given. */
export function findGazettePublication(db: Kysely<DB>, id: string, fonte?: string): Promise<PublicationsTable | undefined> {
  return db
    .selectFrom('publications')
    .selectAll()
    .where('id', '=', id)
    .$if(fonte !== undefined, (q) => q.where('fonte', '=', fonte!))
    .executeTakeFirst();
}
