/**
 * A case's movements kept in the order they are listed (issue 19, item 8: a store of 2 million cases
 * is larger than this machine's memory, so every page a read touches may be a disk read).
 *
 * The primary key becomes (numero_cnj, data_hora, key), the order of the movements listing and of its
 * cursor, newest first read backwards. It replaces both the old key (numero_cnj, key) and the
 * `case_movements_order` index: the key is a hash of the movement with its date (sources/datajud
 * `movementKey`), so a movement's key fixes its date and both keys are unique on the same rows.
 * `visto_em` goes: written on every row, never read.
 *
 * On SQLite the table becomes WITHOUT ROWID, so the rows themselves sit in that order: the latest
 * movement (every cover) and a page of the listing are one descent of one B-tree instead of an index
 * then the table. Movements were 10.5 KB of a stored case's 14.5 KB (three copies of the 40-character
 * key, `visto_em`); they become ~6.4 KB with pages filled as cases interleave (dbstat, 20,000 cases;
 * docs/benchmarks.md). (0016 tried WITHOUT ROWID keeping both keys: 7%, not worth it alone.) SQLite
 * copies the table here, sorted, which packs its pages: 11.5 s for 200,000 cases (4.8 million
 * movements), with free disk for the copy and its write-ahead log (docs/operations.md).
 * PostgreSQL swaps the key's index and drops the column at once (its space comes back on VACUUM FULL).
 */
import { sql, type Kysely } from 'kysely';
import { engineOf } from '../engine.ts';

const COLUMNS = sql`numero_cnj, data_hora, key, grau, codigo, nome, complementos, orgao_julgador`;

export async function up(db: Kysely<any>): Promise<void> {
  if (engineOf(db) === 'sqlite') {
    await sql`CREATE TABLE case_movements_clustered (
      numero_cnj TEXT NOT NULL REFERENCES cases (numero_cnj), data_hora TEXT NOT NULL, key TEXT NOT NULL,
      grau TEXT NOT NULL, codigo TEXT NOT NULL, nome TEXT NOT NULL, complementos TEXT NOT NULL, orgao_julgador TEXT,
      CONSTRAINT case_movements_pk PRIMARY KEY (numero_cnj, data_hora, key)) WITHOUT ROWID`.execute(db);
    await sql`INSERT INTO case_movements_clustered (${COLUMNS})
      SELECT ${COLUMNS} FROM case_movements ORDER BY numero_cnj, data_hora, key`.execute(db);
    await sql`DROP TABLE case_movements`.execute(db);
    await sql`ALTER TABLE case_movements_clustered RENAME TO case_movements`.execute(db);
    return;
  }
  await db.schema.dropIndex('case_movements_order').execute();
  await db.schema.alterTable('case_movements').dropConstraint('case_movements_pk').execute();
  await db.schema.alterTable('case_movements').addPrimaryKeyConstraint('case_movements_pk', ['numero_cnj', 'data_hora', 'key']).execute();
  await db.schema.alterTable('case_movements').dropColumn('visto_em').execute();
}

/** The old layout back; `visto_em` was not kept, so it reads as the movement's own date. */
export async function down(db: Kysely<any>): Promise<void> {
  if (engineOf(db) === 'sqlite') {
    await sql`CREATE TABLE case_movements_rowid (
      numero_cnj TEXT NOT NULL REFERENCES cases (numero_cnj), key TEXT NOT NULL, grau TEXT NOT NULL, codigo TEXT NOT NULL,
      nome TEXT NOT NULL, data_hora TEXT NOT NULL, complementos TEXT NOT NULL, orgao_julgador TEXT, visto_em TEXT NOT NULL,
      CONSTRAINT case_movements_pk PRIMARY KEY (numero_cnj, key))`.execute(db);
    await sql`INSERT INTO case_movements_rowid (${COLUMNS}, visto_em) SELECT ${COLUMNS}, data_hora FROM case_movements`.execute(db);
    await sql`DROP TABLE case_movements`.execute(db);
    await sql`ALTER TABLE case_movements_rowid RENAME TO case_movements`.execute(db);
  } else {
    await db.schema.alterTable('case_movements').addColumn('visto_em', 'text').execute();
    await sql`UPDATE case_movements SET visto_em = data_hora`.execute(db);
    await db.schema
      .alterTable('case_movements')
      .alterColumn('visto_em', (c) => c.setNotNull())
      .execute();
    await db.schema.alterTable('case_movements').dropConstraint('case_movements_pk').execute();
    await db.schema.alterTable('case_movements').addPrimaryKeyConstraint('case_movements_pk', ['numero_cnj', 'key']).execute();
  }
  await db.schema.createIndex('case_movements_order').on('case_movements').columns(['numero_cnj', 'data_hora', 'key']).execute();
}
