/**
 * Hostile clients (issue 45): what a client that does not play fair tries, through HTTP, on SQLite or
 * PostgreSQL (DATABASE_URL):
 * - guesses sent at once against a console sign-in are counted one by one, and lock it (item 2);
 * - a locked e-mail answers exactly what an unknown one does;
 * - another application's cookie the console cannot decode counts as absent (item 5);
 * - an estimate does not take an Idempotency-Key, and says when the route charges (item 6; issue 46 item 7);
 * - an account holds at most TRAMITA_MAX_API_KEYS active keys, even created at once, and its keys share
 *   one rate window (item 7);
 * - proxies are trusted by hop count or address, never all: a forged X-Forwarded-For is not the
 *   client's address, and `Host`/`X-Forwarded-Host` never reach an absolute URL (items 3 and 7 of the Why).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { createHarness, json, type Harness, type TestAccount } from './harness.ts';
import { testRoutes } from './routes.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { hashPassword } from '../src/capabilities/console/passwords.ts';
import { ConsoleStore, LOCKOUT_MS } from '../src/capabilities/console/store.ts';
import { cnjCheckDigits } from '../src/platform/identifiers/cnj.ts';
import { ConfigError } from '../src/config.ts';
import { trustProxy } from '../src/platform/http/proxy-trust.ts';
import { runCli } from '../src/cli/run.ts';

const clock = new ManualClock('2026-03-02T12:00:00.000Z');
const h = await createHarness({ clock, extraRoutes: testRoutes });
test.after(() => h.close());

const PASSWORD = 'senha-bem-comprida-1';
const WRONG = 'senha-errada-000';
let people = 0;

/** A console person with PASSWORD set, of `acc` or of a new account; returns the e-mail. */
async function person(on: Harness = h, acc?: TestAccount): Promise<string> {
  const accountId = (acc ?? (await on.createAccount())).accountId;
  const store = new ConsoleStore(on.services.db, on.services.clock);
  const email = `pessoa${++people}@exemplo.com.br`;
  const { token } = (await store.invite(accountId, email))!;
  await store.acceptInvitation(token, await hashPassword(PASSWORD));
  return email;
}

/** A sign-in form of its own (pre-session CSRF cookie and token), from `address`. */
async function signInForm(address: string, on: Harness = h) {
  const page = await on.inject({ method: 'GET', url: '/console/entrar', remoteAddress: address });
  const cookie = String(page.headers['set-cookie']).split(';')[0]!;
  const csrf = /name="_csrf" value="([^"]+)"/.exec(page.body)![1]!;
  return (email: string, senha: string): Promise<LightMyRequestResponse> =>
    on.inject({
      method: 'POST',
      url: '/console/entrar',
      remoteAddress: address,
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ _csrf: csrf, email, senha }).toString(),
    });
}

test('20 wrong passwords sent at once lock the e-mail: the right one afterwards is refused', async () => {
  const email = await person();
  const signIn = await signInForm('198.51.100.1');
  const guesses = await Promise.all(Array.from({ length: 20 }, () => signIn(email, WRONG)));
  assert.deepEqual(
    guesses.map((r) => r.statusCode),
    Array(20).fill(401),
  );
  const right = await signIn(email, PASSWORD);
  assert.equal(right.statusCode, 401, 'locked: the right password does not sign in');
  assert.doesNotMatch(String(right.headers['set-cookie'] ?? ''), /tramita_sessao=/);
  const row = await h.services.db.selectFrom('console_users').select(['failed_signins', 'locked_until']).where('email', '=', email).executeTakeFirstOrThrow();
  assert.equal(row.failed_signins, 21, 'every attempt counted, none lost to a concurrent write');
  assert.ok(row.locked_until && row.locked_until > clock.now().toISOString());
});

