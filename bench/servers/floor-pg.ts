/**
 * The PostgreSQL floor of the charged path: what any server pays that obeys the money rules (the
 * balance never negative, one ledger row per debit, the search log and the debit committed together
 * before the answer) on PostgreSQL, with nothing else. Bare node:http, no framework, the key checked
 * against an in-memory hash, no rate limiter, and the charges written with `pg` on Tramita's own
 * migrated schema, the cheapest way found (each measured as a breakdown row):
 * - default: the charges of one event-loop turn in ONE statement, production's own
 *   (billing/charge-batch.ts pgChargeBatchQuery: one round trip, its own implicit transaction, the
 *   accounts locked in id order, one conditional UPDATE per account, the search logs and ledger rows
 *   inserted from what it returned); up to FLOOR_PG_CONNECTIONS (default 4) such statements in flight
 *   at once, each on a connection of its own, prepared once (named statement);
 * - FLOOR_PG_SQL=per-charge: one transaction per charge (BEGIN, search log, debit + ledger row in one
 *   statement, COMMIT), as Tramita wrote every charge on PostgreSQL before batching, on 10 connections.
 *   Its SQL is the floor's own: production's one-at-a-time charge (Ledger.chargeIn) is built by Kysely
 *   on Tramita's Database, which a bare `pg` floor does not have; this row measures what batching saves.
 * FLOOR_ACCOUNTS (default 1000) accounts, each with a key; the driver picks a key per request.
 * The bench account never runs short, so the floor has no refusal path: a batch that does not
 * return every charge fails the process loudly instead.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { hashKey } from '../../src/platform/accounts/keys.ts';
import { iso, systemClock } from '../../src/platform/clock.ts';
import { migrate } from '../../src/platform/db/database.ts';
import { newId } from '../../src/platform/ids.ts';
import { LEDGER_COLUMNS, pgChargeBatchQuery, SEARCH_LOG_COLUMNS } from '../../src/platform/billing/charge-batch.ts';
import { freshDatabase } from '../../test/harness.ts';
import { handleDriver, send } from './ipc.ts';
import { applyV8Tuning } from '../../src/cli/v8-tuning.ts';

const PRICE_CENTAVOS = 1;
const INITIAL_CENTAVOS = 100_000_000;
const MAX_BATCH = 256;
/** Set when the driver stops the floor: a charge failing after that is the shutdown's, not a fault. */
let closing = false;
/** What every charge of the floor is: one centavo for a GET that answered 200. */
const BENCH_CHARGE = { centavos: PRICE_CENTAVOS, queryType: 'bench.charged', method: 'GET', path: '/v1/bench/charged', statusCode: 200 };

interface Pending {
  res: http.ServerResponse;
  accountId: string;
  requestId: string;
}

function envelope(requestId: string, searchLogId: string, after: number): string {
  return JSON.stringify({ data: { ok: true }, meta: { requestId, searchLogId, creditsCharged: PRICE_CENTAVOS / 100, creditsRemaining: after / 100 } });
}

