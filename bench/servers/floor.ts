/**
 * The SQLite floor: the least work a charged answer needs, written apart from Tramita (issue 54). Bare
 * node:http; the key checked against one in-memory hash; per request, the stored document read (the
 * cover, on /v1/processos/cnj/{cnj}; nothing on any other path, the charged route's floor), the
 * balance debited and ONE ledger row appended, committed before the answer.
 *
 * Its schema is its own (the CREATE TABLEs below), not Tramita's migrations: the accounts by id, the
 * ledger by (account, number) (its primary key: the rows an account's statement reads, in order), the
 * covers by CNJ. No other index, no search log, no once-per-operation constraint, no framework, rate
 * limiter, validation or metrics. So whatever Tramita's schema or request path adds per charge (an
 * index, a table, a hook) shows as a lower share of this floor, which does not move with it.
 *
 * The charges of one event-loop turn share one transaction (group commit, the cheapest way to commit
 * each charge before its answer): the balance read once, each charge decided in JS, one multi-row
 * INSERT and one UPDATE per batch; each distinct cover of the turn is read once. FLOOR_SQL=per-charge
 * (a breakdown row) writes each charge as its own statements in a savepoint instead.
 *
 * The stored cover (floor-cover.json) is Tramita's answer for the bench's hot sandbox case (fictitious
 * data), so both send the same bytes; the paired stage prints each side's bytes per response.
 */
