import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TickBatch } from './tick-batch.ts';

test('calls of one turn are served by one call, each caller getting its own result', async () => {
  const calls: number[][] = [];
  const batch = new TickBatch<number, number>({ all: async (items) => { calls.push(items); return items.map((i) => i * 10); } });
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
  assert.deepEqual(settled.map((s) => s.status), ['fulfilled', 'rejected', 'fulfilled']);
  assert.deepEqual(settled.filter((s) => s.status === 'fulfilled').map((s) => s.value), [10, 30]);

  const shared = new TickBatch<number, number>({ all });
  const together = await Promise.allSettled([1, 2, 3].map((i) => shared.add(i)));
  assert.deepEqual(together.map((s) => s.status), ['rejected', 'rejected', 'rejected']);
});

test('at most `max` items per call', async () => {
  const sizes: number[] = [];
  const batch = new TickBatch<number, number>({ all: async (items) => { sizes.push(items.length); return items; }, max: 2 });
  await Promise.all([1, 2, 3, 4, 5].map((i) => batch.add(i)));
  assert.deepEqual(sizes, [2, 2, 1]);
});
