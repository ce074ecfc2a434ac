import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IN_LIST_MAX, inLists } from './in-lists.ts';

test('a long list is cut into consecutive lists of at most the size, in order, nothing lost', () => {
  const items = Array.from({ length: 1_234 }, (_, i) => i);
  const lists = inLists(items);
  assert.deepEqual(
    lists.map((l) => l.length),
    [IN_LIST_MAX, IN_LIST_MAX, 234],
  );
  assert.deepEqual(lists.flat(), items);
  assert.deepEqual(inLists(['a', 'b', 'c'], 2), [['a', 'b'], ['c']]);
});

test('no items make no lists; a size below one is refused', () => {
  assert.deepEqual(inLists([]), []);
  assert.throws(() => inLists([1], 0), RangeError);
});
