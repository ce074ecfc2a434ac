/**
 * The PostgreSQL floor: the least work a charged answer needs on PostgreSQL, written apart from
 * Tramita (issue 54). Bare node:http, the keys in an in-memory hash, no rate limiter, and `pg` on a
 * database of its own, created from DATABASE_URL with the floor's own three tables (SCHEMA below:
 * accounts by id, the ledger by (account, number), the covers by CNJ; no other index, no search log,
 * no once-per-operation constraint). Per request: the stored cover read (on /v1/processos/cnj/{cnj};
 * nothing on other paths, the charged route's floor), the balance debited, ONE ledger row appended,
 * committed before the answer. The cheapest way found (each measured as a breakdown row):
 * - default: the charges of one event-loop turn in ONE statement of the floor's own (BATCH_SQL: one
 *   round trip, its own implicit transaction, the accounts locked in id order, one conditional UPDATE
 *   per account, the ledger rows inserted from what it returned, the covers of the turn read in the
 *   same statement); up to FLOOR_PG_CONNECTIONS (default 4) in flight, each on its own connection,
 *   prepared once (named statement);
 * - FLOOR_PG_SQL=per-charge: one transaction per charge (BEGIN, debit + ledger row in one statement,
 *   COMMIT) on 10 connections, to show what batching saves.
 * Until issue 54 this floor ran production's own batch statement (billing/charge-batch.ts
 * pgChargeBatchQuery) on Tramita's migrated schema. That copied the product: an index or a table the
 * product added to a charge was added to the floor too, and the share of the floor could not show it.
 * Batching a turn's charges into one statement is kept, as the least work any server committing each
 * charge before its answer needs on PostgreSQL; the statement and its tables are the floor's.
 * FLOOR_ACCOUNTS (default 1000) accounts, each with a key; the driver picks a key per request.
 * The bench account never runs short, so the floor has no refusal path: a batch that does not
 * return every charge fails the process loudly instead.
 */