test('the lock ends after 15 minutes; a success resets the count', async () => {
  const email = await person();
  const signIn = await signInForm('198.51.100.2');
  for (let i = 0; i < 5; i++) assert.equal((await signIn(email, WRONG)).statusCode, 401);
  assert.equal((await signIn(email, PASSWORD)).statusCode, 401, 'locked');
  clock.advance(LOCKOUT_MS);
  assert.equal((await signIn(email, PASSWORD)).statusCode, 303, 'the lock has ended');
  for (let i = 0; i < 4; i++) assert.equal((await signIn(email, WRONG)).statusCode, 401);
  assert.equal((await signIn(email, PASSWORD)).statusCode, 303, 'four wrong passwords do not lock');
  for (let i = 0; i < 4; i++) assert.equal((await signIn(email, WRONG)).statusCode, 401);
  assert.equal((await signIn(email, PASSWORD)).statusCode, 303, 'the success before reset the count');
});

test('a locked e-mail and an unknown one answer the same status and page', async () => {
  const email = await person();
  const signIn = await signInForm('198.51.100.3');
  const unknown = 'ninguem-aqui@exemplo.com.br';
  for (let i = 0; i < 6; i++) {
    const known = await signIn(email, WRONG);
    const nobody = await signIn(unknown, WRONG);
    assert.equal(known.statusCode, nobody.statusCode, `attempt ${i + 1}`);
    assert.equal(known.body, nobody.body, `attempt ${i + 1}`);
  }
  const locked = await signIn(email, PASSWORD);
  const nobody = await signIn(unknown, PASSWORD);
  assert.equal(locked.statusCode, nobody.statusCode);
  assert.equal(locked.body, nobody.body);
});

test("another application's cookie the console cannot decode counts as absent, never a 500", async () => {
  const page = await h.inject({ method: 'GET', url: '/console/entrar', headers: { cookie: 'other_app=100%; tema=escuro' } });
  assert.equal(page.statusCode, 200);
  const email = await person();
  const signIn = await signInForm('198.51.100.4');
  const session = String((await signIn(email, PASSWORD)).headers['set-cookie']).split(';')[0]!;
  const signedIn = await h.inject({ method: 'GET', url: '/console/visao-geral', headers: { cookie: `other_app=100%; ${session}; x=%E0%A4%A` } });
  assert.equal(signedIn.statusCode, 200, 'the session still reads beside a broken cookie');
  const ours = await h.inject({ method: 'GET', url: '/console/visao-geral', headers: { cookie: 'tramita_sessao=%E0%A4%A' } });
  assert.equal(ours.statusCode, 303, 'our own cookie, undecodable: no session');
  assert.equal(ours.headers.location, '/console/entrar');
});

test('an estimate does not take the Idempotency-Key: the same request without Prefer runs and is charged', async () => {
  const acc = await h.createAccount({ credits: 100 });
  const headers = { ...acc.headers, 'idempotency-key': 'pedido-estimado-1', 'content-type': 'application/json' };
  const payload = JSON.stringify({ nome: 'estimado' });
  const estimate = await h.inject({ method: 'POST', url: '/v1/test/orders', headers: { ...headers, prefer: 'return=estimate' }, payload });
  assert.equal(estimate.headers['preference-applied'], 'return=estimate');
  const real = await h.inject({ method: 'POST', url: '/v1/test/orders', headers, payload });
  assert.equal(real.statusCode, 201, real.body);
  assert.equal(real.headers['idempotent-replayed'], undefined);
  assert.equal(json(real).data.nome, 'estimado');
  assert.equal(json(real).meta.creditsCharged, 0.05);
  const replay = await h.inject({ method: 'POST', url: '/v1/test/orders', headers, payload });
  assert.equal(replay.headers['idempotent-replayed'], 'true');
  assert.equal(replay.body, real.body);
  // An estimate sent after the real run is still an estimate, and charges nothing.
  const after = await h.inject({ method: 'POST', url: '/v1/test/orders', headers: { ...headers, prefer: 'return=estimate' }, payload });
  assert.equal(json(after).meta.estimate, true);
  assert.equal((await h.services.accounts.balance(acc.accountId)) ?? 0, 95);
});

