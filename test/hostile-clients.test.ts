/**
 * Hostile clients (issue 45): what a client that does not play fair tries, through HTTP, on SQLite or
 * PostgreSQL (DATABASE_URL):
 * - guesses sent at once against a console sign-in are counted one by one, and lock it (item 2);
 * - a locked e-mail answers exactly what an unknown one does;
 * - another application's cookie the console cannot decode counts as absent (item 5);
 * - an estimate does not take an Idempotency-Key, and says when the route charges (item 6; issue 46 item 7).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { createHarness, json } from './harness.ts';
import { testRoutes } from './routes.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { hashPassword } from '../src/capabilities/console/passwords.ts';
import { ConsoleStore, LOCKOUT_MS } from '../src/capabilities/console/store.ts';
import { cnjCheckDigits } from '../src/platform/identifiers/cnj.ts';

const clock = new ManualClock('2026-03-02T12:00:00.000Z');
const h = await createHarness({ clock, extraRoutes: testRoutes });
test.after(() => h.close());

const PASSWORD = 'senha-bem-comprida-1';
const WRONG = 'senha-errada-000';
let people = 0;

/** A console person of a new account with PASSWORD set; returns the e-mail. */
async function person(): Promise<string> {
  const acc = await h.createAccount();
  const store = new ConsoleStore(h.services.db, h.services.clock);
  const email = `pessoa${++people}@exemplo.com.br`;
  const { token } = (await store.invite(acc.accountId, email))!;
  await store.acceptInvitation(token, await hashPassword(PASSWORD));
  return email;
}

/** A sign-in form of its own (pre-session CSRF cookie and token), from `address`. */
async function signInForm(address: string) {
  const page = await h.inject({ method: 'GET', url: '/console/entrar', remoteAddress: address });
  const cookie = String(page.headers['set-cookie']).split(';')[0]!;
  const csrf = /name="_csrf" value="([^"]+)"/.exec(page.body)![1]!;
  return (email: string, senha: string): Promise<LightMyRequestResponse> =>
    h.inject({
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
