/** TickLoader: the keys asked for in one tick are read by one fetch, each distinct key once; a failure reaches every caller. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TickLoader } from './tick-loader.ts';

test('the keys of one tick are read by one fetch, each once; every caller gets its own key\'s row', async () => {
  const fetched: string[][] = [];
  const loader = new TickLoader<string, number>(async (keys) => {
    fetched.push(keys);
    return new Map(keys.filter((k) => k !== 'missing').map((k) => [k, k.length]));
  });
  assert.deepEqual(await Promise.all([loader.load('a'), loader.load('bb'), loader.load('a'), loader.load('missing')]), [1, 2, 1, undefined]);
  assert.deepEqual(await loader.load('ccc'), 3);
  assert.deepEqual(fetched, [['a', 'bb', 'missing'], ['ccc']]);
});

test('a failed fetch rejects every caller of its tick, and the next tick reads again', async () => {
  let fail = true;
  const loader = new TickLoader<string, string>(async (keys) => {
    if (fail) throw new Error('database away');
    return new Map(keys.map((k) => [k, k]));
  });
  const results = await Promise.allSettled([loader.load('a'), loader.load('b')]);
  assert.deepEqual(results.map((r) => r.status), ['rejected', 'rejected']);
  fail = false;
  assert.equal(await loader.load('a'), 'a');
});
