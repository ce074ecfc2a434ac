/**
 * Times the stages of the charged path one at a time, in one process, with no network, on a fresh
 * SQLite database (the harness's): where `npm run bench`'s CPU goes. Rows marked "x50" queue 50
 * operations in one tick, as 50 connections do, and report the cost per operation.
 * Usage: node bench/stages.ts [ITERATIONS]   (default 5000; SQLite only: DATABASE_URL must be unset)
 */
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { performance } from 'node:perf_hooks';
import type { Kysely, Transaction } from 'kysely';
import { hashKey } from '../src/platform/accounts/keys.ts';
import type { Ledger } from '../src/platform/billing/ledger.ts';
import { iso, systemClock } from '../src/platform/clock.ts';
import type { DB } from '../src/platform/db/schema.ts';
import { defineRoute } from '../src/platform/http/route.ts';
import { newId } from '../src/platform/ids.ts';
import { createHarness, testPrices, type Harness, type TestAccount } from '../test/harness.ts';
import { BENCH_ROUTES } from './servers/ipc.ts';

const ITERATIONS = Number(process.argv[2] ?? 5000);
const WARMUP = 500;

async function time(label: string, fn: () => unknown, perCall = 1): Promise<void> {
  for (let i = 0; i < WARMUP / perCall; i++) await fn();
  const start = performance.now();
  for (let i = 0; i < ITERATIONS / perCall; i++) await fn();
  const us = ((performance.now() - start) * 1000) / ITERATIONS;
  console.log(`${label.padEnd(74)} ${us.toFixed(1).padStart(7)} µs/op  ${String(Math.round(1e6 / us)).padStart(7)} op/s`);
}

async function benchHarness(): Promise<Harness> {
  return createHarness({
    env: { TRAMITA_RATE_LIMITS: 'lookup=100000000/60s,account=100000000/60s', TRAMITA_LOG_LEVEL: 'warn' },
    prices: testPrices({ 'bench.charged': 1 }),
    extraRoutes: (app) =>
      defineRoute(app, {
        method: 'GET',
        url: BENCH_ROUTES.charged,
        meta: { class: 'lookup', auth: true, charge: 'bench.charged', tag: 'Bench', summary: 'bench' },
        schema: {},
        handler: async () => ({ data: { ok: true } }),
      }),
  });
}

/** The charged transaction's three writes, as node:sqlite prepared statements (what Kysely ends up running). */
function rawCharge(raw: DatabaseSync, accountId: string): () => void {
  const insertLog = raw.prepare(
    'insert into search_logs (id, account_id, request_id, query_type, method, path, status_code, charged_centavos, created_at) values (?,?,?,?,?,?,?,?,?)',
  );
  const update: StatementSync = raw.prepare(
    'update accounts set balance_centavos = balance_centavos - ?, ledger_seq = ledger_seq + 1, updated_at = ? where id = ? and balance_centavos >= ? ' +
      'returning balance_centavos, ledger_seq',
  );
  const insertLedger = raw.prepare(
    'insert into ledger (id, account_id, kind, delta_centavos, balance_after_centavos, operation_id, query_type, search_log_id, note, ' +
      'created_at, seq) values (?,?,?,?,?,?,?,?,?,?,?)',
  );
  return () => {
    const now = iso(systemClock.now());
    const logId = newId('sl');
    const requestId = newId('req');
    raw.exec('BEGIN');
    insertLog.run(logId, accountId, requestId, 'bench.charged', 'GET', BENCH_ROUTES.charged, 200, 1, now);
    const row = update.all(1, now, accountId, 1)[0] as { balance_centavos: number; ledger_seq: number };
    insertLedger.run(newId('led'), accountId, 'debit', -1, row.balance_centavos, requestId, 'bench.charged', logId, null, now, row.ledger_seq);
    raw.exec('COMMIT');
  };
}

