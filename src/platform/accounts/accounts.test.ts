/**
 * The key cache (key-cache.ts) and what must stay exact despite it: a key revoked or an account
 * deactivated through this process stops working at once; a balance is never shown stale, and a
 * price check never refuses on a stale balance. Runs on SQLite, or PostgreSQL with DATABASE_URL.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHarness, json } from '../../../test/harness.ts';
import { testRoutes } from '../../../test/routes.ts';
import { credit } from '../billing/ledger.ts';
import { KeyCache, REFRESH_AHEAD_MS } from './key-cache.ts';
import { AccountStore, type KeyOwner } from './store.ts';

function owner(keyId: string, accountId: string, balance = 100): KeyOwner {
  return {
    keyId,
    account: { id: accountId, name: 'x', plan: 'padrao', status: 'active', balance_centavos: balance, sandbox: 0, created_at: '', updated_at: '' },
  };
}

test('KeyCache: an entry lives for the TTL, and forgetting a key or an account drops it', () => {
  let now = 0;
  const cache = new KeyCache({ ttlMs: 5_000, now: () => now });
  cache.set('h1', owner('key_1', 'acc_1'), cache.generation());
  cache.set('h2', owner('key_2', 'acc_1'), cache.generation());
  cache.set('h3', owner('key_3', 'acc_2'), cache.generation());
  assert.equal(cache.get('h1')?.keyId, 'key_1');
  now = 4_999;
  assert.equal(cache.get('h3')?.keyId, 'key_3');
  now = 5_000;
  assert.equal(cache.get('h3'), undefined, 'expired after the TTL');
  now = 0;
  cache.forgetKey('key_1');
  assert.equal(cache.get('h1'), undefined);
  assert.equal(cache.get('h2')?.keyId, 'key_2');
  cache.forgetAccount('acc_1');
  assert.equal(cache.get('h2'), undefined);
});

test('KeyCache: a lookup that started before a forget is not remembered', () => {
  const cache = new KeyCache();
  const before = cache.generation();
  cache.forgetKey('key_1');
  cache.set('h1', owner('key_1', 'acc_1'), before);
  assert.equal(cache.get('h1'), undefined);
});

test('KeyCache: the keys of one account share its snapshot, so a noted balance reaches all of them', () => {
  const cache = new KeyCache();
  const a = cache.set('h1', owner('key_1', 'acc_1', 100), cache.generation());
  const b = cache.set('h2', owner('key_2', 'acc_1', 100), cache.generation());
  cache.noteBalance('acc_1', 42);
  assert.equal(a.account.balance_centavos, 42);
  assert.equal(b.account.balance_centavos, 42);
});

test('KeyCache: only the keys used since they were read, and expiring soon, are due to be read again', () => {
  let now = 0;
  const cache = new KeyCache({ ttlMs: 5_000, now: () => now });
  cache.set('used', owner('key_1', 'acc_1'), cache.generation());
  cache.set('idle', owner('key_2', 'acc_1'), cache.generation());
  cache.get('used');
  assert.deepEqual(cache.dueForRefresh(), [], 'nothing expires within REFRESH_AHEAD_MS yet');
  now = 5_000 - REFRESH_AHEAD_MS;
  assert.deepEqual(cache.dueForRefresh(), ['used']);
  cache.set('used', owner('key_1', 'acc_1'), cache.generation());
  assert.deepEqual(cache.dueForRefresh(), [], 'read again: fresh, and not used since');
});

/** A store of its own over the harness's database, with a key cache on a clock the test moves: another process, as far as caches go. */
function storeWithClock(h: Awaited<ReturnType<typeof createHarness>>) {
  const clock = { ms: 0 };
  const cache = new KeyCache({ ttlMs: 5_000, now: () => clock.ms });
  return { clock, cache, store: new AccountStore(h.services.db, h.services.clock, h.config.maxActiveApiKeys, cache) };
}

async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !done(); i++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(done(), 'the background refresh did not finish');
}

