/**
 * The console through HTTP: invitation → password → session cookie; sign-in refusals and lockout;
 * CSRF and Origin on every change; sign-out (here and everywhere); other accounts' objects are 404;
 * the API's rules (INVALID_WEBHOOK_URL) and its services (a console key works on /v1); the audit log;
 * the statement's CSV; security headers. The browser walk-through is test/console-browser.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../app.ts';
import { buildCapabilities } from '../index.ts';
import { createHarness, type TestAccount } from '../../../test/harness.ts';
import { brasiliaDay } from '../../platform/format.ts';
import { inviteUser } from './invite.ts';

// 101 monitors of one account are created in a row below: more than the monitor class's default of 60 a minute.
const h = await createHarness({ env: { TRAMITA_RATE_LIMITS: 'monitor=200/60s' } });
test.after(() => h.close());

/** A browser over inject: keeps cookies, reads the CSRF token of the last page. */
class Visitor {
  readonly jar = new Map<string, string>();
  csrf = '';
  last!: LightMyRequestResponse;

  readonly app: Pick<FastifyInstance, 'inject'>;
  readonly address: string;

  /** `app`: which API process it talks to; `address`: where it comes from. */
  constructor(app: Pick<FastifyInstance, 'inject'> = h.app, address = '127.0.0.1') {
    this.app = app;
    this.address = address;
  }

  async go(
    method: 'GET' | 'POST',
    url: string,
    form?: Record<string, string | string[]>,
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> {
    const cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const body = form
      ? new URLSearchParams(Object.entries(form).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, x]) : [[k, v]]))).toString()
      : undefined;
    this.last = await this.app.inject({
      method,
      url,
      remoteAddress: this.address,
      payload: body,
      headers: { ...(cookie ? { cookie } : {}), ...(body !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}), ...headers },
    });
    for (const c of ([] as string[]).concat(this.last.headers['set-cookie'] ?? [])) {
      const [pair] = c.split(';');
      const [k, v] = pair!.split('=');
      if (/Max-Age=0/.test(c)) this.jar.delete(k!);
      else this.jar.set(k!, v!);
    }
    const token = /name="_csrf" value="([^"]+)"/.exec(this.last.body)?.[1];
    if (token) this.csrf = token;
    return this.last;
  }

  /** A form post from the last page, with its CSRF token. */
  post(url: string, form: Record<string, string | string[]> = {}, headers: Record<string, string> = {}) {
    return this.go('POST', url, { _csrf: this.csrf, ...form }, headers);
  }
}

const PASSWORD = 'senha-bem-comprida-1';

async function invited(acc: TestAccount, email: string): Promise<string> {
  const { link } = await inviteUser(h.services, acc.accountId, email, 'http://127.0.0.1');
  return new URL(link).pathname;
}

/** A person of `acc` with a password, signed in. */
async function signedIn(acc: TestAccount, email = `p${Math.random().toString(36).slice(2)}@exemplo.com.br`): Promise<Visitor> {
  const v = new Visitor();
  const path = await invited(acc, email);
  await v.go('GET', path);
  assert.equal((await v.post(path, { senha: PASSWORD, confirmacao: PASSWORD })).statusCode, 303);
  await v.go('GET', '/console/entrar');
  const res = await v.post('/console/entrar', { email, senha: PASSWORD });
  assert.equal(res.statusCode, 303, res.body);
  assert.equal(res.headers.location, '/console/visao-geral');
  await v.go('GET', '/console/visao-geral');
  return v;
}

