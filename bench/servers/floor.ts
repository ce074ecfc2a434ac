/**
 * The floor of the charged path: what any server pays that obeys the money rules of issue 2 (the
 * debit, its ledger row and the search log committed, atomically per charge, before the answer), with
 * nothing else. Bare node:http, no framework, the key checked against one in-memory hash, no rate
 * limiter, and the charge as raw node:sqlite prepared statements on Tramita's own migrated SQLite
 * schema: the charges of one event-loop turn in one transaction, each in a savepoint (as
 * platform/billing/group-commit.ts does), answered after the COMMIT with the envelope Tramita sends.
 * By default the batch is written the cheapest way the rules allow (as Tramita's
 * billing/charge-batch.ts does): the balance read once, every charge decided in JS, one multi-row
 * INSERT per table and one UPDATE of the account per batch. FLOOR_SQL=per-charge (a breakdown row)
 * writes each charge as its own statements in a savepoint instead.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DatabaseSync } from 'node:sqlite';
import { hashKey } from '../../src/platform/accounts/keys.ts';
import { iso, systemClock } from '../../src/platform/clock.ts';
import { migrate } from '../../src/platform/db/database.ts';
import { newId } from '../../src/platform/ids.ts';
import { freshDatabase } from '../../test/harness.ts';
import { handleDriver, send } from './ipc.ts';
import { applyV8Tuning } from '../../src/cli/v8-tuning.ts';

const ACCOUNT = 'acc_floor';
const KEY = 'floor-bench-key';
const PRICE_CENTAVOS = 1;
const INITIAL_CENTAVOS = 100_000_000;

interface Pending {
  res: http.ServerResponse;
  accountId: string;
  requestId: string;
}
type Answer = [http.ServerResponse, string];

function envelope(requestId: string, searchLogId: string, after: number): string {
  return JSON.stringify({ data: { ok: true }, meta: { requestId, searchLogId, creditsCharged: PRICE_CENTAVOS / 100, creditsRemaining: after / 100 } });
}

function chargeStatements(db: DatabaseSync) {
  return {
    begin: db.prepare('begin'),
    commit: db.prepare('commit'),
    savepoint: db.prepare('savepoint charge'),
    release: db.prepare('release charge'),
    searchLog: db.prepare(
      'insert into search_logs (id, account_id, request_id, query_type, method, path, status_code, charged_centavos, ' +
        'created_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    debit: db.prepare(
      'update accounts set balance_centavos = balance_centavos - ?, ledger_seq = ledger_seq + 1, updated_at = ? where id = ? and balance_centavos >= ? ' +
        'returning balance_centavos, ledger_seq',
    ),
    ledger: db.prepare(
      'insert into ledger (id, account_id, kind, delta_centavos, balance_after_centavos, operation_id, query_type, search_log_id, note, created_at, seq) ' +
        'values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ),
  };
}

/** One account per bench: its balance read once, then one INSERT per table and one UPDATE per batch. */
function batchedWriter(db: DatabaseSync) {
  const balance = db.prepare('select balance_centavos, ledger_seq from accounts where id = ?');
  const setBalance = db.prepare('update accounts set balance_centavos = ?, ledger_seq = ?, updated_at = ? where id = ?');
  const inserts = new Map<number, { logs: ReturnType<DatabaseSync['prepare']>; rows: ReturnType<DatabaseSync['prepare']> }>();
  const insertsFor = (n: number) => {
    let i = inserts.get(n);
    if (!i) {
      const values = (k: number) => Array.from({ length: n }, () => `(${Array(k).fill('?').join(', ')})`).join(', ');
      i = {
        logs: db.prepare(
          `insert into search_logs (id, account_id, request_id, query_type, method, path, status_code, charged_centavos, created_at) values ${values(9)}`,
        ),
        rows: db.prepare(
          `insert into ledger (id, account_id, kind, delta_centavos, balance_after_centavos, operation_id, query_type, ` +
            `search_log_id, note, created_at, seq) values ${values(11)}`,
        ),
      };
      inserts.set(n, i);
    }
    return i;
  };
  return (batch: Pending[], at: string, answers: Answer[]) => {
    const accountId = batch[0].accountId;
    const read = balance.get(accountId) as { balance_centavos: number; ledger_seq: number };
    let left = read.balance_centavos;
    let seq = read.ledger_seq;
    const logs: Array<string | number | null> = [];
    const rows: Array<string | number | null> = [];
    for (const p of batch) {
      left -= PRICE_CENTAVOS; // the bench account never runs short
      const searchLogId = newId('sl');
      logs.push(searchLogId, accountId, p.requestId, 'bench.charged', 'GET', '/v1/bench/charged', 200, PRICE_CENTAVOS, at);
      seq += 1;
      rows.push(newId('led'), accountId, 'debit', -PRICE_CENTAVOS, left, p.requestId, 'bench.charged', searchLogId, null, at, seq);
      answers.push([p.res, envelope(p.requestId, searchLogId, left)]);
    }
    const i = insertsFor(batch.length);
    i.logs.run(...logs);
    i.rows.run(...rows);
    setBalance.run(left, seq, at, accountId);
  };
}

