/**
 * The TypeScript SDK (packages/sdk) against a live Tramita on 127.0.0.1 with the sandbox: a lookup
 * through a forced 202 charged once, a pending answer given up on and resumed, a retry after a lost
 * answer that does not charge twice, typed errors, the key kept to the server's origin, and webhook
 * verification of a real delivery and of the documented test vectors; and the README's ten-line program,
 * run as written against the package compiled as published.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../src/config.ts';
import { Tramita, TramitaError, TramitaPendingError, verifyWebhook, WebhookVerificationError, type PendingInfo } from '../packages/sdk/src/index.ts';
import { systemClock } from '../src/platform/clock.ts';
import { formatCnj } from '../src/platform/identifiers/cnj.ts';
import { createHarness } from './harness.ts';
import { receiver } from './webhook-receiver.ts';

// The real clock, not the pinned one: the SDK's verifier (and the README's program, which cannot be told
// otherwise) checks webhook-timestamp against the receiver's own clock, as every receiver does. Nothing here
// depends on the date: the cases are chosen by the sandbox's own clock.
const h = await createHarness({ clock: systemClock, env: { TRAMITA_WEBHOOK_ALLOW_PRIVATE: 'true' } });
test.after(() => h.close());
await h.app.listen({ host: '127.0.0.1', port: 0 });
const baseUrl = `http://127.0.0.1:${(h.app.server.address() as { port: number }).port}`;
const now = h.sources.sandbox!.dataset.now();
const visible = h.sources.sandbox!.dataset.cases.filter((c) => c.filedAt <= now && c.court.datajudAlias);

/** A client whose requests are recorded (method and path). */
function client(apiKey: string, fetchImpl: typeof fetch = fetch) {
  const calls: string[] = [];
  const sdk = new Tramita({
    baseUrl,
    apiKey,
    fetch: (input, init) => {
      const url = new URL(String(input));
      calls.push(`${init?.method ?? 'GET'} ${url.pathname}`);
      return fetchImpl(input, init);
    },
  });
  return { sdk, calls };
}

async function debits(accountId: string): Promise<number> {
  return (await h.services.db.selectFrom('ledger').select('id').where('account_id', '=', accountId).where('kind', '=', 'debit').execute()).length;
}

test('a lookup forced to 202 is polled to its answer, the requestId handed over at once, charged once', async () => {
  const acc = await h.createAccount({ credits: 10_000 });
  const { sdk, calls } = client(acc.key);
  const pending: PendingInfo[] = [];
  const cnj = formatCnj(visible[0]!.numero);
  const res = await sdk.getProcessosCnjByCnj({ cnj }, { respondAsync: true, onPending: (p) => pending.push(p) });
  assert.equal(res.data.numeroCnj, cnj);
  assert.equal(pending.length, 1);
  assert.match(pending[0]!.requestId, /^req_/);
  assert.equal(calls.filter((c) => c.startsWith('GET /v1/processos/cnj/')).length, 1, 'the paid request is sent once');
  assert.ok(
    calls.slice(1).every((c) => c === `GET /v1/requests/${pending[0]!.requestId}`),
    calls.join(', '),
  );
  assert.equal(await debits(acc.accountId), 1);
});

test('a pending answer given up on is resumed later by its requestId, without a second charge', async () => {
  const acc = await h.createAccount({ credits: 10_000 });
  const { sdk } = client(acc.key);
  const cnj = formatCnj(visible[1]!.numero);
  const err = await sdk.getProcessosCnjByCnj({ cnj }, { respondAsync: true, waitMs: 0 }).catch((e: unknown) => e);
  assert.ok(err instanceof TramitaPendingError, String(err));
  const res = await sdk.resume<{ data: { numeroCnj: string } }>(err.requestId);
  assert.equal(res.data.numeroCnj, cnj);
  assert.equal(await debits(acc.accountId), 1);
});