test('an estimate says when the route charges: with the answer, at creation, when its work completes, or never', async () => {
  const acc = await h.createAccount({ credits: 100 });
  const estimate = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
    const headers = { ...acc.headers, prefer: 'return=estimate', ...(body ? { 'content-type': 'application/json' } : {}) };
    return json(await h.inject({ method, url, headers, payload: body ? JSON.stringify(body) : undefined })).data.chargedOn;
  };
  assert.equal(await estimate('POST', '/v1/test/orders', { nome: 'x' }), 'success');
  assert.equal(await estimate('POST', '/v1/test/subscriptions', { nome: 'x' }), 'creation');
  const cnj = `0000001-${cnjCheckDigits('0000001', '2024', '8', '26', '0100')}.2024.8.26.0100`;
  assert.equal(await estimate('POST', `/v1/processos/cnj/${cnj}/solicitar-atualizacao`), 'completion');
  assert.equal(await estimate('GET', '/v1/conta/saldo'), null);
});

test('TRAMITA_TRUST_PROXY takes a hop count or addresses; a bare true is refused with what to write', () => {
  assert.equal(trustProxy('false'), false);
  assert.equal(trustProxy('1'), 1);
  assert.deepEqual(trustProxy('10.0.0.0/8, 127.0.0.1,::1,fd00::/8,loopback'), ['10.0.0.0/8', '127.0.0.1', '::1', 'fd00::/8', 'loopback']);
  assert.throws(
    () => trustProxy('true'),
    (e) => e instanceof ConfigError && /TRAMITA_TRUST_PROXY=1/.test(e.message) && /127\.0\.0\.1/.test(e.message),
  );
  for (const bad of ['nginx', '10.0.0.0/33', '10.0.0.1/8/1', '300.1.1.1', '0.5']) assert.throws(() => trustProxy(bad), ConfigError, bad);
});

test('serve refuses to start without TRAMITA_PUBLIC_URL where its own address is not the public one', async () => {
  const cases: Record<string, string>[] = [{ TRAMITA_HOST: '0.0.0.0' }, { TRAMITA_HOST: '192.0.2.10' }, { TRAMITA_TRUST_PROXY: '1' }];
  for (const env of cases) {
    const errors: string[] = [];
    const code = await runCli(['serve'], { env, out: () => {}, err: (t) => errors.push(t) });
    assert.equal(code, 2, JSON.stringify(env));
    assert.match(errors.join('\n'), /TRAMITA_PUBLIC_URL=https:\/\/api\.example\.com/);
  }
});

test('with one trusted hop, a forged X-Forwarded-For is not the address: the proxy-written hop is', async (t) => {
  const behind = await createHarness({ env: { TRAMITA_TRUST_PROXY: '1', TRAMITA_PUBLIC_URL: 'https://api.exemplo.com.br' } });
  t.after(() => behind.close());
  const acc = await behind.createAccount();
  const store = new ConsoleStore(behind.services.db, behind.services.clock);
  const { token } = (await store.invite(acc.accountId, 'proxy@exemplo.com.br'))!;
  await store.acceptInvitation(token, await hashPassword(PASSWORD));
  const page = await behind.inject({ method: 'GET', url: '/console/entrar', remoteAddress: '127.0.0.1' });
  const cookie = String(page.headers['set-cookie']).split(';')[0]!;
  const csrf = /name="_csrf" value="([^"]+)"/.exec(page.body)![1]!;
  for (const forged of ['203.0.113.66', '203.0.113.67']) {
    const res = await behind.inject({
      method: 'POST',
      url: '/console/entrar',
      remoteAddress: '127.0.0.1',
      // The client wrote the first entry; nginx appended the address it saw.
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': `${forged}, 198.51.100.20` },
      payload: new URLSearchParams({ _csrf: csrf, email: 'proxy@exemplo.com.br', senha: WRONG }).toString(),
    });
    assert.equal(res.statusCode, 401);
  }
  const ips = await behind.services.db
    .selectFrom('audit_log')
    .select('ip')
    .where('account_id', '=', acc.accountId)
    .where('action', '=', 'sessao.falha')
    .execute();
  assert.deepEqual(
    ips.map((r) => r.ip),
    ['198.51.100.20', '198.51.100.20'],
  );
});

