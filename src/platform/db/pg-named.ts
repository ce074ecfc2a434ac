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
 * Everything else is sent as before. TRAMITA_PG_PREPARED_STATEMENTS=false turns it off.
 *
 * A pooler in transaction mode that does not carry prepared statements across its server connections
 * (PgBouncer before 1.21, or with max_prepared_statements = 0) would hand a named statement to a server
 * connection that never parsed it (26000, "prepared statement … does not exist") or that another client
 * already made parse it (42P05, "… already exists"). So each new pooled connection first asks for the
 * server's process id: PostgreSQL announces its own at connect, a pooler announces one of its own making,
 * and when the two differ the database stops naming statements (one warning). Until that answer, the
 * connection's statements go unnamed. A pooler that passed the id through would still be caught: a
 * refused named statement stops naming too (a count in tramita_storage_failures_total) and is sent
 * again unnamed, which is safe because PostgreSQL refused it before running it; inside an explicit
 * transaction the refusal has already aborted that transaction, which fails as on a lost connection.
 */
import type pg from 'pg';
import { noteStorageFailure, type StorageLog } from './outage.ts';

const names = new Map<string, string>();

/** From now on, `text` is sent as a named statement by connections that name statements. */
export function prepareOnServer(text: string): void {
  if (!names.has(text)) names.set(text, `tramita_${names.size + 1}`);
}

type QueryFn = (...args: unknown[]) => unknown;

/** SQLSTATEs of a named statement the server connection does not have, or already has under that name. */
const LOST_STATEMENT = new Set(['26000', '42P05']);

/** Why a database stopped naming its statements, as its storage log says it. */
const STOPPED = {
  pooler:
    'PostgreSQL is reached through a connection pooler (the server process differs from the one announced): statements are sent unnamed; ' +
    'set TRAMITA_PG_PREPARED_STATEMENTS=false to say so',
  refused:
    'PostgreSQL refused a named statement (a pooler in transaction mode?): statements are sent unnamed from now on; ' +
    'set TRAMITA_PG_PREPARED_STATEMENTS=false',
} as const;

/** Whether one database's pooled connections name their statements; off for good once a pooler shows. */
export class StatementNaming {
  #on = true;
  readonly #log: StorageLog | undefined;
  constructor(log?: StorageLog) {
    this.#log = log;
  }

  /** Makes `client` send each registered text (Kysely's `query(text, values)`) under its name, once it is known to reach PostgreSQL itself. */
  apply(client: pg.PoolClient): void {
    const query = client.query.bind(client) as QueryFn;
    let direct = false;
    // Queued before any query of the client's first user, so it answers first.
    void (query('select pg_backend_pid() as pid') as Promise<{ rows: Array<{ pid: number }> }>).then(
      ({ rows }) => {
        direct = rows[0]?.pid === (client as unknown as { processID: number | null }).processID;
        if (!direct) this.#stop('pooler');
      },
      () => {},
    );
    const named: QueryFn = (text, values, ...rest) => {
      // The promise form only (Kysely's): a refused statement is sent again unnamed.
      const name = direct && this.#on && rest.length === 0 && typeof text === 'string' && Array.isArray(values) ? names.get(text) : undefined;
      if (!name) return query(text, values, ...rest);
      return (query({ name, text, values }) as Promise<unknown>).catch((err: unknown) => {
        if (!LOST_STATEMENT.has((err as { code?: string } | undefined)?.code ?? '')) throw err;
        this.#stop('refused');
        return query(text, values);
      });
    };
    (client as unknown as { query: QueryFn }).query = named;
  }

  /** Once per database: a pooler is expected (a warning), a refusal is a failure (a warning and a count). */
  #stop(why: keyof typeof STOPPED): void {
    if (!this.#on) return;
    this.#on = false;
    if (why === 'refused') noteStorageFailure('postgres', 'prepared_statements');
    this.#log?.warn({}, STOPPED[why]);
  }
}
