/**
 * When Tramita last asked DJEN for something (`publication_syncs`, one row per key): a targeted query
 * (`diario:<cnj>`, a lawyer's lookup), a court's caderno of a day (`caderno:…`, `caderno-tentativa:…`).
 * The freshness policies read these times; whoever asks writes the time of its ask.
 */
import type { Kysely, Transaction } from 'kysely';
import { inLists } from '../../platform/db/in-lists.ts';
import type { DB } from '../../platform/db/schema.ts';

type Db = Kysely<DB> | Transaction<DB>;

/** When `key` was last asked, or undefined. */
export async function lastSynced(db: Db, key: string): Promise<string | undefined> {
  const row = await db.selectFrom('publication_syncs').select('sincronizado_em').where('chave', '=', key).executeTakeFirst();
  return row?.sincronizado_em;
}

/** The times of the keys asked so far, by key (the others absent). */
export async function syncTimes(db: Db, keys: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const list of inLists(keys)) {
    const rows = await db.selectFrom('publication_syncs').select(['chave', 'sincronizado_em']).where('chave', 'in', list).execute();
    for (const r of rows) out.set(r.chave, r.sincronizado_em);
  }
  return out;
}

/** `key` asked at `at` (ISO instant). */
export async function markSynced(db: Db, key: string, at: string): Promise<void> {
  await db
    .insertInto('publication_syncs')
    .values({ chave: key, sincronizado_em: at })
    .onConflict((oc) => oc.column('chave').doUpdateSet({ sincronizado_em: at }))
    .execute();
}