test('a key in use is read again before its entry expires, in the background: its requests never wait on a lookup', async (t) => {
  const h = await createHarness();
  t.after(() => h.close());
  const a = await h.createAccount({ credits: 100 });
  const { clock, cache, store } = storeWithClock(h);
  assert.ok(store.findByKeyNow(a.key) instanceof Promise, 'first use: looked up');
  await store.findByKeyNow(a.key);

  clock.ms = 3_000;
  assert.equal((store.findByKeyNow(a.key) as KeyOwner).keyId, a.keyId, 'cached: answered at once, and read again behind it');
  await until(() => cache.dueForRefresh().length === 0);
  clock.ms = 7_000;
  const later = store.findByKeyNow(a.key);
  assert.ok(!(later instanceof Promise), "past the first read's expiry, still answered at once");
  assert.equal(later?.keyId, a.keyId);
});

test('a key revoked by another process is dropped by the next refresh, within the cache TTL', async (t) => {
  const h = await createHarness();
  t.after(() => h.close());
  const a = await h.createAccount({ credits: 100 });
  const { clock, cache, store } = storeWithClock(h);
  await store.findByKeyNow(a.key);
  await h.services.accounts.revokeKey(a.keyId);

  clock.ms = 3_000;
  assert.equal((store.findByKeyNow(a.key) as KeyOwner).keyId, a.keyId, 'the old answer, within the TTL');
  await until(() => cache.dueForRefresh().length === 0);
  const after = store.findByKeyNow(a.key);
  assert.ok(after instanceof Promise, 'dropped: looked up again');
  assert.equal(await after, undefined);
});

test('a key revoked, or an account deactivated, through the AccountStore stops working at once although it was cached', async (t) => {
  const h = await createHarness();
  t.after(() => h.close());
  const a = await h.createAccount({ credits: 100 });
  const b = await h.createAccount({ credits: 100 });
  for (const acc of [a, b]) assert.equal((await h.inject({ method: 'GET', url: '/v1/conta/saldo', headers: acc.headers })).statusCode, 200);

  await h.services.accounts.revokeKey(a.keyId);
  const revoked = await h.inject({ method: 'GET', url: '/v1/conta/saldo', headers: a.headers });
  assert.equal(revoked.statusCode, 401);
  assert.equal(json(revoked).error.code, 'INVALID_API_KEY');

  await h.services.accounts.setStatus(b.accountId, 'inactive');
  const inactive = await h.inject({ method: 'GET', url: '/v1/conta/saldo', headers: b.headers });
  assert.equal(inactive.statusCode, 403);
  assert.equal(json(inactive).error.code, 'ACCOUNT_INACTIVE');
  await h.services.accounts.setStatus(b.accountId, 'active');
  assert.equal((await h.inject({ method: 'GET', url: '/v1/conta/saldo', headers: b.headers })).statusCode, 200);
});

test('balances are read as committed: a top-up made elsewhere is charged against at once, and saldo never shows the cached one', async (t) => {
  const h = await createHarness({ extraRoutes: testRoutes });
  t.after(() => h.close());
  const a = await h.createAccount({ credits: 4 });
  const refused = await h.inject({ method: 'GET', url: '/v1/test/charged', headers: a.headers });
  assert.equal(refused.statusCode, 403);
  assert.deepEqual(json(refused).error.details, { price: 0.05, balance: 0.04 });

  // Not through this process's AccountStore: the cached account still says 4 centavos.
  await credit(h.services.db, h.services.clock, a.accountId, 96, 'top-up from the CLI');
  const charged = await h.inject({ method: 'GET', url: '/v1/test/charged', headers: a.headers });
  assert.equal(charged.statusCode, 200, charged.body);
  assert.equal(json(charged).meta.creditsRemaining, 0.95);

  await h.services.db.updateTable('accounts').set({ balance_centavos: 7 }).where('id', '=', a.accountId).execute();
  const saldo = await h.inject({ method: 'GET', url: '/v1/conta/saldo', headers: a.headers });
  assert.equal(json(saldo).data.saldoCentavos, 7);
  const estimate = await h.inject({ method: 'GET', url: '/v1/test/charged', headers: { ...a.headers, prefer: 'return=estimate' } });
  assert.equal(json(estimate).data.balanceCentavos, 7);
});
