import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TickBatch } from './tick-batch.ts';
import { atTurnEnd } from './turn-end.ts';

test('work queued by what a flush released runs in the same turn, before the next one', async () => {
  const order: string[] = [];
  const writes = new TickBatch<number, number>({
    all: async (items) => {
      order.push(`write ${items.join(',')}`);
      return items;
    },
  });
  const reads = new TickBatch<number, number>({
    all: async (items) => {
      order.push(`read ${items.join(',')}`);
      // Whatever the next turn runs first: the writes below must not wait for it.
      setImmediate(() => order.push('next turn'));
      return items;
    },
  });
  // A hot cover: its stamps are read at the end of the turn, then its charge is queued.
  const request = async (n: number) => writes.add(await reads.add(n));
  await Promise.all([request(1), request(2), request(3)]);
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(order, ['read 1,2,3', 'write 1,2,3', 'next turn']);
});

test('a chain that keeps queueing work still lets the next turn come', async () => {
  let rounds = 0;
  let nextTurn = false;
  let roundsBeforeNextTurn = -1;
  await new Promise<void>((done) => {
    const again = () => {
      rounds++;
      if (nextTurn || rounds > 1000) return done();
      if (rounds === 1)
        setImmediate(() => {
          nextTurn = true;
          roundsBeforeNextTurn = rounds;
        });
      // Queued from a microtask after the flush, like a handler continuing after its read.
      queueMicrotask(() => atTurnEnd(again));
    };
    atTurnEnd(again);
  });
  assert.ok(nextTurn, 'the next turn came');
  assert.ok(roundsBeforeNextTurn > 1, 'later rounds ran in the same turn');
  assert.ok(roundsBeforeNextTurn <= 16, `at most a few rounds per turn (${roundsBeforeNextTurn})`);
});