async function main(): Promise<void> {
  if (process.env.DATABASE_URL) throw new Error('the floor case measures SQLite');
  // The same V8 settings as the Tramita server it is compared with.
  applyV8Tuning();
  const fresh = await freshDatabase();
  await migrate(fresh.database);
  await fresh.database.close();
  const db = new DatabaseSync(`${fresh.config.dataDir}/tramita.db`);
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA wal_autocheckpoint = 250;');
  const now = iso(systemClock.now());
  db.prepare('insert into accounts (id, name, plan, status, balance_centavos, sandbox, created_at, updated_at) values (?, ?, ?, ?, ?, 0, ?, ?)').run(
    ACCOUNT,
    'Floor',
    'padrao',
    'active',
    INITIAL_CENTAVOS,
    now,
    now,
  );
  const keys = new Map([[hashKey(KEY), ACCOUNT]]);
  const s = chargeStatements(db);

  const batched = process.env.FLOOR_SQL === 'per-charge' ? undefined : batchedWriter(db);
  let queue: Pending[] = [];
  const perCharge = (batch: Pending[], at: string, answers: Answer[]) => {
    for (const p of batch) {
      s.savepoint.run();
      const searchLogId = newId('sl');
      s.searchLog.run(searchLogId, p.accountId, p.requestId, 'bench.charged', 'GET', '/v1/bench/charged', 200, PRICE_CENTAVOS, at);
      const { balance_centavos: after, ledger_seq: seq } = s.debit.all(PRICE_CENTAVOS, at, p.accountId, PRICE_CENTAVOS)[0] as {
        balance_centavos: number;
        ledger_seq: number;
      };
      s.ledger.run(newId('led'), p.accountId, 'debit', -PRICE_CENTAVOS, after, p.requestId, 'bench.charged', searchLogId, null, at, seq);
      s.release.run();
      answers.push([p.res, envelope(p.requestId, searchLogId, after)]);
    }
  };
  const commitBatch = () => {
    const batch = queue;
    queue = [];
    const at = iso(systemClock.now());
    const answers: Answer[] = [];
    s.begin.run();
    (batched ?? perCharge)(batch, at, answers);
    s.commit.run();
    for (const [res, body] of answers) {
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
    queue.push({ res, accountId, requestId: newId('req') });
    if (queue.length === 1) setImmediate(commitBatch);
  });

  handleDriver({
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      db.close();
      await fresh.drop();
    },
  });
  server.listen(0, '127.0.0.1', () => {
    send({ type: 'ready', port: (server.address() as AddressInfo).port, engine: 'sqlite', details: { key: KEY } });
  });
}

void main();
