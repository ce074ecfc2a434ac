/**
 * Two `tramita serve` processes on one PostgreSQL share one key's limit (issue 19, item 4): the
 * requests they admit together stay within the limit plus the documented tolerance (about one sync
 * interval of requests per extra process), instead of twice the limit. PostgreSQL only: a SQLite
 * deployment is one process.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { freePort, startServe, storeFor } from './processes.ts';

const LIMIT = 30;
const WINDOW_MS = 60 * 60_000;

test("two API processes on one PostgreSQL share one key's limit", {
  skip: !process.env.DATABASE_URL && 'PostgreSQL only (DATABASE_URL)',
  timeout: 120_000,
}, async (t) => {
  const store = await storeFor(t);
  const env = {
    TRAMITA_SANDBOX_CASES: '300',
    TRAMITA_SANDBOX_PORT: '0',
    TRAMITA_RATE_LIMITS: `account=${LIMIT}/60m`,
    TRAMITA_RATE_LIMIT_SYNC_MS: '50',
    TRAMITA_WORKERS: 'off',
  };
  const [portA, portB] = [await freePort(), await freePort()];
  const a = startServe(t, store, portA, env);
  const [, key] = await a.waitFor(/API key\s+(\S+)/);
  const b = startServe(t, store, portB, env);
  await b.waitFor(/tramita listening/);
  // Windows are aligned to the clock: do not straddle an hour's boundary.
  const intoWindow = Date.now() % WINDOW_MS;
  if (intoWindow > WINDOW_MS - 20_000) await new Promise((r) => setTimeout(r, WINDOW_MS - intoWindow + 100));

  const admitted = { [portA]: 0, [portB]: 0 };
  let refused = 0;
  for (let i = 0; i < 3 * LIMIT; i++) {
    const port = i % 2 === 0 ? portA : portB;
    const res = await fetch(`http://127.0.0.1:${port}/v1/conta/saldo`, { headers: { 'x-api-key': key! } });
    await res.arrayBuffer();
    if (res.status === 200) admitted[port]!++;
    else {
      assert.equal(res.status, 429);
      refused++;
    }
    await new Promise((r) => setTimeout(r, 20)); // a steady client, not a burst inside one sync interval
  }
  const total = admitted[portA]! + admitted[portB]!;
  assert.ok(total >= LIMIT, `the limit itself is served: ${total} admitted`);
  assert.ok(total <= LIMIT + 4, `${total} admitted by two processes for a limit of ${LIMIT} (each alone would admit ${LIMIT})`);
  assert.ok(admitted[portA]! > 0 && admitted[portB]! > 0, 'both processes served the key');
  assert.equal(refused, 3 * LIMIT - total);
});
