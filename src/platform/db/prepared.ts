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
import { prepareOnServer } from './pg-named.ts';
import { paddedIds, powerOfTwoChunks } from './batch-shapes.ts';

export type Prepared<P extends string, R> = (executor: Kysely<DB>, values: Record<P, unknown>) => Promise<QueryResult<R>>;

/** What runs a compiled query with `values[i]` as the value of its `names[i]`. */
type Positional<R> = (executor: Kysely<DB>, values: readonly unknown[]) => Promise<QueryResult<R>>;

// Each placeholder stands in for a value of whatever column it is put in, so it must fit any of Kysely's value types.
// biome-ignore lint/suspicious/noExplicitAny: see above
export function prepared<P extends string, R>(names: readonly P[], build: (p: Record<P, any>) => Compilable<R>): Prepared<P, R> {
  const run = compiledOnce(names, build);
  return (executor, values) =>
    run(
      executor,
      names.map((n) => values[n]),
    );
}

// biome-ignore lint/suspicious/noExplicitAny: see `prepared`
function compiledOnce<P extends string, R>(names: readonly P[], build: (p: Record<P, any>) => Compilable<R>): Positional<R> {
  const marks = Object.fromEntries(names.map((n) => [n, `\u0000param:${n}\u0000`])) as Record<P, string>;
  const position = new Map<unknown, number>(names.map((n, i) => [marks[n], i]));
  const compiled = build(marks).compile();
  // Fixed text: on PostgreSQL, parsed once per connection (db/pg-named.ts).
  prepareOnServer(compiled.sql);
  const slots = compiled.parameters.map((v) => position.get(v) ?? -1);
  const used = new Set(slots);
  names.forEach((n, i) => {
    if (!used.has(i)) throw new Error(`prepared query does not use parameter "${n}"`);
  });
  return (executor, values) => {
    const parameters = slots.map((k, i) => (k < 0 ? compiled.parameters[i] : values[k]));
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
 * `names` are the query's other values (a SET, an owner), given at each call like `prepared`'s.
 */
export function preparedIn<R, P extends string = never>(
  // biome-ignore lint/suspicious/noExplicitAny: each id stands in for a value of the column it is compared with, as in `prepared`
  build: (ids: readonly any[], p: Record<P, any>) => Compilable<R>,
  names: readonly P[] = [],
): (executor: Kysely<DB>, ids: readonly string[], values?: Record<P, unknown>) => Promise<QueryResult<R>> {
  const byLength = new Map<number, Positional<R>>();
  return (executor, ids, values) => {
    const padded = paddedIds(ids);
    let query = byLength.get(padded.length);
    if (!query) {
      const idNames = padded.map((_, i) => `id${i}`);
      query = compiledOnce([...idNames, ...names], (p) =>
        build(
          idNames.map((n) => p[n]),
          Object.fromEntries(names.map((n) => [n, p[n]])) as Record<P, unknown>,
        ),
      );
      byLength.set(padded.length, query);
    }
    return query(executor, names.length === 0 ? padded : [...padded, ...names.map((n) => values?.[n])]);
  };
}

/**
 * `prepared` for a multi-row write (`insert … values (…), (…)`): the rows are written in power-of-two
 * chunks (db/batch-shapes.ts), one statement each, and each chunk length gets its query compiled once.
 * `build` gets the rows as records of markers, one per column.
 */
export function preparedRows<C extends string>(
  columns: readonly C[],
  // biome-ignore lint/suspicious/noExplicitAny: each marker stands in for a value of its column, as in `prepared`
  build: (rows: Array<Record<C, any>>) => Compilable<unknown>,
): (executor: Kysely<DB>, rows: ReadonlyArray<Record<C, unknown>>) => Promise<void> {
  const byLength = new Map<number, Positional<unknown>>();
  return async (executor, rows) => {
    for (const chunk of powerOfTwoChunks(rows)) {
      let query = byLength.get(chunk.length);
      if (!query) {
        const names = chunk.map((_, i) => columns.map((c) => `r${i}_${c}`));
        query = compiledOnce(names.flat(), (p) => build(names.map((row) => Object.fromEntries(columns.map((c, k) => [c, p[row[k]]])) as Record<C, unknown>)));
        byLength.set(chunk.length, query);
      }
      const values: unknown[] = [];
      for (const row of chunk) for (const c of columns) values.push(row[c]);
      await query(executor, values);
    }
  };
}
