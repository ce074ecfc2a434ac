/**
 * A case's parties and their lawyers as the details sources last gave them (case_parties,
 * case_lawyers): replaced whole at each save. CaseStore reads them (store.ts).
 */
import type { Transaction } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';
import { newId } from '../../platform/ids.ts';
import type { PartyRecord } from '../../platform/ports/case-details.ts';

export async function replaceParties(trx: Transaction<DB>, n: string, partes: readonly PartyRecord[]): Promise<void> {
  // Through the parties' ids, the lawyers' primary key: there is no index on case_lawyers.numero_cnj.
  await trx
    .deleteFrom('case_lawyers')
    .where('party_id', 'in', (eb) => eb.selectFrom('case_parties').select('id').where('numero_cnj', '=', n))
    .execute();
  await trx.deleteFrom('case_parties').where('numero_cnj', '=', n).execute();
  for (const [posicao, p] of partes.entries()) {
    const id = newId('pty');
    await trx
      .insertInto('case_parties')
      .values({
        id,
        numero_cnj: n,
        posicao,
        polo: p.polo,
        tipo: p.tipo,
        nome: p.nome,
        tipo_pessoa: p.tipoPessoa,
        documento: p.documento,
        grau: p.grau ?? null,
      })
      .execute();
    for (const [i, a] of p.advogados.entries()) {
      await trx
        .insertInto('case_lawyers')
        .values({ party_id: id, numero_cnj: n, posicao: i, nome: a.nome, oab_uf: a.oab?.uf ?? null, oab_numero: a.oab?.numero ?? null })
        .execute();
    }
  }
}