test('Host and X-Forwarded-Host never reach links.next or a status URL', async () => {
  const acc = await h.createAccount({ credits: 100 });
  await h.inject({ method: 'GET', url: '/v1/test/charged', headers: acc.headers });
  const hostile = { host: 'attacker.example', 'x-forwarded-host': 'attacker.example', 'x-forwarded-proto': 'https' };
  const page = await h.inject({ method: 'GET', url: '/v1/conta/extrato?limit=1', headers: { ...acc.headers, ...hostile } });
  assert.equal(page.statusCode, 200, page.body);
  const next = json(page).data.links.next.href as string;
  assert.ok(next.startsWith(`http://${h.config.host}:${h.config.port}/v1/conta/extrato?`), next);
  const pending = await h.inject({ method: 'GET', url: '/v1/test/charged?delayMs=200', headers: { ...acc.headers, ...hostile, prefer: 'respond-async' } });
  assert.equal(pending.statusCode, 202, pending.body);
  assert.equal(pending.headers.location, `http://${h.config.host}:${h.config.port}/v1/requests/${json(pending).data.requestId}`);
});

test('an account holds at most TRAMITA_MAX_API_KEYS active keys, even asked at once; its keys share one rate window', async (t) => {
  const capped = await createHarness({ env: { TRAMITA_MAX_API_KEYS: '3', TRAMITA_RATE_LIMITS: 'account=4/3600s' } });
  t.after(() => capped.close());
  const acc = await capped.createAccount();
  const asked = await Promise.allSettled(Array.from({ length: 10 }, () => capped.services.accounts.issueKey(acc.accountId, 'em massa')));
  const made = asked.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  assert.equal(made.length, 2, 'one key from the start, two more');
  for (const r of asked) if (r.status === 'rejected') assert.equal(r.reason.code, 'API_KEY_LIMIT_REACHED');

  // The console says so, with the registry's status.
  const signIn = await signInForm('198.51.100.9', capped);
  const session = String((await signIn(await person(capped, acc), PASSWORD)).headers['set-cookie']).split(';')[0]!;
  const keysPage = await capped.inject({ method: 'GET', url: '/console/chaves', headers: { cookie: session } });
  const csrf = /name="_csrf" value="([^"]+)"/.exec(keysPage.body)![1]!;
  const refused = await capped.inject({
    method: 'POST',
    url: '/console/chaves',
    headers: { cookie: session, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ _csrf: csrf, nome: 'mais uma' }).toString(),
  });
  assert.equal(refused.statusCode, 422);
  assert.match(refused.body, /número máximo de chaves de API ativas: revogue uma/);
  await capped.services.accounts.revokeKey(made[0]!.id);
  assert.ok(await capped.services.accounts.issueKey(acc.accountId), 'a revoked key frees its place');

  // PostgreSQL's shared windows are aligned to the clock: do not straddle the end of one.
  const left = 3_600_000 - (Date.now() % 3_600_000);
  if (left < 10_000) await new Promise((r) => setTimeout(r, left + 100));
  const keys = [acc.key, made[1]!.key];
  const statuses = [];
  for (let i = 0; i < 6; i++) {
    statuses.push((await capped.inject({ method: 'GET', url: '/v1/conta/saldo', headers: { 'x-api-key': keys[i % 2]! } })).statusCode);
  }
  assert.deepEqual(statuses, [200, 200, 200, 200, 429, 429], 'two keys, one window of 4');
});
