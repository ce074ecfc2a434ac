/**
 * No retries while a caller waits (issue 51): the one request loop makes one attempt per call to an
 * auxiliary source on a request path (platform/request-path.ts asAuxiliary) and to the main source
 * (`oncePerCaller`, DataJud), the schedule's attempts in background work and for other main sources;
 * an explicit `attempts` wins either way. Counted attempts, no clock.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RetryableSourceError, TRANSIENT_FAILURES } from '../../platform/ports/source-error.ts';
import { asAuxiliary, inBackground, whileCallerWaits } from '../../platform/request-path.ts';
import { fixedSchedule } from './backoff.ts';
import { RequestLoop } from './loop.ts';

const loop = (oncePerCaller = false) =>
  new RequestLoop({ schedule: fixedSchedule({}, { retries: 4, retryDelaysMs: [0], maxRetryAfterMs: 0 }), sleep: async () => {}, oncePerCaller });

/** Runs a send that always fails transiently; returns how many attempts it saw. */
async function attempts(run: (l: RequestLoop, send: () => Promise<never>) => Promise<unknown>, oncePerCaller = false): Promise<number> {
  let n = 0;
  const send = async (): Promise<never> => {
    n++;
    throw new RetryableSourceError('djen', TRANSIENT_FAILURES, 'unavailable', 'down');
  };
  await assert.rejects(run(loop(oncePerCaller), send), RetryableSourceError);
  return n;
}

const WAIT = { auxiliaryDeadlineMs: 1000 };

test('while a caller waits for an auxiliary source or the main one: one attempt, no retry ladder', async () => {
  assert.equal(await attempts((l, send) => whileCallerWaits(WAIT, () => asAuxiliary(() => l.run(send)))), 1);
  assert.equal(await attempts((l, send) => whileCallerWaits(WAIT, () => l.run(send)), true), 1, 'DataJud');
});

test("another main source's own route keeps its schedule within the window", async () => {
  assert.equal(await attempts((l, send) => whileCallerWaits(WAIT, () => l.run(send))), 5);
});

test("in background work: the schedule's attempts (1 + 4 retries), even when started from a request path", async () => {
  assert.equal(await attempts((l, send) => l.run(send)), 5);
  assert.equal(await attempts((l, send) => whileCallerWaits(WAIT, () => asAuxiliary(() => inBackground(() => l.run(send))))), 5);
  assert.equal(await attempts((l, send) => l.run(send), true), 5, 'DataJud in a job');
});

test('an explicit attempts option wins', async () => {
  assert.equal(await attempts((l, send) => whileCallerWaits(WAIT, () => asAuxiliary(() => l.run(send, undefined, undefined, { attempts: 3 })))), 3);
  assert.equal(await attempts((l, send) => l.run(send, undefined, undefined, { attempts: 2 })), 2);
});

test('a round of single attempts is retried as a whole on the one schedule, never a retry inside a retry', async () => {
  assert.equal(await attempts((l, send) => l.rounds((_, s) => l.run(send, s, undefined, { attempts: 1, uncounted: true }))), 5);
  assert.equal(await attempts((l, send) => whileCallerWaits(WAIT, () => asAuxiliary(() => l.rounds(() => send())))), 1, 'once while a caller waits');
  const l = loop();
  await assert.rejects(
    l.rounds((_, s) =>
      l.run(async () => Promise.reject(new RetryableSourceError('x', TRANSIENT_FAILURES, 'timeout', 't')), s, undefined, { attempts: 1, uncounted: true }),
    ),
  );
  assert.deepEqual(l.stats, { requests: 5, retries: 4, failures: 1 }, 'the round counts its one failure');
});
