/**
 * Crash drills with real processes (issue 14): `tramita serve` is killed with SIGKILL in the middle of
 * work and started again on the same storage (SQLite, or PostgreSQL when DATABASE_URL is set), and
 * what it was doing must end, not hang. Bounded: every wait has a deadline, every child is killed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError, loadConfig } from '../src/config.ts';
import { freePort, startServe, storeFor, until } from './processes.ts';

/** A receiver on loopback that answers the first delivery 500 and leaves every later one hanging. */
async function failThenHang() {
  const hanging: http.ServerResponse[] = [];
  let received = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    received++;
    if (received === 1) res.writeHead(500).end('first attempt fails');
    else hanging.push(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received: () => received,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

test("a crash during a delivery's last attempt ends it FALHOU after the restart, with every started attempt in its history", {
  timeout: 120_000,
}, async (t) => {
  const store = await storeFor(t);
  const receiver = await failThenHang();
  t.after(() => receiver.close());
  const port = await freePort();
  const env = {
    TRAMITA_SANDBOX: 'on',
    TRAMITA_SANDBOX_CASES: '300',
    TRAMITA_WORKERS: 'in-process',
    TRAMITA_WEBHOOK_ALLOW_PRIVATE: 'true',
    TRAMITA_WEBHOOK_MAX_ATTEMPTS: '2',
    TRAMITA_DEV_TIME_SCALE: '1000',
    TRAMITA_JOB_LEASE_MS: '1000',
    TRAMITA_LOG_LEVEL: 'warn',
  };
  const base = `http://127.0.0.1:${port}`;

  const first = startServe(t, store, port, env);
  const [, key] = await first.waitFor(/API key\s+(\S+)/);
  const [, cnj] = await first.waitFor(/\/v1\/processos\/cnj\/(\d{20})/);
  const headers = { 'x-api-key': key, 'content-type': 'application/json' };
  const put = await fetch(`${base}/v1/conta/webhook`, { method: 'PUT', headers, body: JSON.stringify({ url: receiver.url }) });
  assert.equal(put.status, 200, await put.text());
  // A refresh completes in the background and records an event for the account: one delivery.
  const refresh = await fetch(`${base}/v1/processos/cnj/${cnj}/solicitar-atualizacao`, { method: 'POST', headers: { 'x-api-key': key } });
  assert.equal(refresh.status, 200, await refresh.text());
  // Attempt 1 answered 500; attempt 2 (the last) is now waiting on the receiver. Kill the server during it.
  await until('the second attempt to reach the receiver', 30_000, async () => (receiver.received() >= 2 ? true : undefined));
  first.child.kill('SIGKILL');
  await first.exited(10_000);

  const second = startServe(t, store, port, env);
  await until('the restarted server to answer', 30_000, () =>
    fetch(`${base}/healthz`).then(
      (r) => (r.ok ? true : undefined),
      () => undefined,
    ),
  );
  const delivery = await until('the delivery to settle', 30_000, async () => {
    const res = await fetch(`${base}/v1/conta/webhook/entregas`, { headers: { 'x-api-key': key } });
    const [d] = ((await res.json()) as { data: { items: any[] } }).data.items;
    return d && d.status !== 'PENDENTE' ? d : undefined;
  });
  assert.equal(delivery.status, 'FALHOU', JSON.stringify(delivery));
  assert.equal(delivery.tentativas, 2);
  assert.equal(delivery.proximaTentativaEm, null);
  assert.deepEqual(
    delivery.historico.map((a: any) => a.tentativa),
    [1, 2],
    'every attempt that started is in the history',
  );
  assert.equal(delivery.historico[0].statusHttp, 500);
  assert.match(delivery.historico[1].erro, /interrupted/);
  assert.equal(receiver.received(), 2, 'no third attempt: the last one was used up by the crash');
  second.child.kill('SIGTERM');
  await second.exited(15_000);
});

test("a crash between a charge's COMMIT and its answer: the replayed Idempotency-Key never runs or charges again", { timeout: 120_000 }, async (t) => {
  const store = await storeFor(t);
  const port = await freePort();
  // The unanswered key is taken to be a crashed request's after syncWindow + 60 s / scale = about 1.1 s.
  const env = {
    TRAMITA_SANDBOX: 'on',
    TRAMITA_SANDBOX_CASES: '300',
    TRAMITA_WORKERS: 'in-process',
    TRAMITA_LOG_LEVEL: 'warn',
    TRAMITA_SYNC_WINDOW_MS: '1000',
    TRAMITA_DEV_TIME_SCALE: '1000',
  };
  const base = `http://127.0.0.1:${port}`;
  const first = startServe(t, store, port, { ...env, TRAMITA_DEV_CRASH_AFTER_CHARGE: 'true' });
  const [, key] = await first.waitFor(/API key\s+(\S+)/);
  const create = () =>
    fetch(`${base}/v1/monitoramentos/novos-processos`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json', 'idempotency-key': 'radar-acme-1' },
      body: JSON.stringify({ termo: 'Construtora Horizonte Ltda' }),
    });
  await assert.rejects(create(), 'the process died before answering');
  await first.exited(10_000);

  const second = startServe(t, store, port, env);
  await until('the restarted server to answer', 30_000, () =>
    fetch(`${base}/healthz`).then(
      (r) => (r.ok ? true : undefined),
      () => undefined,
    ),
  );
  const replay = await until("the unanswered key to be taken for a crashed request's", 30_000, async () => {
    const res = await create();
    const body = (await res.json()) as any;
    return body.error?.code === 'IDEMPOTENCY_KEY_IN_USE' ? undefined : { status: res.status, body };
  });
  assert.equal(replay.status, 409, JSON.stringify(replay.body));
  assert.equal(replay.body.error.code, 'IDEMPOTENCY_ANSWER_LOST');
  const read = async (path: string) =>
    ((await (await fetch(`${base}${path}`, { headers: { 'x-api-key': key } })).json()) as { data: { items: any[] } }).data.items;
  const debits = (await read('/v1/conta/extrato')).filter((e) => e.tipo === 'debito');
  assert.equal(debits.length, 1, 'charged once');
  assert.equal(debits[0].searchLogId, replay.body.error.details.searchLogId, 'the refusal names the charge');
  assert.equal((await read('/v1/monitoramentos/novos-processos')).length, 1, 'one radar: the request did not run again');
  second.child.kill('SIGTERM');
  await second.exited(15_000);
});

test("the crash drill's fault-injection point is refused when NODE_ENV=production, and off by default", () => {
  assert.throws(
    () => loadConfig({ NODE_ENV: 'production', TRAMITA_DEV_CRASH_AFTER_CHARGE: 'true' }),
    (e: unknown) => e instanceof ConfigError && /NODE_ENV=production/.test(e.message),
  );
  assert.equal(loadConfig({}).devCrashAfterCharge, false);
});