/** The charge's unit of work, as operation.ts runs it: the search log, then the debit. */
function chargeWork(ledger: Ledger, accountId: string) {
  return async (trx: Transaction<DB>) => {
    const requestId = newId('req');
    await ledger.chargeIn(trx, {
      accountId,
      queryType: 'bench.charged',
      origin: { requestId, method: 'GET', path: BENCH_ROUTES.charged, statusCode: 200 },
      debits: [{ operationId: requestId, centavos: 1 }],
    });
  };
}

/** In a Kysely transaction of its own (what every charge did before the group commit). */
function ownTransactionCharge(db: Kysely<DB>, ledger: Ledger, accountId: string): () => Promise<void> {
  return () => db.transaction().execute(chargeWork(ledger, accountId));
}

/** `n` charges queued in the same tick through Ledger.transact: on SQLite they share one COMMIT. */
function groupCharges(ledger: Ledger, accountId: string, n: number): () => Promise<unknown> {
  return () => Promise.all(Array.from({ length: n }, () => ledger.transact(chargeWork(ledger, accountId))));
}

/** `n` request-path charges in one tick through Ledger.charge: on SQLite one bulk write (charge-batch.ts). */
function bulkCharges(ledger: Ledger, accountId: string, n: number): () => Promise<unknown> {
  return () =>
    Promise.all(
      Array.from({ length: n }, () => {
        const requestId = newId('req');
        return ledger.charge({
          accountId,
          queryType: 'bench.charged',
          origin: { requestId, method: 'GET', path: BENCH_ROUTES.charged, statusCode: 200 },
          debits: [{ operationId: requestId, centavos: 1 }],
        });
      }),
    );
}

async function rawStages(file: string, account: TestAccount): Promise<void> {
  const raw = new DatabaseSync(file);
  raw.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;');
  const charge = rawCharge(raw, account.accountId);
  await time('node:sqlite: BEGIN + 3 writes + COMMIT (synchronous=NORMAL)', charge);
  raw.exec('PRAGMA synchronous = OFF');
  await time('node:sqlite: the same with synchronous=OFF (experiment only)', charge);
  raw.close();
}

async function main(): Promise<void> {
  if (process.env.DATABASE_URL) throw new Error('bench/stages.ts times SQLite: unset DATABASE_URL');
  const h = await benchHarness();
  try {
    const account = await h.createAccount({ credits: 100_000_000 });
    await time('ids: newId x3 + iso timestamp', () => {
      newId('req');
      newId('sl');
      newId('led');
      iso(systemClock.now());
    });
    await time('auth: sha256 of the key', () => hashKey(account.key));
    await time('auth: AccountStore.findByKey (cached key, sha256 + map)', () => h.services.accounts.findByKey(account.key));
    await time('one indexed read through prepared() (AccountStore.balance)', () => h.services.accounts.balance(account.accountId));
    await rawStages(`${h.config.dataDir}/tramita.db`, account);
    await time('charge: own Kysely transaction (search log + debit + ledger row)', ownTransactionCharge(h.services.db, h.services.ledger, account.accountId));
    await time('charge: Ledger.transact, one alone (its own COMMIT)', groupCharges(h.services.ledger, account.accountId, 1));
    await time('charge: Ledger.transact x50 (group commit), per charge', groupCharges(h.services.ledger, account.accountId, 50), 50);
    await time('charge: Ledger.charge x50 (group commit, written in bulk), per charge', bulkCharges(h.services.ledger, account.accountId, 50), 50);
    await time('whole request: app.inject GET /v1/conta/saldo', () => h.inject({ method: 'GET', url: '/v1/conta/saldo', headers: account.headers }));
    await time(`whole request: app.inject GET ${BENCH_ROUTES.charged}`, () => h.inject({ method: 'GET', url: BENCH_ROUTES.charged, headers: account.headers }));
    const inject50 = () => Promise.all(Array.from({ length: 50 }, () => h.inject({ method: 'GET', url: BENCH_ROUTES.charged, headers: account.headers })));
    await time(`whole request: app.inject GET ${BENCH_ROUTES.charged} x50, per request`, inject50, 50);
  } finally {
    await h.close();
  }
}

await main();