test('an answer lost on the way back is asked again with the same Idempotency-Key: one charge', async () => {
  const acc = await h.createAccount({ credits: 10_000 });
  const keys: (string | null)[] = [];
  let lost = 0;
  const { sdk, calls } = client(acc.key, async (input, init) => {
    keys.push(new Headers(init?.headers).get('idempotency-key'));
    const res = await fetch(input, init);
    if (lost++ === 0) throw new TypeError('fetch failed'); // the server answered; the network lost it
    return res;
  });
  const cnj = formatCnj(visible[2]!.numero);
  const res = await sdk.getProcessosCnjByCnj({ cnj });
  assert.equal(res.data.numeroCnj, cnj);
  assert.equal(calls.length, 2);
  assert.ok(keys[0] && keys[0] === keys[1], 'the retry sends the same key');
  assert.equal(await debits(acc.accountId), 1);
});

test('an error answer is a TramitaError with the envelope code, status and requestId', async () => {
  const acc = await h.createAccount({ credits: 10_000 });
  const { sdk } = client(acc.key);
  const err = await sdk.getProcessosCnjByCnj({ cnj: '123' }).catch((e: unknown) => e);
  assert.ok(err instanceof TramitaError);
  assert.equal(err.status, 400);
  assert.match(err.code, /^[A-Z_]+$/);
  assert.match(err.requestId ?? '', /^req_/);
  const unauthorized = await new Tramita({ baseUrl, apiKey: 'tk_nao_existe' }).getContaSaldo().catch((e: unknown) => e);
  assert.ok(unauthorized instanceof TramitaError);
  assert.equal(unauthorized.status, 401);
});

