/** What a first start prints and creates: a sandbox key only when the sandbox runs (issue 14, item 6). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHarness } from '../../test/harness.ts';
import { firstStart } from './first-start.ts';

const KEY = /trm_[0-9a-z]{10}_[0-9A-Za-z]{32}/;

test('against the real upstreams an empty database gets no account and no key, only how to create one', async (t) => {
  const h = await createHarness();
  t.after(() => h.close());
  const banner = await firstStart(h.services, 'http://localhost:3000', { ...h.sources, sandbox: null });
  assert.ok(banner);
  assert.doesNotMatch(banner, KEY);
  assert.match(banner, /npx tramita accounts create/);
  assert.equal(await h.services.accounts.count(), 0);
  const ledger = await h.services.db.selectFrom('ledger').selectAll().execute();
  assert.equal(ledger.length, 0, 'no credits granted');
});

test('with the sandbox an empty database gets a funded sandbox account whose key is printed once', async (t) => {
  const h = await createHarness();
  t.after(() => h.close());
  const banner = await firstStart(h.services, 'http://localhost:3000', h.sources);
  const key = banner?.match(KEY)?.[0];
  assert.ok(key, banner ?? 'no banner');
  const res = await h.inject({ method: 'GET', url: '/v1/conta/saldo', headers: { 'x-api-key': key } });
  assert.equal(res.statusCode, 200, res.body);
  const again = await firstStart(h.services, 'http://localhost:3000', h.sources);
  assert.doesNotMatch(again, KEY, 'a second start prints no key');
  assert.match(again, /http:\/\/localhost:3000\/docs/);
  assert.match(again, /npx tramita keys create ACCOUNT_ID/, 'and says how to get a new one');
  assert.equal(await h.services.accounts.count(), 1);
});
