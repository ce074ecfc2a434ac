/**
 * A stored case as the store hands it out: a leaf, so the store, its cache and every reader of stored
 * cases share the type without importing one another (issue 55 item 4).
 */
import type { CasesTable } from '../../platform/db/schema.ts';
import type { InstanceRecord, MovementRecord } from '../../platform/ports/case-metadata.ts';
import type { PartyRecord } from '../../platform/ports/case-details.ts';

/** An instance as stored on the case row: its movements live in case_movements. */
export type StoredInstance = Omit<InstanceRecord, 'movimentos'> & { quantidadeMovimentacoes: number };

/** Read-only: `get` may hand the same object to many requests (CaseCache). */
export interface StoredCase {
  row: CasesTable;
  instancias: StoredInstance[];
  partes: PartyRecord[] | null;
  ultimaMovimentacao: MovementRecord | null;
}
