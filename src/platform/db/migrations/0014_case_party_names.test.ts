/**
 * 0014 fills the name index from the parties already stored: one folded key per (name, case), however
 * many times a name is repeated in a case, in byte order on both engines (the name search's range
 * seek depends on it).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import { migratedTo } from './testing.ts';
const NOW = '2026-11-20T10:00:00.000Z';

async function seedCase(db: Kysely<any>, numero: string, parties: string[]): Promise<void> {
  await db
    .insertInto('cases')
    .values({
      numero_cnj: numero,
      tribunal: 'TJSP',
      fonte: 'datajud',
      classe_nome: null,
      data_ajuizamento: null,
      atualizado_em: null,
      instancias: '[]',
      raw: '{}',
      consultado_em: NOW,
      criado_em: NOW,
    })
    .execute();
  for (const [i, nome] of parties.entries()) {
    await db
      .insertInto('case_parties')
      .values({ id: `pty_${numero}_${i}`, numero_cnj: numero, posicao: i, polo: 'ATIVO', tipo: 'AUTOR', nome, tipo_pessoa: 'FISICA', documento: null })
      .execute();
  }
}

test('0014: stored parties become folded name keys, one per name and case, sorted byte-wise', async (t) => {
  const { db, migrator } = await migratedTo(t, '0013_case_search_rowid');
  await seedCase(db, '00000010120268260100', ['MARIA DA SILVA', 'Maria da Silva', 'Banco do Brasil S.A.']);
  await seedCase(db, '00000020120268260100', ['Maria da Silva Souza', 'Maria Silvana', '—']);

  assert.equal((await migrator.migrateTo('0014_case_party_names')).error, undefined);
  const rows = await db.selectFrom('case_party_names').select(['nome', 'numero_cnj']).orderBy('nome').orderBy('numero_cnj').execute();
  assert.deepEqual(
    rows.map((r) => `${r.nome}|${r.numero_cnj}`),
    [
      'banco do brasil s a|00000010120268260100',
      'maria da silva|00000010120268260100',
      'maria da silva souza|00000020120268260100',
      'maria silvana|00000020120268260100',
    ],
  );
  // The range a name search seeks: the name and the names it begins by whole words, not "silvana".
  const range = await db
    .selectFrom('case_party_names')
    .select('nome')
    .where('nome', '>=', 'maria da silva')
    .where('nome', '<', 'maria da silva!')
    .orderBy('nome')
    .execute();
  assert.deepEqual(
    range.map((r) => r.nome),
    ['maria da silva', 'maria da silva souza'],
  );

  assert.equal((await migrator.migrateTo('0013_case_search_rowid')).error, undefined);
  assert.equal((await migrator.migrateToLatest()).error, undefined);
  assert.equal((await db.selectFrom('case_party_names').select('nome').execute()).length, 4);
});
