import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LruMap } from './lru-map.ts';

const keys = (m: LruMap<string, number>) => [...m].map(([k]) => k);

test('past its bound the least recently used entry goes, a use counting as recent', () => {
  const m = new LruMap<string, number>(3);
  m.set('a', 1);
  m.set('b', 2);
  m.set('c', 3);
  assert.equal(m.get('a'), 1);
  m.set('d', 4);
  assert.deepEqual(keys(m), ['c', 'a', 'd']);
  assert.equal(m.get('b'), undefined);
});

test('using the newest entry again keeps the order; the next use of another moves it', () => {
  const m = new LruMap<string, number>(3);
  m.set('a', 1);
  m.set('b', 2);
  for (let i = 0; i < 3; i++) assert.equal(m.get('b'), 2);
  assert.deepEqual(keys(m), ['a', 'b']);
  assert.equal(m.get('a'), 1);
  assert.deepEqual(keys(m), ['b', 'a']);
});

test('a deleted newest entry leaves the order right for the others and comes back as newest', () => {
  const m = new LruMap<string, number>(2);
  m.set('a', 1);
  m.set('b', 2);
  m.delete('b');
  assert.equal(m.get('b'), undefined);
  assert.equal(m.get('a'), 1);
  m.set('b', 3);
  m.set('c', 4);
  assert.deepEqual(keys(m), ['b', 'c']);
  assert.equal(m.size, 2);
});
