/**
 * Search over the stored cases, behind one interface, fed and queried with folded text
 * (platform/text.ts) so accents and case never matter:
 * - a party's name typed from its start ("Maria da Silva", "Maria da Silva Sou") is a range seek in a
 *   B-tree of the parties' folded names (case_party_names), which costs the same however many cases
 *   are stored;
 * - anything else (one word, words out of order, classes, subjects, court units, numbers) goes to the
 *   full-text index: FTS5 with bm25 on SQLite, a GIN-indexed tsvector with ts_rank on PostgreSQL, each
 *   query word matching as a prefix ("souz" finds "Souza").
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Engine } from '../../platform/db/database.ts';
import type { DB } from '../../platform/db/schema.ts';
import { foldText, nameKey, searchTokens } from '../../platform/text.ts';

export interface SearchHit {
  numeroCnj: string;
  score: number;
}

/** One page of hits, and whether a next page has any. */
export interface SearchPage {
  hits: SearchHit[];
  more: boolean;
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

  /**
   * Replaces the indexed text and party names of one case; call inside the transaction that saves the
   * case. `parts` is every text to find the case by, party names included.
   */
  async put(trx: Transaction<DB> | Kysely<DB>, numeroCnj: string, parts: (string | null | undefined)[], partyNames: string[]): Promise<void> {
    await this.#putNames(trx, numeroCnj, partyNames);
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

  async #putNames(trx: Transaction<DB> | Kysely<DB>, numeroCnj: string, partyNames: string[]): Promise<void> {
    await trx.deleteFrom('case_party_names').where('numero_cnj', '=', numeroCnj).execute();
    const keys = [...new Set(partyNames.map(nameKey))].filter((k) => k !== '');
    if (keys.length > 0)
      await trx
        .insertInto('case_party_names')
        .values(keys.map((nome) => ({ nome, numero_cnj: numeroCnj })))
        .execute();
  }

  /**
   * Best matches first. A query of two words or more that begins a stored party's name is answered
   * from the names (#byName); otherwise from the full text (#byText). One word is not: "silva" begins
   * few names but is in many, and full text finds them all.
   */
  async search(query: string, limit: number, offset: number): Promise<SearchPage> {
    const key = nameKey(query);
    if (key.includes(' ')) {
      const range = await this.#nameRange(key);
      if (range) return this.#byName(key, range, limit, offset);
    }
    const hits = await this.#byText(query, limit + 1, offset);
    return { hits: hits.slice(0, limit), more: hits.length > limit };
  }

  /**
   * The range of names the query stands for, or null when no name begins with it: the name itself and
   * the names it begins by whole words ("maria silva", "maria silva santos") when there is one, else
   * the names it begins by part of a word ("maria silv" → "maria silvana"), as full text prefers whole
   * words. Bounds in byte order: ' ' sorts before '!', and `next` is the first key past the prefix.
   */
  async #nameRange(key: string): Promise<{ to: string } | null> {
    for (const to of [`${key}!`, nextKey(key)]) {
      const hit = await this.#db
        .selectFrom('case_party_names')
        .select('numero_cnj')
        .where('nome', '>=', key)
        .where('nome', '<', to)
        .limit(1)
        .executeTakeFirst();
      if (hit) return { to };
    }
    return null;
  }

  /**
   * The cases of the names in the range, in name order then newest number; relevance 1 for the exact
   * name and ½ for longer ones, so the order is also by relevance. A case with two of the names (a
   * person and a longer namesake) is listed once per page.
   */
  async #byName(key: string, range: { to: string }, limit: number, offset: number): Promise<SearchPage> {
    const rows = await this.#db
      .selectFrom('case_party_names')
      .select(['nome', 'numero_cnj'])
      .where('nome', '>=', key)
      .where('nome', '<', range.to)
      .orderBy('nome')
      .orderBy('numero_cnj', 'desc')
      .limit(limit + 1)
      .offset(offset)
      .execute();
    const seen = new Set<string>();
    const hits = rows.slice(0, limit).flatMap((r) => {
      if (seen.has(r.numero_cnj)) return [];
      seen.add(r.numero_cnj);
      return [{ numeroCnj: r.numero_cnj, score: r.nome === key ? 1 : 0.5 }];
    });
    return { hits, more: rows.length > limit };
  }

  /**
   * Every query word must match. Whole words when some case has them all, else
   * each word as a prefix ("Jose Silv"). Whole words first because a prefix term reads the postings
   * of every word it starts (silva, silvana, silveira…), a cost that grows with the store, while whole
   * words let the index skip (bench/scale.ts); prefix-only matches of a name that exists whole are other
   * people anyway. The choice is made for the query, not the page, so pages never mix the two.
   * Empty when the query has no word.
   */
  async #byText(query: string, limit: number, offset: number): Promise<SearchHit[]> {
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

/** The first string after every string that begins with `key` (its last character plus one). */
function nextKey(key: string): string {
  return key.slice(0, -1) + String.fromCharCode(key.charCodeAt(key.length - 1) + 1);
}
