/**
 * The `tramita` CLI as an operator uses it, against a fresh data directory, or a fresh PostgreSQL
 * database created from DATABASE_URL (as test/harness.ts freshDatabase() does) when it is set, so this
 * runs on both engines. The commands run in-process (the same runCli the bin calls, with the
 * environment and output streams given); real processes smoke-test the bin (`node bin/tramita.mjs`,
 * `npx tramita`, `npm run tramita`) and `serve`.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../src/cli/run.ts';
import { migrations } from '../src/platform/db/migrations/index.ts';
import { BIN, exec, freePort, freshStore, NODE, startServe, storeFor, type Result, type Store } from './processes.ts';

const KEY_PATTERN = /^trm_[0-9a-z]{10}_[0-9A-Za-z]{32}$/;

function describeRun(args: string[], r: Result): string {
  return `tramita ${args.join(' ')} → exit ${r.code}${r.signal ? ` (${r.signal})` : ''}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`;
}

/**
 * `tramita …` in this process (src/cli/run.ts, what bin/tramita.mjs runs), with the store's
 * environment (plus `extra`) and its output captured. The real process is smoke-tested below.
 */
async function tramita(store: Store, args: string[], extra: Record<string, string> = {}): Promise<Result> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    env: { ...store.env, ...extra },
    out: (t) => {
      stdout += `${t}\n`;
    },
    err: (t) => {
      stderr += `${t}\n`;
    },
  });
  return { code, signal: null, stdout, stderr };
}

/** Runs a command that must succeed and print exactly one JSON object; returns it. */
async function tramitaJson<T = any>(store: Store, args: string[]): Promise<T> {
  const r = await tramita(store, args);
  assert.equal(r.code, 0, describeRun(args, r));
  const lines = r.stdout.trim().split('\n');
  assert.equal(lines.length, 1, `exactly one line of JSON\n${describeRun(args, r)}`);
  const value = JSON.parse(lines[0]) as unknown;
  assert.ok(value && typeof value === 'object' && !Array.isArray(value), 'a JSON object');
  return value as T;
}

/** Runs a command that must fail; returns its result for the caller to check the message. */
async function tramitaFails(store: Store, args: string[], extra: Record<string, string> = {}): Promise<Result> {
  const r = await tramita(store, args, extra);
  assert.notEqual(r.code, 0, describeRun(args, r));
  assert.equal(r.signal, null, describeRun(args, r));
  assert.doesNotMatch(r.stderr, /\n\s+at /, `a message, not a stack trace\n${describeRun(args, r)}`);
  return r;
}

interface Created {
  account: { id: string; name: string; plan: string; status: string; balance: number; balanceCentavos: number };
  apiKey: { id: string; prefix: string; key: string };
}