test('an invitation sets the password once; the session cookie is HttpOnly, SameSite and scoped to /console', async () => {
  const acc = await h.createAccount({ credits: 500 });
  const v = new Visitor();
  const path = await invited(acc, 'Ana@Exemplo.com.br');
  assert.equal((await v.go('GET', path)).statusCode, 200);
  assert.match(v.last.body, /ana@exemplo\.com\.br/);
  assert.equal((await v.post(path, { senha: 'curta', confirmacao: 'curta' })).statusCode, 400);
  assert.equal((await v.post(path, { senha: PASSWORD, confirmacao: 'outra-senha-qualquer' })).statusCode, 400);
  assert.equal((await v.post(path, { senha: PASSWORD, confirmacao: PASSWORD })).statusCode, 303);
  assert.equal((await v.go('GET', path)).statusCode, 404, 'the link works once');

  await v.go('GET', '/console/entrar');
  const res = await v.post('/console/entrar', { email: 'ana@exemplo.com.br', senha: PASSWORD });
  assert.equal(res.statusCode, 303);
  const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('tramita_sessao='))!;
  assert.match(cookie, /HttpOnly/);
  assert.match(cookie, /SameSite=Lax/);
  assert.match(cookie, /Path=\/console/);
  assert.doesNotMatch(cookie, /Secure/, 'plain HTTP here');
  const page = await v.go('GET', '/console/visao-geral');
  assert.equal(page.statusCode, 200);
  assert.match(page.body, /Saldo<strong>R\$ 5,00<\/strong>/);
  const stored = await h.services.db.selectFrom('console_users').select('password_hash').where('email', '=', 'ana@exemplo.com.br').executeTakeFirstOrThrow();
  assert.match(stored.password_hash!, /^scrypt\$32768\$8\$1\$/);
});

test('an expired invitation is refused', async () => {
  const acc = await h.createAccount();
  const path = await invited(acc, 'expira@exemplo.com.br');
  await h.services.db.updateTable('console_invites').set({ expires_at: '2020-01-01T00:00:00.000Z' }).execute();
  assert.equal((await new Visitor().go('GET', path)).statusCode, 404);
});

test('a wrong password, an unknown e-mail and a locked e-mail get the same answer; five wrong passwords lock the person out', async () => {
  const acc = await h.createAccount();
  const email = 'bloqueio@exemplo.com.br';
  await (await signedIn(acc, email)).post('/console/sair');
  const v = new Visitor();
  await v.go('GET', '/console/entrar');
  const unknown = await v.post('/console/entrar', { email: 'ninguem@exemplo.com.br', senha: PASSWORD });
  const wrong = await v.post('/console/entrar', { email, senha: 'senha-errada-123' });
  assert.equal(unknown.statusCode, 401);
  assert.equal(wrong.statusCode, 401);
  assert.equal(wrong.body, unknown.body);
  for (let i = 0; i < 4; i++) await v.post('/console/entrar', { email, senha: 'senha-errada-123' });
  const locked = await v.post('/console/entrar', { email, senha: PASSWORD });
  assert.equal(locked.statusCode, 401, 'even the right password waits out the lockout');
  assert.match(locked.body, /bloqueado por 15 minutos/);
  // Six tries after, an unknown e-mail still answers exactly what the locked one does.
  for (let i = 0; i < 5; i++) await v.post('/console/entrar', { email: 'ninguem@exemplo.com.br', senha: PASSWORD });
  const stillUnknown = await v.post('/console/entrar', { email: 'ninguem@exemplo.com.br', senha: PASSWORD });
  assert.equal(stillUnknown.statusCode, locked.statusCode);
  assert.equal(stillUnknown.body, locked.body);
  const audit = await h.services.db
    .selectFrom('audit_log')
    .select(['action', 'details'])
    .where('account_id', '=', acc.accountId)
    .where('action', '=', 'sessao.falha')
    .execute();
  assert.equal(audit.length, 6);
  assert.equal(audit.filter((a) => a.details === '{"bloqueado":true}').length, 1, 'the refused right password is logged as locked');
});

/** Sign-in attempts with an e-mail nobody has (no person is locked out), by one visitor per app. */
async function tryToSignIn(visitors: Visitor[], attempts: number): Promise<number[]> {
  // PostgreSQL's shared windows are aligned to the clock: do not straddle the end of one.
  const SIGNIN_WINDOW_MS = 15 * 60_000;
  const left = SIGNIN_WINDOW_MS - (Date.now() % SIGNIN_WINDOW_MS);
  if (left < 15_000) await new Promise((r) => setTimeout(r, left + 100));
  for (const v of visitors) await v.go('GET', '/console/entrar');
  const statuses: number[] = [];
  for (let i = 0; i < attempts; i++)
    statuses.push((await visitors[i % visitors.length]!.post('/console/entrar', { email: 'ninguem@exemplo.com.br', senha: 'chute-numero-1' })).statusCode);
  return statuses;
}

