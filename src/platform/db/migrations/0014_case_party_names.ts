/**
 * The parties' names of every stored case as keys of a B-tree (issue 19, item 8): a search for a
 * person's name is then a range seek, O(log n + page), where the full-text index reads every posting
 * of each word, a cost that grows with the store (bench/scale.ts, docs/benchmarks.md). One row per
 * (folded name, case); filled here from the parties already stored.
 */
import { sql, type Kysely } from 'kysely';
import { engineOf } from '../engine.ts';
import { nameKey } from '../../text.ts';

const BATCH = 2000;

export async function up(db: Kysely<any>): Promise<void> {
  // PostgreSQL compares text by the database's collation, which may ignore spaces; the range seek
  // (search-index-store.ts) needs byte order, as SQLite's default has.
  const nome = engineOf(db) === 'postgres' ? sql`text COLLATE "C"` : sql`text`;
  await db.schema
    .createTable('case_party_names')
    .addColumn('nome', nome, (c) => c.notNull())
    .addColumn('numero_cnj', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('case_party_names_pk', ['nome', 'numero_cnj'])
    .execute();
  await db.schema.createIndex('case_party_names_case').on('case_party_names').column('numero_cnj').execute();
  await backfill(db);
}

async function backfill(db: Kysely<any>): Promise<void> {
  for (let after = ''; ; ) {
    const rows: { id: string; numero_cnj: string; nome: string }[] = await db
      .selectFrom('case_parties')
      .select(['id', 'numero_cnj', 'nome'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    if (rows.length === 0) return;
    const values = rows.map((r) => ({ nome: nameKey(r.nome), numero_cnj: r.numero_cnj })).filter((v) => v.nome !== '');
    if (values.length > 0) {
      await db
        .insertInto('case_party_names')
        .values(values)
        .onConflict((oc) => oc.columns(['nome', 'numero_cnj']).doNothing())
        .execute();
    }
    after = rows[rows.length - 1]!.id;
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('case_party_names').execute();
}