describe('tramita CLI', () => {
  let store: Store;
  before(async () => {
    store = await freshStore();
  });
  after(async () => {
    await store?.drop();
  });

  const createAccount = (name = 'Escritório X', credits = '12,50') =>
    tramitaJson<Created>(store, ['accounts', 'create', '--name', name, '--credits', credits, '--plan', 'padrao', '--json']);

  test('migrate applies the schema, and a second migrate says the database is up to date', async (t) => {
    const own = await storeFor(t);
    const first = await tramita(own, ['migrate']);
    assert.equal(first.code, 0, describeRun(['migrate'], first));
    assert.equal(first.stdout.trim(), `applied: ${Object.keys(migrations).join(', ')}`);
    const second = await tramita(own, ['migrate']);
    assert.equal(second.code, 0, describeRun(['migrate'], second));
    assert.equal(second.stdout.trim(), 'database is up to date');
  });

  test('accounts create --json prints one JSON object with the account, its credits in centavos and a new key', async () => {
    const created = await createAccount();
    assert.match(created.account.id, /^acc_[0-9a-z]+$/);
    assert.equal(created.account.name, 'Escritório X');
    assert.equal(created.account.plan, 'padrao');
    assert.equal(created.account.status, 'active');
    assert.equal(created.account.balanceCentavos, 1250);
    assert.equal(created.account.balance, 12.5);
    assert.match(created.apiKey.key, KEY_PATTERN);
    assert.equal(created.apiKey.prefix, created.apiKey.key.split('_').slice(0, 2).join('_'));
    assert.equal(created.apiKey.id, `key_${created.apiKey.key.split('_')[1]}`);
  });

  test('an API key is stored only as a hash: no column holds the plaintext or its secret, the prefix is visible', async () => {
    const created = await createAccount('Hash & Cia');
    const { key, prefix, id } = created.apiKey;
    const secret = key.split('_')[2];
    const rows = await store.rows('api_keys');
    const row = rows.find((r) => r.id === id);
    assert.ok(row, `api_keys has ${id}`);
    assert.equal(row.prefix, prefix);
    assert.equal(row.account_id, created.account.id);
    assert.match(String(row.hash), /^[0-9a-f]{64}$/);
    for (const r of rows) {
      for (const [column, value] of Object.entries(r)) {
        assert.ok(!String(value).includes(key), `api_keys.${column} holds the plaintext key`);
        assert.ok(!String(value).includes(secret), `api_keys.${column} holds the key's secret`);
      }
    }
  });

  test('accounts list and accounts show --json describe the account and list its keys by prefix, never the plaintext', async () => {
    const created = await createAccount('Listagem Ltda', '3');
    const list = await tramitaJson<{ accounts: Created['account'][] }>(store, ['accounts', 'list', '--json']);
    const listed = list.accounts.find((a) => a.id === created.account.id);
    assert.ok(listed, 'the new account is listed');
    assert.equal(listed.name, 'Listagem Ltda');
    assert.equal(listed.balanceCentavos, 300);

    const shown = await tramitaJson<{ account: Created['account']; keys: { id: string; prefix: string; revokedAt: string | null }[] }>(store, [
      'accounts',
      'show',
      created.account.id,
      '--json',
    ]);
    assert.equal(shown.account.id, created.account.id);
    assert.equal(shown.account.status, 'active');
    assert.deepEqual(
      shown.keys.map((k) => ({ id: k.id, prefix: k.prefix, revokedAt: k.revokedAt })),
      [{ id: created.apiKey.id, prefix: created.apiKey.prefix, revokedAt: null }],
    );
    const text = await tramita(store, ['accounts', 'show', created.account.id]);
    assert.equal(text.code, 0);
    assert.ok(text.stdout.includes(created.apiKey.prefix), 'the text view shows the prefix');
    for (const out of [JSON.stringify(list), JSON.stringify(shown), text.stdout]) {
      assert.ok(!out.includes(created.apiKey.key), 'the plaintext key is never shown again');
    }

    const unknown = await tramitaFails(store, ['accounts', 'show', 'acc_doesnotexist000000000']);
    assert.match(unknown.stderr, /no account acc_doesnotexist000000000/);
  });

  test('accounts deactivate makes the account inactive, and activate makes it active again', async () => {
    const { account } = await createAccount('Inativa S.A.');
    const off = await tramita(store, ['accounts', 'deactivate', account.id]);
    assert.equal(off.code, 0, describeRun(['accounts', 'deactivate'], off));
    assert.match(off.stdout, new RegExp(`account ${account.id} deactivated`));
    let shown = await tramitaJson<{ account: Created['account'] }>(store, ['accounts', 'show', account.id, '--json']);
    assert.equal(shown.account.status, 'inactive');

    const on = await tramita(store, ['accounts', 'activate', account.id]);
    assert.equal(on.code, 0, describeRun(['accounts', 'activate'], on));
    shown = await tramitaJson<{ account: Created['account'] }>(store, ['accounts', 'show', account.id, '--json']);
    assert.equal(shown.account.status, 'active');

    const unknown = await tramitaFails(store, ['accounts', 'deactivate', 'acc_doesnotexist000000000']);
    assert.match(unknown.stderr, /no account acc_doesnotexist000000000/);
  });

  test('keys create prints a new key once; keys revoke revokes it, and revoking it again fails', async () => {
    const { account, apiKey: firstKey } = await createAccount('Chaves ME');
    const issued = await tramitaJson<{ id: string; prefix: string; key: string; accountId: string }>(store, ['keys', 'create', account.id, '--json']);
    assert.match(issued.key, KEY_PATTERN);
    assert.equal(issued.accountId, account.id);
    assert.equal(issued.prefix, issued.key.split('_').slice(0, 2).join('_'));
    assert.notEqual(issued.key, firstKey.key);

    const listed = await tramitaJson<{ keys: { id: string; prefix: string; revokedAt: string | null }[] }>(store, ['keys', 'list', account.id, '--json']);
    assert.deepEqual(listed.keys.map((k) => k.id).sort(), [firstKey.id, issued.id].sort());
    assert.ok(!JSON.stringify(listed).includes(issued.key));

    const revoked = await tramita(store, ['keys', 'revoke', issued.id]);
    assert.equal(revoked.code, 0, describeRun(['keys', 'revoke', issued.id], revoked));
    assert.match(revoked.stdout, new RegExp(`key ${issued.id} revoked`));

    const again = await tramitaFails(store, ['keys', 'revoke', issued.id]);
    assert.match(again.stderr, new RegExp(`no active key ${issued.id}`));

    const after = await tramitaJson<{ keys: { id: string; revokedAt: string | null }[] }>(store, ['keys', 'list', account.id, '--json']);
    const byId = Object.fromEntries(after.keys.map((k) => [k.id, k.revokedAt]));
    assert.equal(byId[firstKey.id], null, 'the other key stays active');
    assert.ok(byId[issued.id], 'revokedAt is set');

    // The account's audit log (the console shows it) names the operator's changes, never the key itself.
    const audit = (await store.rows('audit_log')).filter((r) => r.account_id === account.id);
    assert.deepEqual(
      audit.map((r) => `${r.actor} ${r.action} ${r.target ?? ''}`).sort(),
      [`cli chave.criar ${firstKey.id}`, `cli chave.criar ${issued.id}`, `cli chave.revogar ${issued.id}`, 'cli conta.criar '].sort(),
    );
    assert.ok(audit.every((r) => !JSON.stringify(r).includes(issued.key)));
  });

  test("users invite prints a one-time console link; a bad e-mail exits 2, an unknown account 1, another account's person 2", async () => {
    const { account } = await createAccount('Convites ME');
    const invite = await tramitaJson<{ link: string; email: string; expiresAt: string }>(store, [
      'users',
      'invite',
      account.id,
      'Pessoa@Exemplo.com.br',
      '--json',
    ]);
    assert.equal(invite.email, 'pessoa@exemplo.com.br');
    assert.match(invite.link, /^http:\/\/127\.0\.0\.1:\d+\/console\/convite\/[A-Za-z0-9_-]{43}$/);
    assert.ok(Date.parse(invite.expiresAt) > Date.now() + 71 * 3_600_000);
    const stored = (await store.rows('console_invites')).map((r) => String(r.token_hash));
    assert.ok(!stored.some((h) => invite.link.endsWith(h)), 'only a hash of the token is stored');
    assert.equal((await tramitaFails(store, ['users', 'invite', account.id, 'nao-e-email'])).code, 2);
    assert.equal((await tramitaFails(store, ['users', 'invite', 'acc_nao_existe', 'x@exemplo.com.br'])).code, 1);
    const { account: other } = await createAccount('Outra Conta');
    const taken = await tramitaFails(store, ['users', 'invite', other.id, 'pessoa@exemplo.com.br']);
    assert.equal(taken.code, 2);
    assert.match(taken.stderr, /another account/);
  });

  test('credits add tops up the balance: R$ 12,50 + R$ 10 = R$ 22,50', async () => {
    const { account } = await createAccount('Créditos Ltda');
    const added = await tramitaJson<{ accountId: string; added: number; balance: number; balanceCentavos: number }>(store, [
      'credits',
      'add',
      account.id,
      '10',
      '--note',
      'pix 123',
      '--json',
    ]);
    assert.deepEqual(added, { accountId: account.id, added: 10, balance: 22.5, balanceCentavos: 2250 });
    const shown = await tramitaJson<{ account: Created['account'] }>(store, ['accounts', 'show', account.id, '--json']);
    assert.equal(shown.account.balanceCentavos, 2250);
    const ledger = (await store.rows('ledger')).filter((r) => r.account_id === account.id);
    assert.deepEqual(ledger.map((r) => [r.kind, Number(r.delta_centavos), r.note]).sort(), [
      ['credit', 1000, 'pix 123'],
      ['credit', 1250, 'initial credits'],
    ]);
  });

  test('no command at all exits 2 with the usage on stderr', async () => {
    const r = await tramitaFails(store, []);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /Usage: tramita <command>/);
  });

  test('an unknown command exits 2 with the usage on stderr', async () => {
    const r = await tramitaFails(store, ['frobnicate']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /unknown command "frobnicate"/);
    assert.match(r.stderr, /Usage: tramita <command>/);
    assert.equal(r.stdout, '');
  });

  test('accounts create without --name exits 2 saying --name is required', async () => {
    const r = await tramitaFails(store, ['accounts', 'create', '--credits', '5']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--name is required/);
    const list = await tramitaJson<{ accounts: { name: string }[] }>(store, ['accounts', 'list', '--json']);
    assert.ok(
      list.accounts.every((a) => a.name.trim() !== ''),
      'no nameless account was created',
    );
  });

  test('credits add to an unknown account fails with a message naming the account', async () => {
    const r = await tramitaFails(store, ['credits', 'add', 'acc_doesnotexist000000000', '10']);
    assert.equal(r.code, 1, 'not found is exit 1, not a usage error');
    assert.match(r.stderr, /no account acc_doesnotexist000000000/);
    assert.doesNotMatch(r.stderr, /Usage:/);
    const ledger = (await store.rows('ledger')).filter((row) => row.account_id === 'acc_doesnotexist000000000');
    assert.deepEqual(ledger, []);
  });

  test('credits add with an amount that is not BRL exits 2 naming the amount', async () => {
    const { account } = await createAccount('Valor Inválido');
    const r = await tramitaFails(store, ['credits', 'add', account.id, 'abc']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /AMOUNT_BRL must be an amount in BRL/);
    assert.match(r.stderr, /"abc"/);
    const shown = await tramitaJson<{ account: Created['account'] }>(store, ['accounts', 'show', account.id, '--json']);
    assert.equal(shown.account.balanceCentavos, 1250, 'balance unchanged');
  });

  test('a bad configuration value exits 2 with a message naming the variable', async () => {
    const r = await tramitaFails(store, ['accounts', 'list'], { PORT: 'abc' });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /PORT must be an integer/);
    assert.match(r.stderr, /"abc"/);
    assert.equal(r.stdout, '');
  });

  test("node bin/tramita.mjs: a failing command's exit code and message reach the shell (a real process)", async () => {
    const r = await exec(NODE, [BIN, 'frobnicate'], store.env);
    assert.equal(r.code, 2, describeRun(['frobnicate (bin)'], r));
    assert.match(r.stderr, /unknown command "frobnicate"/);
    assert.equal(r.stdout, '');
  });

  test('npx tramita --help prints the usage and exits 0 (the bin works inside the checkout)', async () => {
    const r = await exec('npx', ['--no-install', 'tramita', '--help'], store.env);
    assert.equal(r.code, 0, describeRun(['--help (npx)'], r));
    assert.match(r.stdout, /Usage: tramita <command>/);
    assert.match(r.stdout, /credits add ACCOUNT_ID AMOUNT_BRL/);
  });

  test('npm run tramita -- accounts list --json reads the configured database', async () => {
    const { account } = await createAccount('Via npm');
    const r = await exec('npm', ['run', '--silent', 'tramita', '--', 'accounts', 'list', '--json'], store.env);
    assert.equal(r.code, 0, describeRun(['accounts list (npm run)'], r));
    const list = JSON.parse(r.stdout.trim()) as { accounts: { id: string }[] };
    assert.ok(list.accounts.some((a) => a.id === account.id));
  });
});