test('an address may try to sign in 30 times in 15 minutes; then it waits, and other addresses do not', async () => {
  const v = new Visitor(h.app, '203.0.113.7');
  assert.deepEqual(await tryToSignIn([v], 31), [...Array(30).fill(401), 429]);
  assert.match(v.last.body, /Muitas tentativas deste endereço: espere alguns minutos/);
  assert.deepEqual(await tryToSignIn([new Visitor(h.app, '203.0.113.8')], 1), [401]);
});

test("on PostgreSQL two API processes count one address's sign-in attempts together", {
  skip: !process.env.DATABASE_URL && 'PostgreSQL only (DATABASE_URL)',
}, async (t) => {
  const other = await buildApp(h.services, buildCapabilities(h.services));
  t.after(() => other.close());
  // Alternating between the two: each alone would see 20 of the 40 and let all of them try.
  const statuses = await tryToSignIn([new Visitor(h.app, '203.0.113.9'), new Visitor(other, '203.0.113.9')], 40);
  const tried = statuses.filter((s) => s === 401).length;
  assert.equal(tried + statuses.filter((s) => s === 429).length, 40);
  // Tolerance: a process learns the other's attempts at its next sync (docs/operations.md).
  assert.ok(tried >= 30 && tried <= 34, `${tried} attempts let through by two processes for a limit of 30`);
});

test('a change without the CSRF token, or from another origin, is refused and changes nothing', async () => {
  const acc = await h.createAccount();
  const v = await signedIn(acc);
  await v.go('GET', '/console/chaves');
  const keysBefore = (await h.services.accounts.listKeys(acc.accountId)).length;
  assert.equal((await v.go('POST', '/console/chaves', { nome: 'sem token' })).statusCode, 403);
  assert.equal((await v.post('/console/chaves', { nome: 'outro site' }, { origin: 'https://atacante.example' })).statusCode, 403);
  assert.equal((await v.post('/console/chaves', { _csrf: 'x'.repeat(43), nome: 'token errado' })).statusCode, 403);
  assert.equal((await h.services.accounts.listKeys(acc.accountId)).length, keysBefore);
  const ok = await v.post('/console/chaves', { nome: 'servidor' }, { origin: 'http://localhost:80' });
  assert.equal(ok.statusCode, 201, 'same origin as the Host header');
});

test('a key made in the console is shown once, works on /v1, and once revoked is refused', async () => {
  const acc = await h.createAccount({ credits: 500 });
  const v = await signedIn(acc);
  await v.go('GET', '/console/chaves');
  const created = await v.post('/console/chaves', { nome: 'produção' });
  const key = /id="valor-uma-vez" readonly value="(trm_[^"]+)"/.exec(created.body)?.[1];
  assert.ok(key, 'the new key is on the page');
  assert.equal((await h.inject({ method: 'GET', url: '/v1/conta/saldo', headers: { 'x-api-key': key } })).statusCode, 200);
  await new Promise((r) => setTimeout(r, 20)); // the last use is written beside the request, not awaited by it
  assert.ok((await h.services.accounts.listKeys(acc.accountId)).find((k) => k.name === 'produção')!.last_used_at, 'last use noted');
  const page = await v.go('GET', '/console/chaves');
  assert.ok(!page.body.includes(key), 'never shown again');
  assert.match(page.body, /produção/);
  const id = (await h.services.accounts.listKeys(acc.accountId)).find((k) => k.name === 'produção')!.id;
  assert.equal((await v.post(`/console/chaves/${id}/revogar`)).statusCode, 303);
  await new Promise((r) => setTimeout(r, 10));
  assert.equal((await h.inject({ method: 'GET', url: '/v1/conta/saldo', headers: { 'x-api-key': key } })).statusCode, 401);
  const audit = await h.services.db.selectFrom('audit_log').select(['action', 'details']).where('account_id', '=', acc.accountId).orderBy('id').execute();
  assert.deepEqual(
    audit.map((a) => a.action).filter((a) => a.startsWith('chave.')),
    ['chave.criar', 'chave.revogar'],
  );
  assert.ok(
    audit.every((a) => !a.details?.includes(key)),
    'the key is never in the audit log',
  );
});