import { hash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { handleDriver, send } from './ipc.ts';
import { applyV8Tuning } from '../../src/cli/v8-tuning.ts';

const ACCOUNT = 'acc_floor';
const KEY = 'floor-bench-key';
/** One centavo on the charged route, ten on the cover (processo.capa's price in the bench). */
const PRICE_CENTAVOS = 1;
const COVER_PRICE_CENTAVOS = 10;
const INITIAL_CENTAVOS = 100_000_000;
const COVER_PREFIX = '/v1/processos/cnj/';

const SCHEMA = `
create table accounts (
  id text primary key,
  balance_centavos integer not null check (balance_centavos >= 0),
  ledger_seq integer not null
) without rowid;
create table ledger (
  account_id text not null,
  seq integer not null,
  delta_centavos integer not null,
  balance_after_centavos integer not null,
  operation_id text not null,
  created_at text not null,
  primary key (account_id, seq)
) without rowid;
create table covers (cnj text primary key, body text not null) without rowid;`;

interface Pending {
  res: http.ServerResponse;
  accountId: string;
  requestId: string;
  /** The CNJ of the cover asked for; undefined on the charged route. */
  cnj: string | undefined;
}
type Answer = [http.ServerResponse, string];

const hashKey = (key: string) => hash('sha256', key, 'hex');
let requests = 0;
const requestId = () => `req_floor_${(++requests).toString(36)}`;

function envelope(data: string, requestId: string, centavos: number, after: number): string {
  return `{"data":${data},"meta":{"requestId":"${requestId}","creditsCharged":${centavos / 100},"creditsRemaining":${after / 100}}}`;
}

function open(dir: string, hotCnj: string): DatabaseSync {
  const db = new DatabaseSync(join(dir, 'floor.db'));
  // The same durability settings as Tramita's SQLite (platform/db).
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA wal_autocheckpoint = 250;');
  db.exec(SCHEMA);
  db.prepare('insert into accounts (id, balance_centavos, ledger_seq) values (?, ?, 0)').run(ACCOUNT, INITIAL_CENTAVOS);
  const body = readFileSync(new URL('./floor-cover.json', import.meta.url), 'utf8').trim();
  db.prepare('insert into covers (cnj, body) values (?, ?)').run(hotCnj, body);
  return db;
}

/** Per batch: a reader of each distinct cover once; `{"ok":true}` where no cover is asked (the charged route). */
function coverReader(db: DatabaseSync) {
  const read = db.prepare('select body from covers where cnj = ?');
  return () => {
    const bodies = new Map<string, string>();
    return (p: Pending): string | undefined => {
      if (p.cnj === undefined) return '{"ok":true}';
      let body = bodies.get(p.cnj);
      if (body === undefined) {
        body = (read.get(p.cnj) as { body: string } | undefined)?.body;
        if (body !== undefined) bodies.set(p.cnj, body);
      }
      return body;
    };
  };
}

const priceOf = (p: Pending) => (p.cnj === undefined ? PRICE_CENTAVOS : COVER_PRICE_CENTAVOS);

/** One account per bench: its balance read once, then one INSERT and one UPDATE per batch. */
function batchedWriter(db: DatabaseSync) {
  const balance = db.prepare('select balance_centavos, ledger_seq from accounts where id = ?');
  const setBalance = db.prepare('update accounts set balance_centavos = ?, ledger_seq = ? where id = ?');
  const inserts = new Map<number, StatementSync>();
  const insertFor = (n: number) => {
    let i = inserts.get(n);
    if (!i) {
      const values = Array.from({ length: n }, () => '(?, ?, ?, ?, ?, ?)').join(', ');
      i = db.prepare(`insert into ledger (account_id, seq, delta_centavos, balance_after_centavos, operation_id, created_at) values ${values}`);
      inserts.set(n, i);
    }
    return i;
  };
  return (batch: Pending[], cover: (p: Pending) => string | undefined, at: string, answers: Answer[]) => {
    const accountId = batch[0].accountId;
    const read = balance.get(accountId) as { balance_centavos: number; ledger_seq: number };
    let left = read.balance_centavos;
    let seq = read.ledger_seq;
    const rows: Array<string | number> = [];
    for (const p of batch) {
      const data = cover(p);
      if (data === undefined) {
        answers.push([p.res, '']);
        continue;
      }
      const price = priceOf(p);
      left -= price; // the bench account never runs short
      seq += 1;
      rows.push(accountId, seq, -price, left, p.requestId, at);
      answers.push([p.res, envelope(data, p.requestId, price, left)]);
    }
    if (rows.length === 0) return;
    insertFor(rows.length / 6).run(...rows);
    setBalance.run(left, seq, accountId);
  };
}

/** FLOOR_SQL=per-charge: each charge its own conditional UPDATE and INSERT, in a savepoint. */
function perChargeWriter(db: DatabaseSync) {
  const savepoint = db.prepare('savepoint charge');
  const release = db.prepare('release charge');
  const debit = db.prepare(
    'update accounts set balance_centavos = balance_centavos - ?, ledger_seq = ledger_seq + 1 where id = ? and balance_centavos >= ? ' +
      'returning balance_centavos, ledger_seq',
  );
  const row = db.prepare('insert into ledger (account_id, seq, delta_centavos, balance_after_centavos, operation_id, created_at) values (?, ?, ?, ?, ?, ?)');
  return (batch: Pending[], cover: (p: Pending) => string | undefined, at: string, answers: Answer[]) => {
    for (const p of batch) {
      const data = cover(p);
      if (data === undefined) {
        answers.push([p.res, '']);
        continue;
      }
      const price = priceOf(p);
      savepoint.run();
      const { balance_centavos: after, ledger_seq: seq } = debit.get(price, p.accountId, price) as { balance_centavos: number; ledger_seq: number };
      row.run(p.accountId, seq, -price, after, p.requestId, at);
      release.run();
      answers.push([p.res, envelope(data, p.requestId, price, after)]);
    }
  };
}

function main(): void {
  if (process.env.DATABASE_URL) throw new Error('the floor case measures SQLite');
  // The same V8 settings as the Tramita server it is compared with.
  applyV8Tuning();
  const hotCnj = 'floor-hot-cover';
  const dir = mkdtempSync(join(tmpdir(), 'tramita-floor-'));
  const db = open(dir, hotCnj);
  const keys = new Map([[hashKey(KEY), ACCOUNT]]);
  const begin = db.prepare('begin');
  const commit = db.prepare('commit');
  const coversOf = coverReader(db);
  const write = process.env.FLOOR_SQL === 'per-charge' ? perChargeWriter(db) : batchedWriter(db);

  let queue: Pending[] = [];
  const commitBatch = () => {
    const batch = queue;
    queue = [];
    const at = new Date().toISOString();
    const answers: Answer[] = [];
    begin.run();
    write(batch, coversOf(), at, answers);
    commit.run();
    for (const [res, body] of answers) {
      if (body === '') {
        res.writeHead(404).end();
        continue;
      }
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    }
  };

  const server = http.createServer((req, res) => {
    const accountId = keys.get(hashKey(String(req.headers['x-api-key'])));
    if (!accountId) {
      res.writeHead(401).end();
      return;
    }
    const url = req.url ?? '/';
    const cnj = url.startsWith(COVER_PREFIX) ? decodeURIComponent(url.slice(COVER_PREFIX.length)) : undefined;
    queue.push({ res, accountId, requestId: requestId(), cnj });
    if (queue.length === 1) setImmediate(commitBatch);
  });

  handleDriver({
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  });
  server.listen(0, '127.0.0.1', () => {
    send({ type: 'ready', port: (server.address() as AddressInfo).port, engine: 'sqlite', details: { key: KEY, hotCnj } });
  });
}

main();
