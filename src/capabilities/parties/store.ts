/**
 * The courts' fan-outs kept (table `court_searches`, issue 43 item 7): what one search's fan-out
 * found, keyed by a hash of the normalized query, served to its later pages and to the same search
 * again within TRAMITA_COURT_SEARCH_KEEP_MINUTES (court-search.ts).
 */
import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';

/** The fan-out kept under `chave` since `since` (ISO), as stored (JSON), if any. */
export async function keptCourtSearch(db: Kysely<DB>, chave: string, since: string): Promise<string | undefined> {
  const row = await db.selectFrom('court_searches').select('resultado').where('chave', '=', chave).where('feita_em', '>', since).executeTakeFirst();
  return row?.resultado;
}

/** Keeps a fan-out under `chave` (replacing an older one) and forgets those made at or before `since`, in one transaction. */
export async function keepCourtSearch(db: Kysely<DB>, keep: { chave: string; resultado: string; feita_em: string }, since: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('court_searches').where('feita_em', '<=', since).execute();
    await trx
      .insertInto('court_searches')
      .values(keep)
      .onConflict((oc) => oc.column('chave').doUpdateSet({ resultado: keep.resultado, feita_em: keep.feita_em }))
      .execute();
  });
}