test('the last active key needs an explicit confirmation to be revoked', async () => {
  const acc = await h.createAccount();
  const v = await signedIn(acc);
  await v.go('GET', '/console/chaves');
  assert.equal((await v.post(`/console/chaves/${acc.keyId}/revogar`)).statusCode, 409);
  assert.equal((await h.inject({ method: 'GET', url: '/v1/conta/saldo', headers: acc.headers })).statusCode, 200);
  assert.equal((await v.post(`/console/chaves/${acc.keyId}/revogar`, { confirmar_ultima: 'sim' })).statusCode, 303);
});

test("another account's key, delivery or monitor is not found, and stays as it was", async () => {
  const mine = await h.createAccount();
  const theirs = await h.createAccount({ credits: 10_000 });
  const v = await signedIn(mine);
  await v.go('GET', '/console/chaves');
  assert.equal((await v.post(`/console/chaves/${theirs.keyId}/revogar`, { confirmar_ultima: 'sim' })).statusCode, 404);
  assert.equal((await h.inject({ method: 'GET', url: '/v1/conta/saldo', headers: theirs.headers })).statusCode, 200);
  assert.equal((await v.post('/console/entregas/dlv_de_outra_conta/reenviar')).statusCode, 404);
  assert.equal((await v.post('/console/monitoramentos/processos/mon_de_outra_conta/desativar')).statusCode, 404);
  assert.equal((await v.post('/console/monitoramentos/radares/rad_de_outra_conta/desativar')).statusCode, 404);
});

test("the webhook form follows the API's rules: a private URL is refused with the INVALID_WEBHOOK_URL message", async () => {
  const acc = await h.createAccount();
  const v = await signedIn(acc);
  const page = await v.go('GET', '/console/webhook');
  assert.match(page.body, /TRAMITA_WEBHOOK_ALLOW_PRIVATE=true/, 'on a sandbox, how to try a local receiver');
  const res = await v.post('/console/webhook', { url: 'https://127.0.0.1/hook', formato: 'NORMALIZED', ativo: 'sim', eventos: ['teste'] });
  assert.equal(res.statusCode, 400);
  assert.match(res.body, /class="aviso erro"/);
  assert.equal((await h.services.webhooks.configs.get(acc.accountId))?.url ?? null, null);
  const test_ = await v.post('/console/webhook/teste');
  assert.equal(test_.statusCode, 422, 'no URL: WEBHOOK_NOT_CONFIGURED');
});

test('a disabled webhook endpoint is shown on the webhook page and re-enabled there; another account changes nothing', async () => {
  const acc = await h.createAccount();
  const url = 'https://receptor.exemplo.com.br/hook';
  const at = h.services.clock.now().toISOString();
  await h.services.db
    .insertInto('webhook_endpoints')
    .values({ account_id: acc.accountId, url, failing_since: at, last_failure_at: at, last_error: 'receiver answered 503', disabled_at: at })
    .execute();
  const stranger = await signedIn(await h.createAccount());
  await stranger.go('GET', '/console/webhook');
  const theirs = await stranger.post('/console/webhook/destinos/reativar', { url, reenviar: 'sim' });
  assert.match(String(theirs.headers.location), /destino-nao-desativado/, 'not theirs: nothing changes');
  assert.equal((await h.services.webhooks.endpoints.list(acc.accountId)).length, 1);
  const v = await signedIn(acc);
  const page = await v.go('GET', '/console/webhook');
  assert.match(page.body, /Destinos com falha/);
  assert.match(page.body, /desativado<\/strong>/);
  const res = await v.post('/console/webhook/destinos/reativar', { url, reenviar: 'sim' });
  assert.equal(res.statusCode, 303);
  assert.match(String(res.headers.location), /destino-reativado/);
  assert.deepEqual(await h.services.webhooks.endpoints.list(acc.accountId), []);
  assert.doesNotMatch((await v.go('GET', '/console/webhook')).body, /Destinos com falha/);
});

