/**
 * The CPU time of one charge as the request path writes it (Ledger.charge, 50 queued in one tick and
 * written in bulk, as 50 connections do), on a fresh SQLite harness: what a schema change to the
 * charge tables (an index, a key) costs per charge. CPU time (process.cpuUsage), not wall time, so a
 * shared machine moves it less than bench/stages.ts's rows. Issue 54 ran it alternately on two trees.
 * Usage: node bench/charge-cpu.ts [ROUNDS]   (default 1000 rounds of 50; SQLite only: DATABASE_URL must be unset)
 */
import { newId } from '../src/platform/ids.ts';
import { createHarness, testPrices } from '../test/harness.ts';
import { BENCH_ROUTES } from './servers/ipc.ts';

if (process.env.DATABASE_URL) throw new Error('bench/charge-cpu.ts measures SQLite: unset DATABASE_URL');
const ROUNDS = Number(process.argv[2] ?? 1000);
const PER_ROUND = 50;

const h = await createHarness({ prices: testPrices({ 'bench.charged': 1 }) });
const account = await h.createAccount({ credits: 100_000_000 });
const round = () =>
  Promise.all(
    Array.from({ length: PER_ROUND }, () => {
      const requestId = newId('req');
      return h.services.ledger.charge({
        accountId: account.accountId,
        queryType: 'bench.charged',
        origin: { requestId, method: 'GET', path: BENCH_ROUTES.charged, statusCode: 200 },
        debits: [{ operationId: requestId, centavos: 1 }],
      });
    }),
  );
for (let i = 0; i < ROUNDS / 5; i++) await round();
const before = process.cpuUsage();
for (let i = 0; i < ROUNDS; i++) await round();
const used = process.cpuUsage(before);
console.log(`Ledger.charge x${PER_ROUND}, bulk: ${((used.user + used.system) / (ROUNDS * PER_ROUND)).toFixed(2)} µs of CPU per charge`);
await h.close();
