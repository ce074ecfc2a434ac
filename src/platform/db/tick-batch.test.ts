import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TickBatch, tickLoader } from './tick-batch.ts';

test('calls of one turn are served by one call, each caller getting its own result', async () => {
  const calls: number[][] = [];
  const batch = new TickBatch<number, number>({
    all: async (items) => {
      calls.push(items);
      return items.map((i) => i * 10);
    },
  });
  const results = await Promise.all([1, 2, 3].map((i) => batch.add(i)));
  assert.deepEqual(results, [10, 20, 30]);
  assert.deepEqual(calls, [[1, 2, 3]]);
  assert.equal(await batch.add(4), 40, 'a later turn is a batch of its own');
  assert.deepEqual(calls, [[1, 2, 3], [4]]);
});

test('with isolate, one bad item fails only its own caller; without, the whole batch fails', async () => {
  const all = async (items: number[]) => {
    if (items.includes(2)) throw new Error('bad item 2');
    return items.map((i) => i * 10);
  };
  const isolated = new TickBatch<number, number>({ all, isolate: true });
  const settled = await Promise.allSettled([1, 2, 3].map((i) => isolated.add(i)));
  assert.deepEqual(
    settled.map((s) => s.status),
    ['fulfilled', 'rejected', 'fulfilled'],
  );
  assert.deepEqual(
    settled.filter((s) => s.status === 'fulfilled').map((s) => s.value),
    [10, 30],
  );

  const shared = new TickBatch<number, number>({ all });
  const together = await Promise.allSettled([1, 2, 3].map((i) => shared.add(i)));
  assert.deepEqual(
    together.map((s) => s.status),
    ['rejected', 'rejected', 'rejected'],
  );
});

test('at most `max` items per call', async () => {
  const sizes: number[] = [];
  const batch = new TickBatch<number, number>({
    all: async (items) => {
      sizes.push(items.length);
      return items;
    },
    max: 2,
  });
  await Promise.all([1, 2, 3, 4, 5].map((i) => batch.add(i)));
  assert.deepEqual(sizes, [2, 2, 1]);
});
// tickLoader: the keys asked for in one tick are read by one fetch, each distinct key once; a failure reaches every caller.

test("the keys of one tick are read by one fetch, each once; every caller gets its own key's row", async () => {
  const fetched: string[][] = [];
  const load = tickLoader<string, number>(async (keys) => {
    fetched.push(keys);
    return new Map(keys.filter((k) => k !== 'missing').map((k) => [k, k.length]));
  });
  assert.deepEqual(await Promise.all([load('a'), load('bb'), load('a'), load('missing')]), [1, 2, 1, undefined]);
  assert.deepEqual(await load('ccc'), 3);
  assert.deepEqual(fetched, [['a', 'bb', 'missing'], ['ccc']]);
});

test('a failed fetch rejects every caller of its tick, and the next tick reads again', async () => {
  let fail = true;
  const load = tickLoader<string, string>(async (keys) => {
    if (fail) throw new Error('database away');
    return new Map(keys.map((k) => [k, k]));
  });
  const results = await Promise.allSettled([load('a'), load('b')]);
  assert.deepEqual(
    results.map((r) => r.status),
    ['rejected', 'rejected'],
  );
  fail = false;
  assert.equal(await load('a'), 'a');
});

test('at most maxInFlight calls run at once; what queues meanwhile goes in the next call', async () => {
  let running = 0;
  let most = 0;
  const sizes: number[] = [];
  const batch = new TickBatch<number, number>({
    all: async (items) => {
      running++;
      most = Math.max(most, running);
      sizes.push(items.length);
      await new Promise((done) => setImmediate(done));
      running--;
      return items;
    },
    max: 2,
    maxInFlight: 1,
  });
  assert.deepEqual(await Promise.all([1, 2, 3, 4, 5].map((i) => batch.add(i))), [1, 2, 3, 4, 5]);
  assert.equal(most, 1);
  assert.deepEqual(sizes, [2, 2, 1]);
});
