import type { CasesTable } from '../../platform/db/schema.ts';
import type { StoredCase } from './stored-case.ts';
import { LruMap } from '../../platform/lru-map.ts';

/**
 * Recently read cases, kept in memory so that a hot cover costs one small indexed read (the stamp)
 * instead of four queries and a JSON parse. An entry is used only while the case row's stamp (the
 * columns below) still matches the database, and every write of a case changes its stamp: saving what
 * DataJud returned sets `consultado_em` (and `movimentos_total`), saving details sets `detalhes_em`
 * (and the value), a refresh sets `documentos_em`. That holds whichever process wrote, so other API
 * processes and workers never leave a stale entry here. Writes through this CaseStore also drop the
 * entry at once, which covers two writes within one clock millisecond (a frozen test clock).
 */
export const STAMP_COLUMNS = ['consultado_em', 'detalhes_em', 'documentos_em', 'movimentos_total', 'atualizado_em', 'valor_causa_centavos'] as const;

export type Stamped = Pick<CasesTable, (typeof STAMP_COLUMNS)[number]>;

export function stampOf(r: Stamped): string {
  return `${r.consultado_em}|${r.detalhes_em}|${r.documentos_em}|${r.movimentos_total}|${r.atualizado_em}|${r.valor_causa_centavos}`;
}

/**
 * 4.9 KB of heap per cached case (instances, parties, latest movement; measured on the sandbox's
 * cases): at most ~50 MB. Enough for the cases a busy deployment reads over and over: a term
 * search's pages alone cycle through thousands (bench/scale.ts: 1,000 entries missed most of them
 * at 2 million stored cases, and a page of 10 cost 1.9 ms instead of 1.0).
 */
const MAX_CASES = 10_000;

export class CaseCache {
  readonly #entries = new LruMap<string, { stamp: string; stored: StoredCase }>(MAX_CASES);
  /** Bumped by every forget: a read that started before one must not put back what it dropped. */
  #generation = 0;

  get(numeroCnj: string, stamp: string): StoredCase | undefined {
    const e = this.#entries.get(numeroCnj);
    if (!e) return undefined;
    if (e.stamp !== stamp) {
      this.#entries.delete(numeroCnj);
      return undefined;
    }
    return e.stored;
  }

  /** Pass to `set`: taken before the reads whose result will be remembered. */
  generation(): number {
    return this.#generation;
  }

  set(numeroCnj: string, stamp: string, stored: StoredCase, generation: number): void {
    if (generation !== this.#generation) return;
    this.#entries.set(numeroCnj, { stamp, stored });
  }

  forget(numeroCnj: string): void {
    this.#generation++;
    this.#entries.delete(numeroCnj);
  }
}
