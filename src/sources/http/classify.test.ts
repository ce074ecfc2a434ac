/** The one classifier (classify.ts): no answer, the status ladder, and a connector's own cases through its hooks. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../platform/clock.ts';
import { statusFailure, unanswered, upstreamError, type Classifier } from './classify.ts';

const base: Classifier = { error: upstreamError('stf'), label: 'STF', timeoutMs: 500, clock: new ManualClock('2026-01-01T00:00:00Z') };
const answer = (status: number, headers: Record<string, string> = {}, body = '') => ({ status, headers, body: Buffer.from(body) });

test('no answer: a timeout (the attempt’s or undici’s) is timeout; refused, reset or unresolvable is unavailable, naming the code', () => {
  const timer = Object.assign(new Error('timeout after 500 ms'), { name: 'TimeoutError' });
  assert.equal(unanswered(timer, base).failure, 'timeout');
  assert.equal(unanswered(Object.assign(new Error('x'), { code: 'UND_ERR_HEADERS_TIMEOUT' }), base).failure, 'timeout');
  for (const code of ['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN']) {
    const err = unanswered(Object.assign(new Error(`connect ${code}`), { code }), base, '/x');
    assert.equal(err.failure, 'unavailable', code);
    assert.equal(err.retryable, true, code);
    assert.match(err.message, new RegExp(`^STF unreachable for /x: ${code}`));
  }
});

test('the ladder: 429 with its Retry-After, 401/403 unauthorized, 5xx retried, any other status refused at once', () => {
  const limited = statusFailure(answer(429, { 'retry-after': '3' }), base, '/p');
  assert.deepEqual([limited.failure, limited.retryAfterMs, limited.retryable, limited.status], ['rate_limited', 3_000, true, 429]);
  assert.equal(statusFailure(answer(429), { ...base, defaultRetryAfterMs: 60_000 }).retryAfterMs, 60_000, 'a 429 without Retry-After: the connector’s wait');
  for (const status of [401, 403])
    assert.deepEqual([statusFailure(answer(status), base).failure, statusFailure(answer(status), base).retryable], ['unauthorized', false]);
  const down = statusFailure(answer(503, { 'retry-after': '2' }), base);
  assert.deepEqual([down.failure, down.retryable, down.retryAfterMs], ['unavailable', true, 2_000]);
  for (const status of [400, 404, 202])
    assert.deepEqual([statusFailure(answer(status), base).failure, statusFailure(answer(status), base).retryable], ['unavailable', false]);
});

test("a connector's own cases: its hook first, what a 4xx means to it, its hints, its redaction; bodies never quoted", () => {
  const own: Classifier = {
    ...base,
    own: (raw, where) => (raw.status === 403 ? upstreamError('djen')('geoblocked', `${where}: outside Brazil.`, { status: 403 }) : undefined),
    refused: { 400: 'malformed', other: 'malformed' },
    hints: { unauthorized: 'Check the key.', rate_limited: (wait) => `Retry in ${Math.ceil((wait ?? 0) / 1000)} s.` },
    redact: (text) => text.split('s3cr3t').join('***'),
  };
  assert.equal(statusFailure(answer(403), own).failure, 'geoblocked');
  assert.equal(statusFailure(answer(400), own).failure, 'malformed');
  assert.equal(statusFailure(answer(418), own).failure, 'malformed');
  assert.match(statusFailure(answer(401), own).message, /Check the key\.$/);
  assert.match(statusFailure(answer(429, { 'retry-after': '61' }), own).message, /Retry in 61 s\.$/);
  const echoed = statusFailure(answer(500, {}, '{"error":{"type":"s3cr3t","reason":"Fulana de Tal, CPF 12345678901"}}'), own);
  assert.doesNotMatch(echoed.message, /s3cr3t|Fulana|12345678901/);
});
