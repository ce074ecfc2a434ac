/**
 * A Kysely query built and compiled once, then executed many times with new values. For the hot path
 * (key lookup, debit, ledger row, case reads), where building and compiling the query on every call was
 * a fifth of a charged request's CPU. The query is still written with Kysely, so it stays portable: it
 * is compiled by the engine's own dialect with marker values, and each marker's slot is filled per call.
 *
 * On SQLite, when nothing else can be using the connection at that moment (sqlite-dialect.ts,
 * `synchronousSqlite`), the statement runs directly on node:sqlite: no connection mutex, no executor
 * plumbing. The result is what Kysely's own SQLite driver would have returned. Everywhere else
 * (PostgreSQL, or a transaction in progress) it goes through Kysely as before.
 */
import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';
import type { DB } from './schema.ts';
import { synchronousSqlite } from './sqlite-dialect.ts';
import { paddedIds } from './batch-shapes.ts';

export type Prepared<P extends string, R> = (executor: Kysely<DB>, values: Record<P, unknown>) => Promise<QueryResult<R>>;

// Each placeholder stands in for a value of whatever column it is put in, so it must fit any of Kysely's value types.
// biome-ignore lint/suspicious/noExplicitAny: see above
export function prepared<P extends string, R>(names: readonly P[], build: (p: Record<P, any>) => Compilable<R>): Prepared<P, R> {
  const marks = Object.fromEntries(names.map((n) => [n, `\u0000param:${n}\u0000`])) as Record<P, string>;
  const compiled = build(marks).compile();
  const slots = compiled.parameters.map((v) => names.find((n) => marks[n] === v));
  for (const n of names) if (!slots.includes(n)) throw new Error(`prepared query does not use parameter "${n}"`);
  return (executor, values) => {
    const parameters = slots.map((n, i) => (n === undefined ? compiled.parameters[i] : values[n]));
    const sqlite = synchronousSqlite(executor);
    if (!sqlite) return executor.executeQuery({ ...compiled, parameters } as CompiledQuery<R>);
    try {
      return Promise.resolve(sqlite.prepare(compiled.sql).execute<R>(parameters));
    } catch (err) {
      return Promise.reject(err);
    }
  };
}

/**
 * `prepared` for a query over a list of ids (`where x in (…)`): the list is padded to a power of two
 * (db/batch-shapes.ts) and each length gets its query compiled once, so a batch of any size runs a
 * statement compiled once, synchronously on SQLite when it may (the per-turn reads of the hot path).
 */
// biome-ignore lint/suspicious/noExplicitAny: each id stands in for a value of the column it is compared with, as in `prepared`
export function preparedIn<R>(build: (ids: readonly any[]) => Compilable<R>): (executor: Kysely<DB>, ids: readonly string[]) => Promise<QueryResult<R>> {
  const byLength = new Map<number, Prepared<string, R>>();
  return (executor, ids) => {
    const padded = paddedIds(ids);
    const names = padded.map((_, i) => `id${i}`);
    let query = byLength.get(padded.length);
    if (!query) {
      query = prepared(names, (p) => build(names.map((n) => p[n])));
      byLength.set(padded.length, query);
    }
    return query(executor, Object.fromEntries(names.map((n, i) => [n, padded[i]])));
  };
}