test('signing out ends the session; signing out everywhere ends every session of the person', async () => {
  const acc = await h.createAccount();
  const email = 'sessoes@exemplo.com.br';
  const a = await signedIn(acc, email);
  const b = new Visitor();
  await b.go('GET', '/console/entrar');
  await b.post('/console/entrar', { email, senha: PASSWORD });
  assert.equal((await b.go('GET', '/console/visao-geral')).statusCode, 200);
  await a.post('/console/sair-de-todos');
  assert.equal((await b.go('GET', '/console/visao-geral')).statusCode, 303);
  assert.equal((await a.go('GET', '/console/visao-geral')).statusCode, 303);

  const c = await signedIn(acc);
  const jar = new Map(c.jar);
  await c.post('/console/sair');
  const again = new Visitor();
  for (const [k, val] of jar) again.jar.set(k, val);
  assert.equal((await again.go('GET', '/console/chaves')).statusCode, 303, 'the old cookie opens nothing');
});

test('without a session a page redirects to sign-in and a change is 401; every answer has the security headers', async () => {
  const v = new Visitor();
  const page = await v.go('GET', '/console/extrato');
  assert.equal(page.statusCode, 303);
  assert.equal(page.headers.location, '/console/entrar');
  assert.equal((await v.go('POST', '/console/chaves', { nome: 'x' })).statusCode, 401);
  const signin = await v.go('GET', '/console/entrar');
  assert.match(String(signin.headers['content-security-policy']), /default-src 'self'/);
  assert.equal(signin.headers['x-frame-options'], 'DENY');
  assert.equal(signin.headers['referrer-policy'], 'same-origin');
  assert.equal((await v.go('GET', '/console/nao-existe')).statusCode, 303);
  assert.equal((await v.go('GET', '/console/assets/console.css')).statusCode, 200);
  // A body the console does not read is a page in Portuguese, not the framework's JSON.
  const odd = await h.inject({ method: 'POST', url: '/console/entrar', payload: '<x/>', headers: { 'content-type': 'application/xml' } });
  assert.equal(odd.statusCode, 415);
  assert.match(String(odd.headers['content-type']), /text\/html/);
  const huge = await h.inject({
    method: 'POST',
    url: '/console/entrar',
    payload: `email=${'a'.repeat(70_000)}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  assert.equal(huge.statusCode, 413);
  assert.match(huge.body, /grande demais/);
});

test('the statement exports as CSV for a spreadsheet in Portuguese, one line per ledger row', async () => {
  const acc = await h.createAccount({ credits: 1234 });
  await h.inject({ method: 'GET', url: '/v1/processos/cnj/00000000000000000000', headers: acc.headers });
  const v = await signedIn(acc);
  const csv = await v.go('GET', '/console/extrato.csv');
  assert.equal(csv.statusCode, 200);
  assert.match(String(csv.headers['content-type']), /text\/csv/);
  const lines = csv.body
    .replace(/^\ufeff/, '')
    .trim()
    .split('\r\n');
  assert.equal(lines[0], 'data;lancamento;tipo_consulta;valor;saldo_apos;request_id;search_log_id;nota');
  const rows = await h.services.db.selectFrom('ledger').select('id').where('account_id', '=', acc.accountId).execute();
  assert.equal(lines.length - 1, rows.length);
  assert.match(lines.at(-1)!, /;credito;;12,34;12,34;/);
  const filtered = await v.go('GET', '/console/extrato.csv?tipo=debito');
  assert.equal(filtered.body.trim().split('\r\n').length - 1, rows.length - 1);
  // Days are Brasília's, as the page shows times.
  const today = brasiliaDay(h.services.clock.now().toISOString())!;
  assert.equal((await v.go('GET', `/console/extrato.csv?desde=${today}&ate=${today}`)).body.trim().split('\r\n').length - 1, rows.length);
  assert.equal((await v.go('GET', '/console/extrato.csv?ate=2020-01-01')).body.trim().split('\r\n').length - 1, 0);
  // The overview's spend (read from the search logs, keyed by time) adds up to the ledger's debits.
  const now = h.sources.sandbox!.dataset.now();
  const stored = h.sources.sandbox!.dataset.cases.find((c) => c.filedAt <= now && c.court.datajudAlias)!;
  assert.equal((await h.inject({ method: 'GET', url: `/v1/processos/cnj/${stored.numero}`, headers: acc.headers })).statusCode, 200);
  const debited = await h.services.db
    .selectFrom('ledger')
    .select('delta_centavos')
    .where('account_id', '=', acc.accountId)
    .where('kind', '=', 'debit')
    .execute();
  assert.equal(debited.length, 1);
  const reais = (-debited[0]!.delta_centavos / 100).toFixed(2).replace('.', ',');
  const overview = await v.go('GET', '/console/visao-geral');
  assert.match(overview.body, new RegExp(`Gasto em 30 dias<strong>R\\$ ${reais}</strong>`));
  assert.match(overview.body, new RegExp(`<code>processo.capa</code></td><td[^>]*>R\\$ ${reais}<`));
});

test('the monitors page shows 100 at a time, newest first, with the total and a link to the older ones', async () => {
  const acc = await h.createAccount({ credits: 100_000 });
  const now = h.sources.sandbox!.dataset.now();
  const numbers = h.sources
    .sandbox!.dataset.cases.filter((c) => c.filedAt <= now && c.court.datajudAlias)
    .slice(0, 101)
    .map((c) => c.numero);
  // The monitor class allows 60 requests a minute per account: this harness allows 200 (top of the file).
  for (const numeroCnj of numbers) {
    const created = await h.inject({
      method: 'POST',
      url: '/v1/monitoramentos/processos',
      headers: { 'x-api-key': acc.key, 'content-type': 'application/json' },
      payload: { numeroCnj },
    });
    assert.equal(created.statusCode, 201, created.body);
  }
  const v = await signedIn(acc);
  const shownOn = (body: string) => [...body.matchAll(/<td><code>([\d.-]{25})<\/code><\/td>/g)].map((x) => x[1]!.replace(/\D/g, ''));
  const first = await v.go('GET', '/console/monitoramentos');
  assert.match(first.body, /Processos monitorados \(101\)/);
  assert.deepEqual(shownOn(first.body), numbers.slice(1).reverse(), 'the 100 newest, newest first');
  const older = /<a href="([^"]+)">Monitoramentos mais antigos<\/a>/.exec(first.body)?.[1]?.replaceAll('&amp;', '&');
  assert.ok(older, 'a link to the older ones');
  const second = await v.go('GET', older);
  assert.deepEqual(shownOn(second.body), [numbers[0]]);
  assert.doesNotMatch(second.body, /Monitoramentos mais antigos/);
  assert.match(second.body, /Voltar aos mais recentes/);
  // A cursor that is not one is ignored: the page starts at the newest.
  assert.deepEqual(shownOn((await v.go('GET', '/console/monitoramentos?processos_antes=%3Cscript%3E')).body).length, 100);
});

test('a case monitor deactivated in the console is removed for the API too, and the change is audited', async () => {
  const acc = await h.createAccount({ credits: 10_000 });
  const now = h.sources.sandbox!.dataset.now();
  const sample = h.sources.sandbox!.dataset.cases.find((c) => c.filedAt <= now && c.court.datajudAlias)!;
  const created = await h.inject({
    method: 'POST',
    url: '/v1/monitoramentos/processos',
    headers: { ...acc.headers, 'content-type': 'application/json' },
    payload: { numeroCnj: sample.numero },
  });
  assert.equal(created.statusCode, 201, created.body);
  const id = created.json().data.id as string;
  const v = await signedIn(acc);
  const page = await v.go('GET', '/console/monitoramentos');
  assert.match(page.body, /ATIVO/);
  assert.equal((await v.post(`/console/monitoramentos/processos/${id}/desativar`)).statusCode, 303);
  const after = await h.inject({ method: 'GET', url: `/v1/monitoramentos/processos/${id}`, headers: acc.headers });
  assert.equal(after.json().data.status, 'REMOVIDO');
  const audit = await h.services.db
    .selectFrom('audit_log')
    .select(['action', 'target'])
    .where('account_id', '=', acc.accountId)
    .where('action', '=', 'monitoramento.desativar')
    .execute();
  assert.deepEqual(
    audit.map((a) => a.target),
    [id],
  );
});
