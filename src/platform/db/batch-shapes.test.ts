import assert from 'node:assert/strict';
import { test } from 'node:test';
import { paddedIds, powerOfTwoChunks } from './batch-shapes.ts';

test('an IN list is padded with its last id to a power of two', () => {
  assert.deepEqual(paddedIds(['a']), ['a']);
  assert.deepEqual(paddedIds(['a', 'b', 'c']), ['a', 'b', 'c', 'c']);
  assert.equal(paddedIds(Array.from({ length: 129 }, (_, i) => String(i))).length, 256);
});

test('rows are cut into power-of-two chunks, largest first, none over the cap, every row once in order', () => {
  const rows = Array.from({ length: 37 }, (_, i) => i);
  assert.deepEqual(
    powerOfTwoChunks(rows).map((c) => c.length),
    [32, 4, 1],
  );
  const capped = powerOfTwoChunks(
    Array.from({ length: 150 }, (_, i) => i),
    64,
  );
  assert.deepEqual(
    capped.map((c) => c.length),
    [64, 64, 16, 4, 2],
  );
  assert.deepEqual(
    capped.flat(),
    Array.from({ length: 150 }, (_, i) => i),
  );
  assert.deepEqual(powerOfTwoChunks([]), []);
});