import { hash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { handleDriver, send } from './ipc.ts';
import { applyV8Tuning } from '../../src/cli/v8-tuning.ts';

const PRICE_CENTAVOS = 1;
const INITIAL_CENTAVOS = 100_000_000;
const MAX_BATCH = 256;
/** Set when the driver stops the floor: a charge failing after that is the shutdown's, not a fault. */
let closing = false;
/** What every charge of the floor is: one centavo for a GET that answered 200. */
const COVER_PRICE_CENTAVOS = 10;
const COVER_PREFIX = '/v1/processos/cnj/';
const HOT_CNJ = 'floor-hot-cover';

const SCHEMA = `
create table accounts (id text primary key, balance_centavos bigint not null check (balance_centavos >= 0), ledger_seq bigint not null default 0);
create table ledger (
  account_id text not null,
  seq bigint not null,
  delta_centavos bigint not null,
  balance_after_centavos bigint not null,
  operation_id text not null,
  created_at text not null,
  primary key (account_id, seq)
);
create table covers (cnj text primary key, body text not null);`;

/**
 * One batch: $1 the accounts, $2 the prices, $3 the request ids (one element per charge), $4 the time,
 * $5 the distinct covers asked. The accounts are locked in id order (two batches sharing accounts wait
 * instead of deadlocking), each debited by its total if its balance covers it, and each charge gets its
 * balance after and its number from the UPDATE's result minus the charges queued after it.
 */
const BATCH_SQL = `with c as materialized (
  select * from unnest($1::text[], $2::bigint[], $3::text[]) with ordinality as c(account_id, centavos, operation_id, i)
),
t as (select account_id, sum(centavos)::bigint as total, count(*) as n from c group by account_id),
locked as materialized (select a.id from accounts a join t on t.account_id = a.id order by a.id for update of a),
u as (
  update accounts a set balance_centavos = a.balance_centavos - t.total, ledger_seq = a.ledger_seq + t.n
  from t join locked on locked.id = t.account_id
  where a.id = t.account_id and a.balance_centavos >= t.total
  returning a.id, a.balance_centavos, a.ledger_seq
),
ok as (
  select c.*, (u.balance_centavos + coalesce(sum(c.centavos) over later, 0))::bigint as after, (u.ledger_seq - count(*) over later)::bigint as seq
  from c join u on u.id = c.account_id
  window later as (partition by c.account_id order by c.i desc rows between unbounded preceding and 1 preceding)
),
rows as (
  insert into ledger (account_id, seq, delta_centavos, balance_after_centavos, operation_id, created_at)
  select account_id, seq, -centavos, after, operation_id, $4 from ok
)
select i::int as i, after, null::text as cnj, null::text as body from ok
union all select null, null, cnj, body from covers where cnj = any($5::text[])`;

interface Pending {
  res: http.ServerResponse;
  accountId: string;
  requestId: string;
  /** The CNJ of the cover asked for; undefined on the charged route. */
  cnj: string | undefined;
}

const hashKey = (key: string) => hash('sha256', key, 'hex');
let requests = 0;
const requestId = () => `req_floor_${(++requests).toString(36)}`;
const priceOf = (p: Pending) => (p.cnj === undefined ? PRICE_CENTAVOS : COVER_PRICE_CENTAVOS);

function envelope(data: string, requestId: string, centavos: number, after: number): string {
  return `{"data":${data},"meta":{"requestId":"${requestId}","creditsCharged":${centavos / 100},"creditsRemaining":${after / 100}}}`;
}

function answer(res: http.ServerResponse, body: string): void {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

const PER_CHARGE = {
  debit: `with d as (update accounts set balance_centavos = balance_centavos - $1, ledger_seq = ledger_seq + 1 where id = $2 and balance_centavos >= $1
    returning balance_centavos, ledger_seq)
    insert into ledger (account_id, seq, delta_centavos, balance_after_centavos, operation_id, created_at)
    select $2, d.ledger_seq, -$1::bigint, d.balance_centavos, $3, $4 from d returning balance_after_centavos`,
  cover: 'select body from covers where cnj = $1',
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

/** A database of the floor's own, created from DATABASE_URL's server, and how to drop it. */
async function ownDatabase(url: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `floor_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const own = new URL(url);
  own.pathname = `/${name}`;
  return {
    url: own.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

async function fundAccounts(client: pg.Client, n: number): Promise<Map<string, string>> {
  await client.query(SCHEMA);
  const ids = Array.from({ length: n }, (_, i) => `acc_floor_${i}`);
  await client.query('insert into accounts (id, balance_centavos) select id, $2 from unnest($1::text[]) as id', [ids, INITIAL_CENTAVOS]);
  const body = readFileSync(new URL('./floor-cover.json', import.meta.url), 'utf8').trim();
  await client.query('insert into covers (cnj, body) values ($1, $2)', [HOT_CNJ, body]);
  return new Map(ids.map((id, i) => [`floor-bench-key-${i}`, id]));
}

/** One statement per batch, on whichever connection is free. */
function batchedWriter(clients: pg.Client[]) {
  const free = [...clients];
  const queue: Pending[] = [];
  const write = async (client: pg.Client, batch: Pending[]) => {
    const cnjs = [...new Set(batch.flatMap((p) => (p.cnj === undefined ? [] : [p.cnj])))];
    const values = [batch.map((p) => p.accountId), batch.map(priceOf), batch.map((p) => p.requestId), new Date().toISOString(), cnjs];
    const { rows } = await client.query<{ i: number | null; after: number | null; cnj: string | null; body: string | null }>({
      name: 'floor-batch',
      text: BATCH_SQL,
      values,
    });
    const covers = new Map(rows.flatMap((r) => (r.cnj === null ? [] : [[r.cnj, r.body!]])));
    const charged = rows.filter((r) => r.i !== null);
    if (charged.length !== batch.length || covers.size !== cnjs.length) throw new Error('floor: a batch left charges or covers out');
    for (const { i, after } of charged) {
      const p = batch[i! - 1];
      answer(p.res, envelope(p.cnj === undefined ? '{"ok":true}' : covers.get(p.cnj)!, p.requestId, priceOf(p), after!));
    }
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
        await client.query('begin');
        const cover = p.cnj === undefined ? undefined : await client.query<{ body: string }>({ name: 'floor-cover', text: PER_CHARGE.cover, values: [p.cnj] });
        const { rows } = await client.query<{ balance_after_centavos: number }>({
          name: 'floor-debit',
          text: PER_CHARGE.debit,
          values: [priceOf(p), p.accountId, p.requestId, new Date().toISOString()],
        });
        await client.query('commit');
        answer(p.res, envelope(cover ? cover.rows[0].body : '{"ok":true}', p.requestId, priceOf(p), rows[0].balance_after_centavos));
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
  const own = await ownDatabase(process.env.DATABASE_URL);
  const url = own.url;
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
    const path = req.url ?? '/';
    const cnj = path.startsWith(COVER_PREFIX) ? decodeURIComponent(path.slice(COVER_PREFIX.length)) : undefined;
    charge({ res, accountId, requestId: requestId(), cnj });
  });

  handleDriver({
    close: async () => {
      closing = true;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all(clients.map((c) => c.end()));
      await pool?.end();
      await own.drop();
    },
  });
  server.listen(0, '127.0.0.1', () => {
    send({ type: 'ready', port: (server.address() as AddressInfo).port, engine: 'postgres', details: { keys: [...byKey.keys()], hotCnj: HOT_CNJ } });
  });
}

void main();
