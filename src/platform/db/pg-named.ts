/**
 * PostgreSQL: the hot path's statements as named (server-side prepared) statements. An unnamed
 * statement is parsed and planned by PostgreSQL on every execution: 0.21 ms of planning for the
 * request path's charge batch (`EXPLAIN (SUMMARY)`), several hundred times a second under load, on
 * the same cores as the server. A named one is parsed once per connection, and PostgreSQL may keep
 * its plan. The PostgreSQL floor of the bench (bench/servers/floor-pg.ts) names its statements too.
 *
 * The statements are the ones whose text is fixed: every query compiled once (db/prepared.ts) and the
 * charge batch (billing/charge-batch.ts) register their text here; a pooled connection then sends a
 * registered text under its name (pg keeps, per connection, which names it has already parsed).
 * Everything else is sent as before. TRAMITA_PG_PREPARED_STATEMENTS=false turns it off, for a pooler
 * in transaction mode that does not keep prepared statements across its server connections.
 */
import type pg from 'pg';

const names = new Map<string, string>();

/** From now on, `text` is sent as a named statement by connections that name statements. */
export function prepareOnServer(text: string): void {
  if (!names.has(text)) names.set(text, `tramita_${names.size + 1}`);
}

type QueryFn = (...args: unknown[]) => unknown;

/** Makes `client` send each registered text (Kysely's `query(text, values)`) under its name. */
export function nameStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as QueryFn;
  const named: QueryFn = (text, values, ...rest) => {
    const name = typeof text === 'string' && Array.isArray(values) ? names.get(text) : undefined;
    return name ? query({ name, text, values }, ...rest) : query(text, values, ...rest);
  };
  (client as unknown as { query: QueryFn }).query = named;
}
