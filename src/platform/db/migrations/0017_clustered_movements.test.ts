/**
 * 0017 keeps every stored movement while it changes the table's key to the listing's order, on both
 * engines: the same movement stored again is still ignored, and going back restores the old layout.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import { migratedTo } from './testing.ts';
const NUMERO = '00000010120268260100';
const NOW = '2026-11-20T10:00:00.000Z';

function movement(key: string, dataHora: string) {
  return {
    numero_cnj: NUMERO,
    key,
    grau: 'G1',
    codigo: '51',
    nome: 'Conclusão',
    data_hora: dataHora,
    complementos: '[]',
    orgao_julgador: '{"codigo":"1","nome":"1ª Vara"}',
  };
}

const STORED = [movement('bbb', '2026-03-01T10:00:00.000Z'), movement('aaa', '2026-03-01T10:00:00.000Z'), movement('ccc', '2025-12-24T09:00:00.000Z')];

async function listing(db: Kysely<any>): Promise<string[]> {
  const rows = await db
    .selectFrom('case_movements')
    .select(['key', 'data_hora', 'orgao_julgador'])
    .where('numero_cnj', '=', NUMERO)
    .orderBy('data_hora', 'desc')
    .orderBy('key', 'desc')
    .execute();
  return rows.map((r) => `${r.data_hora} ${r.key} ${r.orgao_julgador}`);
}

test('0017: movements survive the new key, keep the listing order, and a repeated movement is still ignored', async (t) => {
  const { db, migrator } = await migratedTo(t, '0016_compact_case_store');
  await db
    .insertInto('cases')
    .values({
      numero_cnj: NUMERO,
      tribunal: 'TJSP',
      fonte: 'datajud',
      classe_nome: null,
      data_ajuizamento: null,
      atualizado_em: null,
      instancias: '[]',
      consultado_em: NOW,
      criado_em: NOW,
    })
    .execute();
  await db
    .insertInto('case_movements')
    .values(STORED.map((m) => ({ ...m, visto_em: NOW })))
    .execute();
  const before = await listing(db);

  assert.equal((await migrator.migrateTo('0017_clustered_movements')).error, undefined);
  assert.deepEqual(await listing(db), before);
  assert.equal(before[0], `2026-03-01T10:00:00.000Z bbb {"codigo":"1","nome":"1ª Vara"}`);
  await db
    .insertInto('case_movements')
    .values([movement('aaa', '2026-03-01T10:00:00.000Z'), movement('ddd', '2026-04-01T10:00:00.000Z')])
    .onConflict((oc) => oc.columns(['numero_cnj', 'data_hora', 'key']).doNothing())
    .execute();
  assert.equal((await listing(db)).length, 4, 'the repeated movement was ignored, the new one stored');

  assert.equal((await migrator.migrateTo('0016_compact_case_store')).error, undefined);
  assert.equal((await listing(db)).length, 4);
  const back = await db.selectFrom('case_movements').select(['key', 'visto_em']).where('key', '=', 'ddd').executeTakeFirstOrThrow();
  assert.equal(back.visto_em, '2026-04-01T10:00:00.000Z', 'visto_em was not kept: it reads as the movement date');
  assert.equal((await migrator.migrateToLatest()).error, undefined);
});
