/**
 * 0027 gives each case monitor its number's next DJEN ask: the day the number was on before (its last
 * ask plus one day) for every monitor of an asked number, whatever the account; the creation instant
 * for a number never asked. So the upgrade does not make every number due at once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import { migratedTo } from './testing.ts';

const CREATED = '2026-11-01T10:00:00.000Z';

async function seedMonitor(db: Kysely<any>, id: string, account: string, numero: string, frequencia: string): Promise<void> {
  await db
    .insertInto('case_monitors')
    .values({
      id,
      account_id: account,
      numero_cnj: numero,
      tribunal: 'TJSP',
      datajud_alias: 'api_publica_tjsp',
      webhook_url: null,
      frequencia,
      status: 'ATIVO',
      situacao: 'ENCONTRADO',
      preco_centavos: 100,
      proxima_verificacao_em: CREATED,
      proxima_cobranca_em: CREATED,
      criado_em: CREATED,
      atualizado_em: CREATED,
    })
    .execute();
}

test('0027: monitors of an asked number are next asked a day after its last ask; a number never asked is due from its creation', async (t) => {
  const { db, migrator } = await migratedTo(t, '0025_case_monitor_pages');
  await seedMonitor(db, 'mon_a', 'acc_1', '00000010120268260100', 'DIARIA');
  await seedMonitor(db, 'mon_b', 'acc_2', '00000010120268260100', 'HORARIA');
  await seedMonitor(db, 'mon_c', 'acc_1', '00000020120268260100', 'DIARIA');
  await db.insertInto('publication_syncs').values({ chave: 'diario:00000010120268260100', sincronizado_em: '2026-11-20T08:30:00.000Z' }).execute();

  assert.equal((await migrator.migrateTo('0027_case_monitor_djen')).error, undefined);
  const rows = await db.selectFrom('case_monitors').select(['id', 'proxima_diario_em']).orderBy('id').execute();
  assert.deepEqual(
    rows.map((r) => ({ ...r })),
    [
      { id: 'mon_a', proxima_diario_em: '2026-11-21T08:30:00.000Z' },
      { id: 'mon_b', proxima_diario_em: '2026-11-21T08:30:00.000Z' },
      { id: 'mon_c', proxima_diario_em: CREATED },
    ],
  );
  assert.equal((await migrator.migrateDown()).error, undefined);
});