test('a status URL on another origin is not followed: the key stays with the server it was given for', async () => {
  const seen: string[] = [];
  const fake: typeof fetch = async (input) => {
    const url = new URL(String(input));
    seen.push(url.origin + url.pathname);
    if (url.pathname === '/v1/conta/saldo') {
      return new Response(JSON.stringify({ data: { requestId: 'req_x', statusUrl: 'http://attacker.example/v1/requests/req_x', pollAfterMs: 100 } }), {
        status: 202,
        headers: { 'content-type': 'application/json', location: 'http://attacker.example/v1/requests/req_x' },
      });
    }
    return new Response(JSON.stringify({ data: { saldo: 1 }, meta: {} }), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  await new Tramita({ baseUrl: 'http://tramita.test', apiKey: 'tk_x', fetch: fake }).getContaSaldo();
  assert.deepEqual(seen, ['http://tramita.test/v1/conta/saldo', 'http://tramita.test/v1/requests/req_x']);
});

test('a real delivery verifies with the secret; a changed body, an old timestamp or another secret do not', async (t) => {
  const acc = await h.createAccount({ credits: 10_000 });
  const rx = await receiver();
  t.after(() => rx.close());
  const { sdk } = client(acc.key);
  await sdk.putContaWebhook({ body: { url: rx.url } });
  const {
    data: { segredo },
  } = await sdk.postContaWebhookSegredo();
  await sdk.postContaWebhookTeste();
  const delivery = rx.received.at(-1)!;
  const event = await verifyWebhook(delivery.raw, delivery.headers, segredo);
  assert.equal(event.event, 'teste');
  assert.equal(event.id, delivery.body.id);
  // Fetch-style headers (Next.js, edge runtimes) verify the same.
  const fetchHeaders = new Headers(Object.entries(delivery.headers).map(([k, v]) => [k, String(v)]));
  assert.equal((await verifyWebhook(delivery.raw.toString('utf8'), fetchHeaders, segredo)).id, event.id);

  const tampered = Buffer.from(delivery.raw.toString('utf8').replace('"teste"', '"teste2"'));
  await assert.rejects(verifyWebhook(tampered, delivery.headers, segredo), WebhookVerificationError);
  await assert.rejects(verifyWebhook(delivery.raw, delivery.headers, 'whsec_b3V0cm8tc2VncmVkby1xdWFscXVlcg=='), WebhookVerificationError);
  await assert.rejects(verifyWebhook(delivery.raw, delivery.headers, segredo, { now: () => Date.now() + 10 * 60_000 }), /toler/);
  const unsigned = Object.fromEntries(Object.entries(delivery.headers).filter(([k]) => !k.endsWith('signature')));
  await assert.rejects(verifyWebhook(delivery.raw, unsigned, segredo), /sem assinatura/);
});

test('the test vectors of docs/webhooks.md verify', async () => {
  const body =
    '{"id":"evt_01jd7x3k9q2m8r5t6v7w8y9z0a","event":"nova_movimentacao","source":"tramita","created_at":"2026-01-15T12:00:00.000Z",' +
    '"data":{"numeroCnj":"0001234-56.2024.8.26.0100","tribunal":"TJSP","movimentacoes":[{"data":"2026-01-15","descricao":"Conclusão ' +
    'ao juiz"}]}}';
  const headers = {
    'x-service-signature': 'sha256=c8640875386fe062c7ef2be35a8bac8c1c78f25694ca2c6d2a21ed8e60fe9d43',
    'webhook-id': 'msg_01jd7x3p8k2m4n6q8r0s2t4v6w',
    'webhook-timestamp': '1768478400',
    'webhook-signature': 'v1,Kos1EHjHDFdBE9pREh0rrklJLvJ0iuM/s9XW0ZFBVWY=',
  };
  const event = await verifyWebhook(body, headers, 'whsec_dHJhbWl0YS10ZXN0LXZlY3Rvci1rZXkh', { now: () => 1768478400_000 });
  assert.equal(event.event, 'nova_movimentacao');
  // Each signature alone is enough, and each is checked.
  const { 'webhook-signature': _, ...serviceOnly } = headers;
  assert.equal((await verifyWebhook(body, serviceOnly, 'whsec_dHJhbWl0YS10ZXN0LXZlY3Rvci1rZXkh')).id, event.id);
  await assert.rejects(
    verifyWebhook(body, { ...serviceOnly, 'x-service-signature': `sha256=${'0'.repeat(64)}` }, 'whsec_dHJhbWl0YS10ZXN0LXZlY3Rvci1rZXkh'),
    /X-Service-Signature/,
  );
});

test("the README's ten-line program runs as written: a case through a forced 202, and a webhook verified", { timeout: 120_000 }, async (t) => {
  const acc = await h.createAccount({ credits: 10_000 });
  const rx = await receiver();
  t.after(() => rx.close());
  const sdk = new Tramita({ baseUrl, apiKey: acc.key });
  await sdk.putContaWebhook({ body: { url: rx.url } });
  const {
    data: { segredo },
  } = await sdk.postContaWebhookSegredo();
  await sdk.postContaWebhookTeste();
  const delivery = rx.received.at(-1)!;

  // The package as an integrator installs it: compiled, under node_modules/@tramita/sdk.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tramita-sdk-readme-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const pkg = path.join(dir, 'node_modules', '@tramita', 'sdk');
  const sdkDir = path.join(PROJECT_ROOT, 'packages', 'sdk');
  await promisify(execFile)(
    path.join(PROJECT_ROOT, 'node_modules', '.bin', 'tsc'),
    ['-p', path.join(sdkDir, 'tsconfig.json'), '--outDir', path.join(pkg, 'dist')],
    { timeout: 120_000 },
  );
  fs.copyFileSync(path.join(sdkDir, 'package.json'), path.join(pkg, 'package.json'));
  const readme = fs.readFileSync(path.join(sdkDir, 'README.md'), 'utf8');
  const program = /## Início rápido[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)![1]!;
  assert.ok(program.trim().split('\n').length <= 10, 'ten lines at most');
  fs.writeFileSync(path.join(dir, 'programa.mts'), program);
  const { stdout } = await promisify(execFile)(process.execPath, ['programa.mts'], {
    cwd: dir,
    timeout: 60_000,
    env: {
      ...process.env,
      TRAMITA_URL: baseUrl,
      TRAMITA_KEY: acc.key,
      CNJ: formatCnj(visible[3]!.numero),
      CORPO: delivery.raw.toString('utf8'),
      CABECALHOS: JSON.stringify(delivery.headers),
      SEGREDO: segredo,
    },
  });
  assert.match(stdout, /em processamento: req_/);
  assert.match(stdout, new RegExp(`${formatCnj(visible[3]!.numero).replace(/[.-]/g, '\\$&')} `));
  assert.match(stdout, /webhook verificado: teste evt_/);
});