/** A port that was free a moment ago on 127.0.0.1. */
describe('tramita serve', () => {
  test('on an empty database it prints a sandbox key that works over HTTP, stops with 0 on SIGTERM, and a restart prints no new key', {
    timeout: 120_000,
  }, async (t) => {
    const store = await storeFor(t);
    const port = await freePort();

    const first = startServe(t, store, port);
    const [, key] = await first.waitFor(/API key\s+(\S+)/);
    assert.match(key, KEY_PATTERN);
    assert.match(first.output(), /a sandbox account was created on this empty database/);
    assert.match(first.output(), new RegExp(`curl -s http://localhost:${port}/v1/conta/saldo`));

    const res = await fetch(`http://127.0.0.1:${port}/v1/conta/saldo`, { headers: { 'x-api-key': key } });
    const body = (await res.json()) as { data: { saldo: number; saldoCentavos: number; conta: { sandbox: boolean } } };
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.equal(body.data.saldo, 100);
    assert.equal(body.data.saldoCentavos, 10_000);
    assert.equal(body.data.conta.sandbox, true);

    first.child.kill('SIGTERM');
    assert.deepEqual(await first.exited(10_000), { code: 0, signal: null });

    const second = startServe(t, store, port);
    await second.waitFor(/tramita listening/);
    // The existing key still works against the restarted server (and the bootstrap check has run by now).
    const again = await fetch(`http://127.0.0.1:${port}/v1/conta/saldo`, { headers: { 'x-api-key': key } });
    assert.equal(again.status, 200);
    await again.arrayBuffer();
    second.child.kill('SIGTERM');
    assert.deepEqual(await second.exited(10_000), { code: 0, signal: null });
    assert.doesNotMatch(second.output(), /sandbox account was created/);
    assert.doesNotMatch(second.output(), /trm_[0-9a-z]{10}_/, 'no key printed on a database that has accounts');
    assert.equal((await store.rows('accounts')).length, 1, 'still the one sandbox account');
  });
});
