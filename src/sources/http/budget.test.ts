/** The shared request budget: never more than N grants in any rolling minute; waiting is abortable. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../platform/clock.ts';
import { RequestBudget } from './budget.ts';
import type { Sleep } from './waits.ts';
import { Semaphore } from './concurrency.ts';
import { backoffMs } from './backoff.ts';
import { clockSleep } from '../testing/sleeps.ts';

/** A sleep that waits until the test moves the manual clock past its deadline. */
function manualSleep(clock: ManualClock): { sleep: Sleep; advance(ms: number): void; sleeping(): number } {
  let sleepers: Array<{ until: number; wake(): void }> = [];
  const sleep: Sleep = (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      const sleeper = { until: clock.now().getTime() + ms, wake: resolve };
      sleepers.push(sleeper);
      signal?.addEventListener(
        'abort',
        () => {
          sleepers = sleepers.filter((s) => s !== sleeper);
          reject(signal.reason);
        },
        { once: true },
      );
    });
  return {
    sleep,
    advance(ms) {
      clock.advance(ms);
      const now = clock.now().getTime();
      const due = sleepers.filter((s) => s.until <= now);
      sleepers = sleepers.filter((s) => s.until > now);
      for (const s of due) s.wake();
    },
    sleeping: () => sleepers.length,
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

test('250 concurrent callers with N=100: no rolling minute ever holds more than 100 grants', async () => {
  const clock = new ManualClock();
  const budget = new RequestBudget({ perMinute: 100, clock, sleep: clockSleep(clock) });
  const start = clock.now().getTime();
  const grants: number[] = [];
  await Promise.all(Array.from({ length: 250 }, () => budget.acquire().then(() => grants.push(clock.now().getTime() - start))));
  assert.equal(grants.length, 250);
  assert.equal(budget.granted, 250);
  for (let i = 0; i + 100 < grants.length; i++) {
    assert.ok(grants[i + 100] - grants[i] >= 60_000, `grants ${i} and ${i + 100} are ${grants[i + 100] - grants[i]} ms apart`);
  }
  assert.deepEqual([grants[0], grants[99], grants[100], grants[199], grants[200]], [0, 0, 60_000, 60_000, 120_000]);
});

test('spread-out requests are not delayed; a burst waits exactly until the oldest grant leaves the window', async () => {
  const clock = new ManualClock();
  const m = manualSleep(clock);
  const budget = new RequestBudget({ perMinute: 2, clock, sleep: m.sleep });
  await budget.acquire();
  m.advance(30_000);
  await budget.acquire();
  let third = false;
  const pending = budget.acquire().then(() => (third = true));
  await tick();
  assert.equal(third, false);
  m.advance(29_999);
  await tick();
  assert.equal(third, false, 'the first grant is still inside the window');
  m.advance(1);
  await pending;
  assert.equal(third, true);
});

test('an aborted waiter leaves the queue without taking a slot', async () => {
  const clock = new ManualClock();
  const m = manualSleep(clock);
  const budget = new RequestBudget({ perMinute: 1, clock, sleep: m.sleep });
  await budget.acquire();
  const ctl = new AbortController();
  const aborted = budget.acquire(ctl.signal);
  const next = budget.acquire();
  await tick();
  ctl.abort(new Error('gave up'));
  await assert.rejects(aborted, /gave up/);
  m.advance(60_000);
  await next;
  assert.equal(budget.granted, 2, 'the aborted caller took nothing');
  await assert.rejects(budget.acquire(AbortSignal.abort(new Error('already'))), /already/);
});

test('the semaphore limits holders and hands slots over in order', async () => {
  const sem = new Semaphore(1);
  await sem.acquire();
  const order: string[] = [];
  const a = sem.acquire().then(() => order.push('a'));
  const ctl = new AbortController();
  const b = sem.acquire(ctl.signal).then(() => order.push('b'));
  const c = sem.acquire().then(() => order.push('c'));
  ctl.abort(new Error('b left'));
  await assert.rejects(b, /b left/);
  sem.release();
  await a;
  sem.release();
  await c;
  assert.deepEqual(order, ['a', 'c']);
});

test('backoff doubles from the base, is capped, jittered, and never shorter than Retry-After', () => {
  const policy = { attempts: 3, baseMs: 500, capMs: 8_000, maxRetryAfterMs: 60_000 };
  assert.equal(
    backoffMs(policy, 1, () => 1),
    500,
  );
  assert.equal(
    backoffMs(policy, 1, () => 0),
    250,
  );
  assert.equal(
    backoffMs(policy, 2, () => 1),
    1_000,
  );
  assert.equal(
    backoffMs(policy, 10, () => 1),
    8_000,
  );
  assert.equal(
    backoffMs(policy, 1, () => 1, 3_000),
    3_000,
  );
});
