/**
 * The webhook retry ladder walked end to end (issue 14, item 8): with the development time scale a
 * receiver that always fails sees all its attempts, spaced as spec §6.1 says (scaled), and the
 * delivery ends FALHOU; the setting is refused in production.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError, loadConfig } from '../src/config.ts';
import { deliveryRetryDelayMs } from '../src/platform/webhooks/deliveries.ts';
import { createHarness, json } from './harness.ts';

const SCALE = 10_000;
const ATTEMPTS = 12;

test('with TRAMITA_DEV_TIME_SCALE the whole ladder of 12 attempts runs in seconds, spaced by the scaled spec delays, and ends FALHOU', {
  timeout: 60_000,
}, async (t) => {
  const arrivals: number[] = [];
  const receiver = http.createServer((req, res) => {
    req.resume();
    arrivals.push(performance.now());
    res.writeHead(503).end();
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  t.after(
    () =>
      new Promise<void>((r) => {
        receiver.closeAllConnections();
        receiver.close(() => r());
      }),
  );
  const h = await createHarness({
    env: { TRAMITA_WEBHOOK_ALLOW_PRIVATE: 'true', TRAMITA_DEV_TIME_SCALE: String(SCALE), TRAMITA_WEBHOOK_MAX_ATTEMPTS: String(ATTEMPTS) },
  });
  t.after(() => h.close());
  const owner = await h.createAccount();
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  assert.equal((await h.inject({ method: 'PUT', url: '/v1/conta/webhook', headers: owner.headers, payload: { url } })).statusCode, 200);
  await h.services.db.transaction().execute((trx) =>
    h.services.events.record(trx, {
      kind: 'atualizacao_processo_concluida',
      numeroCnj: null,
      tribunal: null,
      accountId: owner.accountId,
      data: { numeroCnj: null, tribunal: null },
    }),
  );

  const deadline = Date.now() + 45_000;
  let delivery: any;
  do {
    await h.runJobs();
    [delivery] = json(await h.inject({ method: 'GET', url: '/v1/conta/webhook/entregas', headers: owner.headers })).data.items;
    if (delivery?.status === 'PENDENTE') await new Promise((r) => setTimeout(r, 10));
  } while (delivery?.status === 'PENDENTE' && Date.now() < deadline);

  assert.equal(delivery.status, 'FALHOU', JSON.stringify(delivery));
  assert.equal(arrivals.length, ATTEMPTS);
  assert.deepEqual(
    delivery.historico.map((a: any) => a.tentativa),
    Array.from({ length: ATTEMPTS }, (_, i) => i + 1),
  );
  assert.ok(delivery.historico.every((a: any) => a.statusHttp === 503));
  // Each wait at least the scaled spec delay: the ladder's order and spacing, not a speed.
  for (let n = 1; n < ATTEMPTS; n++) {
    assert.ok(
      arrivals[n] - arrivals[n - 1] >= deliveryRetryDelayMs(n, SCALE) - 5,
      `attempt ${n + 1} came ${arrivals[n] - arrivals[n - 1]} ms after attempt ${n}`,
    );
  }
});

test('TRAMITA_DEV_TIME_SCALE is refused when NODE_ENV=production, and 1 (no scaling) is the default', () => {
  assert.throws(
    () => loadConfig({ NODE_ENV: 'production', TRAMITA_DEV_TIME_SCALE: '1000' }),
    (e: unknown) => e instanceof ConfigError && /NODE_ENV=production/.test(e.message),
  );
  assert.equal(loadConfig({ NODE_ENV: 'production' }).devTimeScale, 1);
  assert.equal(deliveryRetryDelayMs(1), 120_000);
  assert.equal(deliveryRetryDelayMs(11, 1000), 7_200);
});