function answer(res: http.ServerResponse, body: string): void {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

const cols = (list: readonly string[]) => list.map((c) => `"${c}"`).join(', ');

const PER_CHARGE = {
  searchLog: `insert into search_logs (${cols(SEARCH_LOG_COLUMNS)}) values ($1, $2, $3, 'bench.charged', 'GET', '/v1/bench/charged', 200, $4, $5)`,
  debit:
    `with d as (update accounts set balance_centavos = balance_centavos - $1, ledger_seq = ledger_seq + 1, updated_at = $2 where id = $3 and ` +
    `balance_centavos >= $1 returning balance_centavos, ledger_seq)
    insert into ledger (${cols(LEDGER_COLUMNS)}) select $4, $3, 'debit', -$1::bigint, d.balance_centavos, $5, ` +
    `'bench.charged', $6, null, $2, d.ledger_seq from d returning balance_after_centavos`,
};

async function connect(url: string, n: number): Promise<pg.Client[]> {
  // bigint columns come back as numbers (every amount is far below 2^53), as in Tramita's pool.
  const types = {
    getTypeParser: (oid: number, format?: 'text' | 'binary') => (oid === 20 ? Number : pg.types.getTypeParser(oid, format)),
  } as pg.CustomTypesConfig;
  return Promise.all(
    Array.from({ length: n }, async () => {
      const c = new pg.Client({ connectionString: url, types });
      await c.connect();
      return c;
    }),
  );
}

async function fundAccounts(client: pg.Client, n: number): Promise<Map<string, string>> {
  const ids = Array.from({ length: n }, (_, i) => `acc_floor_${i}`);
  const now = iso(systemClock.now());
  await client.query(
    `insert into accounts (id, name, plan, status, balance_centavos, sandbox, created_at, updated_at)
    select id, 'Floor', 'padrao', 'active', $2, 0, $3, $3 from unnest($1::text[]) as id`,
    [ids, INITIAL_CENTAVOS, now],
  );
  return new Map(ids.map((id, i) => [`floor-bench-key-${i}`, id]));
}

/** One statement per batch, on whichever connection is free. */
function batchedWriter(clients: pg.Client[]) {
  const free = [...clients];
  const queue: Pending[] = [];
  const write = async (client: pg.Client, batch: Pending[]) => {
    const logIds = batch.map(() => newId('sl'));
    const charges = batch.map((p, k) => ({
      ...BENCH_CHARGE,
      accountId: p.accountId,
      operationId: p.requestId,
      requestId: p.requestId,
      searchLogId: logIds[k]!,
      ledgerId: newId('led'),
    }));
    const q = pgChargeBatchQuery(charges, iso(systemClock.now()));
    const { rows } = await client.query<{ i: number; after: number }>({ name: 'floor-batch', text: q.sql, values: [...q.parameters] });
    if (rows.length !== batch.length) throw new Error(`floor: ${batch.length - rows.length} charges of a batch were not covered`);
    for (const { i, after } of rows) answer(batch[i - 1].res, envelope(batch[i - 1].requestId, logIds[i - 1], after));
  };
  const flush = () => {
    while (queue.length > 0 && free.length > 0) {
      const client = free.pop()!;
      const batch = queue.splice(0, MAX_BATCH);
      write(client, batch).then(
        () => {
          free.push(client);
          flush();
        },
        (err) => {
          if (closing) return; // the driver stopped the floor with a batch in flight: its connection is gone
          console.error('floor-pg: batch failed:', err);
          process.exit(1);
        },
      );
    }
  };
  return (p: Pending) => {
    queue.push(p);
    if (queue.length === 1) setImmediate(flush);
  };
}

/** FLOOR_PG_SQL=per-charge: one transaction per charge on a pool, as Tramita did before batching. */
function perChargeWriter(pool: pg.Pool) {
  return (p: Pending) => {
    void (async () => {
      const client = await pool.connect();
      try {
        const at = iso(systemClock.now());
        const searchLogId = newId('sl');
        await client.query('begin');
        await client.query({ name: 'floor-log', text: PER_CHARGE.searchLog, values: [searchLogId, p.accountId, p.requestId, PRICE_CENTAVOS, at] });
        const { rows } = await client.query<{ balance_after_centavos: number }>({
          name: 'floor-debit',
          text: PER_CHARGE.debit,
          values: [PRICE_CENTAVOS, at, p.accountId, newId('led'), p.requestId, searchLogId],
        });
        await client.query('commit');
        answer(p.res, envelope(p.requestId, searchLogId, rows[0].balance_after_centavos));
      } finally {
        client.release();
      }
    })().catch((err) => {
      if (closing) return;
      console.error('floor-pg: charge failed:', err);
      process.exit(1);
    });
  };
}

async function main(): Promise<void> {
  if (!process.env.DATABASE_URL) throw new Error('the PostgreSQL floor needs DATABASE_URL');
  // The same V8 settings as the Tramita server it is compared with.
  applyV8Tuning();
  const fresh = await freshDatabase();
  await migrate(fresh.database);
  await fresh.database.close();
  const url = fresh.config.databaseUrl!;
  const perCharge = process.env.FLOOR_PG_SQL === 'per-charge';
  const clients = await connect(url, perCharge ? 1 : Number(process.env.FLOOR_PG_CONNECTIONS ?? 4));
  const byKey = await fundAccounts(clients[0], Number(process.env.FLOOR_ACCOUNTS ?? 1000));
  const keys = new Map([...byKey].map(([key, id]) => [hashKey(key), id]));
  const pool = perCharge ? new pg.Pool({ connectionString: url, max: 10 }) : undefined;
  const charge = pool ? perChargeWriter(pool) : batchedWriter(clients);

  const server = http.createServer((req, res) => {
    const accountId = keys.get(hashKey(String(req.headers['x-api-key'])));
    if (!accountId) {
      res.writeHead(401).end();
      return;
    }
    charge({ res, accountId, requestId: newId('req') });
  });

  handleDriver({
    close: async () => {
      closing = true;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all(clients.map((c) => c.end()));
      await pool?.end();
      await fresh.drop();
    },
  });
  server.listen(0, '127.0.0.1', () => {
    send({ type: 'ready', port: (server.address() as AddressInfo).port, engine: 'postgres', details: { keys: [...byKey.keys()] } });
  });
}

void main();
