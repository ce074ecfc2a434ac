/**
 * A case's movements (case_movements): DataJud's, keyed by their own ids, and those only a court's page
 * listed (empty code; page-movements.ts merges the two). Keyed by (numero_cnj, data_hora, key), the
 * listing's order.
 */
import type { Kysely, Transaction } from 'kysely';
import type { CaseMovementsTable, DB } from '../../platform/db/schema.ts';
import type { MovementRecord } from '../../platform/ports/case-metadata.ts';

type Executor = Kysely<DB> | Transaction<DB>;

/** Newest first; `before` is the last row of the previous page. */
export async function movementsPage(db: Executor, numeroCnj: string, limit: number, before?: { dataHora: string; key: string }): Promise<MovementRecord[]> {
  let q = db.selectFrom('case_movements').selectAll().where('numero_cnj', '=', numeroCnj);
  if (before) {
    q = q.where((eb) => eb.or([eb('data_hora', '<', before.dataHora), eb.and([eb('data_hora', '=', before.dataHora), eb('key', '<', before.key)])]));
  }
  const rows = await q.orderBy('data_hora', 'desc').orderBy('key', 'desc').limit(limit).execute();
  return rows.map(movementOfRow);
}

/** The keys of the case's stored movements. */
export async function movementKeys(trx: Executor, numeroCnj: string): Promise<Set<string>> {
  return new Set((await trx.selectFrom('case_movements').select('key').where('numero_cnj', '=', numeroCnj).execute()).map((r) => r.key));
}

/** Every movement of the case, as a page's merge compares them. */
export function movementsToMerge(trx: Executor, numeroCnj: string) {
  return trx.selectFrom('case_movements').select(['key', 'grau', 'codigo', 'nome', 'data_hora', 'texto']).where('numero_cnj', '=', numeroCnj).execute();
}

/** The movements only a court's page listed (no TPU code yet). */
export function pageOnlyMovements(trx: Executor, numeroCnj: string) {
  return trx
    .selectFrom('case_movements')
    .select(['key', 'grau', 'nome', 'data_hora', 'texto'])
    .where('numero_cnj', '=', numeroCnj)
    .where('codigo', '=', '')
    .execute();
}

/** DataJud's movements as rows. */
export async function insertMovements(trx: Executor, numeroCnj: string, movements: MovementRecord[]): Promise<void> {
  await insertMovementRows(
    trx,
    movements.map((m) => ({
      numero_cnj: numeroCnj,
      key: m.key,
      grau: m.grau,
      codigo: m.codigo,
      nome: m.nome,
      data_hora: m.dataHora,
      complementos: JSON.stringify(m.complementos),
      orgao_julgador: m.orgaoJulgador ? JSON.stringify(m.orgaoJulgador) : null,
      texto: m.texto ?? null,
    })),
  );
}

/** Rows not stored yet (a row already there is left as it is). */
export async function insertMovementRows(trx: Executor, rows: CaseMovementsTable[]): Promise<void> {
  // Chunks keep each statement under both engines' bound-parameter limits.
  for (let i = 0; i < rows.length; i += 100) {
    await trx
      .insertInto('case_movements')
      .values(rows.slice(i, i + 100))
      .onConflict((oc) => oc.columns(['numero_cnj', 'data_hora', 'key']).doNothing())
      .execute();
  }
}

export async function setMovementText(trx: Executor, numeroCnj: string, at: { dataHora: string; key: string }, texto: string | null): Promise<void> {
  await trx
    .updateTable('case_movements')
    .set({ texto })
    .where('numero_cnj', '=', numeroCnj)
    .where('data_hora', '=', at.dataHora)
    .where('key', '=', at.key)
    .execute();
}

export async function deleteMovement(trx: Executor, numeroCnj: string, at: { dataHora: string; key: string }): Promise<void> {
  await trx.deleteFrom('case_movements').where('numero_cnj', '=', numeroCnj).where('data_hora', '=', at.dataHora).where('key', '=', at.key).execute();
}

/** The case row's movement count, lowered by `by` (movements that went). */
export async function lowerMovementCount(trx: Executor, numeroCnj: string, by: number): Promise<void> {
  await trx
    .updateTable('cases')
    .set((eb) => ({ movimentos_total: eb('movimentos_total', '-', by) }))
    .where('numero_cnj', '=', numeroCnj)
    .execute();
}

export function movementOfRow(r: CaseMovementsTable): MovementRecord {
  return {
    key: r.key,
    grau: r.grau,
    codigo: r.codigo,
    nome: r.nome,
    dataHora: r.data_hora,
    complementos: JSON.parse(r.complementos),
    orgaoJulgador: r.orgao_julgador ? JSON.parse(r.orgao_julgador) : null,
    texto: r.texto,
  };
}
