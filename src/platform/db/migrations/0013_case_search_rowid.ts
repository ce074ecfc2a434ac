/**
 * SQLite's full-text index of cases (FTS5) addressed by rowid instead of by its `numero_cnj` column:
 * FTS5 can only find a row fast by rowid, so replacing a case's text by `numero_cnj` scanned the whole
 * index on every save (the store's load time grew with the square of its size: 20,000 cases took
 * 132 s to store, bench/scale.ts). The rowid is the CNJ number without its two check digits (18
 * digits, below 2^63, unique because the check digits follow from the rest). PostgreSQL's index has
 * `numero_cnj` as its primary key already: nothing to do there.
 */
import { sql, type Kysely } from 'kysely';
import { engineOf } from '../engine.ts';

export async function up(db: Kysely<any>): Promise<void> {
  if (engineOf(db) !== 'sqlite') return;
  await sql`CREATE TEMP TABLE case_search_copy AS SELECT numero_cnj, texto FROM case_search`.execute(db);
  await sql`DELETE FROM case_search`.execute(db);
  await sql`INSERT INTO case_search (rowid, numero_cnj, texto)
    SELECT CAST(substr(numero_cnj, 1, 7) || substr(numero_cnj, 10) AS INTEGER), numero_cnj, texto FROM case_search_copy`.execute(db);
  await sql`DROP TABLE case_search_copy`.execute(db);
}

export async function down(): Promise<void> {
  // The rowids stay; the previous code does not depend on them.
}
