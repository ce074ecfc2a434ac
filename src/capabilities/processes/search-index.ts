/**
 * Full-text index of the stored cases (numbers, party names, classes, subjects, court units), behind
 * one interface: FTS5 with bm25 on SQLite, a GIN-indexed tsvector with ts_rank on PostgreSQL. Both are
 * fed and queried with folded text (platform/text.ts), so accents and case never matter, and each
 * query word matches as a prefix ("souz" finds "Souza").
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Engine } from '../../platform/db/database.ts';
import type { DB } from '../../platform/db/schema.ts';
import { foldText, searchTokens } from '../../platform/text.ts';

export interface SearchHit {
  numeroCnj: string;
  score: number;
}

/** The FTS5 rowid of a case: its 20-digit CNJ number without the check digits (18 digits < 2^63; migration 0013). */
export function searchRowid(numeroCnj: string): bigint {
  return BigInt(numeroCnj.slice(0, 7) + numeroCnj.slice(9));
}

/**
 * Name particles (da, de, dos, e…) are in nearly every case's text: as prefix terms they match most of
 * the index, so a query's cost grew with the store while narrowing nothing the other words do not
 * (bench/scale.ts). Dropped unless the query has nothing else.
 */
const PARTICLES = new Set(['a', 'o', 'e', 'da', 'das', 'de', 'do', 'dos', 'di', 'du', 'del', 'van', 'von', 'y']);

function withoutParticles(tokens: string[]): string[] {
  const kept = tokens.filter((t) => !PARTICLES.has(t));
  return kept.length > 0 ? kept : tokens;
}

export class CaseSearchIndex {
  readonly #db: Kysely<DB>;
  readonly #engine: Engine;
  constructor(db: Kysely<DB>, engine: Engine) {
    this.#db = db;
    this.#engine = engine;
  }

  /** Replaces the indexed text of one case; call inside the transaction that saves the case. */
  async put(trx: Transaction<DB> | Kysely<DB>, numeroCnj: string, parts: (string | null | undefined)[]): Promise<void> {
    const texto = foldText(parts.filter(Boolean).join(' '));
    if (this.#engine === 'sqlite') {
      // By rowid: FTS5 finds a row fast only by rowid (migration 0013); by numero_cnj it scans the index.
      const rowid = searchRowid(numeroCnj);
      await sql`DELETE FROM case_search WHERE rowid = ${rowid}`.execute(trx);
      await sql`INSERT INTO case_search (rowid, numero_cnj, texto) VALUES (${rowid}, ${numeroCnj}, ${texto})`.execute(trx);
      return;
    }
    await sql`INSERT INTO case_search (numero_cnj, texto, vetor) VALUES (${numeroCnj}, ${texto}, to_tsvector('simple', ${texto}))
      ON CONFLICT (numero_cnj) DO UPDATE SET texto = excluded.texto, vetor = excluded.vetor`.execute(trx);
  }

  /**
   * Best matches first; every query word must match. Whole words when some case has them all, else
   * each word as a prefix ("Jose Silv"). Whole words first because a prefix term reads the postings
   * of every word it starts (silva, silvana, silveira…), a cost that grows with the store, while whole
   * words let the index skip (bench/scale.ts); prefix-only matches of a name that exists whole are other
   * people anyway. The choice is made for the query, not the page, so pages never mix the two.
   * Empty when the query has no word.
   */
  async search(query: string, limit: number, offset: number): Promise<SearchHit[]> {
    const tokens = withoutParticles(searchTokens(query));
    if (tokens.length === 0) return [];
    return this.#match(tokens, !(await this.#hasWholeWords(tokens)), limit, offset);
  }

  async #hasWholeWords(tokens: string[]): Promise<boolean> {
    if (this.#engine === 'sqlite') {
      const match = tokens.map((t) => `"${t}"`).join(' ');
      return (await sql`SELECT 1 FROM case_search WHERE case_search MATCH ${match} LIMIT 1`.execute(this.#db)).rows.length > 0;
    }
    return (await sql`SELECT 1 FROM case_search WHERE vetor @@ to_tsquery('simple', ${tokens.join(' & ')}) LIMIT 1`.execute(this.#db)).rows.length > 0;
  }

  async #match(tokens: string[], prefix: boolean, limit: number, offset: number): Promise<SearchHit[]> {
    if (this.#engine === 'sqlite') {
      // Each token quoted (no FTS5 syntax can be injected), `*` for prefix; bm25 is lower-is-better.
      const match = tokens.map((t) => `"${t}"${prefix ? '*' : ''}`).join(' ');
      const { rows } = await sql<{ numero_cnj: string; score: number }>`SELECT numero_cnj, -bm25(case_search) AS score
        FROM case_search WHERE case_search MATCH ${match} ORDER BY score DESC, numero_cnj LIMIT ${limit} OFFSET ${offset}`.execute(this.#db);
      return rows.map((r) => ({ numeroCnj: r.numero_cnj, score: Number(r.score) }));
    }
    const query_ = tokens.map((t) => (prefix ? `${t}:*` : t)).join(' & ');
    const { rows } = await sql<{ numero_cnj: string; score: number }>`SELECT numero_cnj, ts_rank(vetor, q) AS score
      FROM case_search, to_tsquery('simple', ${query_}) q WHERE vetor @@ q
      ORDER BY score DESC, numero_cnj LIMIT ${limit} OFFSET ${offset}`.execute(this.#db);
    return rows.map((r) => ({ numeroCnj: r.numero_cnj, score: Number(r.score) }));
  }
}
