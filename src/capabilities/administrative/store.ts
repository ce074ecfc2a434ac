/**
 * The `administrative_processes` table: one row per NUP as last read from the source, its
 * tramitações a JSON array (oldest first) whose keys tell a new movement from a known one.
 */
import type { Kysely, Transaction } from 'kysely';
import type { AdministrativeProcessesTable, DB } from '../../platform/db/schema.ts';
import type { AdministrativeMovement, AdministrativeProcessRecord } from '../../platform/ports/administrative.ts';

export type ProcessRow = AdministrativeProcessesTable;
type Db = Kysely<DB> | Transaction<DB>;

export async function findProcess(db: Db, nup: string): Promise<ProcessRow | undefined> {
  return db.selectFrom('administrative_processes').selectAll().where('nup', '=', nup).executeTakeFirst();
}

export function movementsOf(row: ProcessRow): AdministrativeMovement[] {
  return JSON.parse(row.tramitacoes) as AdministrativeMovement[];
}

/**
 * Stores what the source said; returns the row and the movements it did not have before. A NUP
 * stored for the first time brings no news: its movements are the baseline.
 */
export async function upsertProcess(
  trx: Db,
  r: AdministrativeProcessRecord,
  meta: { unidade: string; fonte: string; now: string },
): Promise<{ row: ProcessRow; news: AdministrativeMovement[] }> {
  const before = await findProcess(trx, r.nup);
  const known = new Set(before ? movementsOf(before).map((m) => m.key) : []);
  const row: ProcessRow = {
    nup: r.nup,
    unidade: meta.unidade,
    tipo: r.tipo,
    assunto: r.assunto,
    interessados: JSON.stringify(r.interessados),
    orgao_origem: r.orgaoOrigem,
    data_autuacao: r.dataAutuacao,
    tramitacoes: JSON.stringify(r.tramitacoes),
    tramitacoes_total: r.tramitacoes.length,
    fonte: meta.fonte,
    coletado_em: meta.now,
    criado_em: before?.criado_em ?? meta.now,
  };
  const { nup, criado_em: _created, ...changes } = row;
  await trx
    .insertInto('administrative_processes')
    .values(row)
    .onConflict((oc) => oc.column('nup').doUpdateSet(changes))
    .execute();
  return { row, news: before ? r.tramitacoes.filter((m) => !known.has(m.key)) : [] };
}
