/**
 * The limiter's windows, with a fake clock (the route suite checks the 429 and its headers over HTTP):
 * a window starts at a key's first request and ends `windowMs` later; keys and classes count apart;
 * the counters stay bounded.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimit, RouteClass } from '../../config.ts';
import { isApiError } from '../errors.ts';
import { RateLimiter } from './rate-limit.ts';

const LIMITS = { lookup: { max: 2, windowMs: 60_000 }, account: { max: 1, windowMs: 1_000 } } as unknown as Record<RouteClass, RateLimit>;

function call(limiter: RateLimiter, keyId: string | undefined, routeClass: RouteClass, ip = '127.0.0.1') {
  const headers: Record<string, unknown> = {};
  const req = { auth: keyId ? { keyId } : undefined, ip } as unknown as FastifyRequest;
  const reply = {
    header: (k: string, v: unknown) => {
      headers[k] = v;
    },
  } as unknown as FastifyReply;
  try {
    limiter.check(req, reply, routeClass);
    return { ok: true, headers };
  } catch (err) {
    assert.ok(isApiError(err) && err.code === 'RATE_LIMITED');
    return { ok: false, headers: { ...headers, ...err.headers } };
  }
}

test('a window counts from the first request and resets after windowMs; RateLimit-* on every answer', () => {
  let now = 1_000_000;
  const limiter = new RateLimiter(LIMITS, () => now);
  assert.deepEqual(call(limiter, 'k1', 'lookup').headers, { 'ratelimit-limit': 2, 'ratelimit-remaining': 1, 'ratelimit-reset': 60 });
  now += 30_000;
  assert.equal(call(limiter, 'k1', 'lookup').headers['ratelimit-remaining'], 0);
  const refused = call(limiter, 'k1', 'lookup');
  assert.equal(refused.ok, false);
  assert.equal(refused.headers['retry-after'], '30');
  assert.equal(refused.headers['ratelimit-reset'], 30);
  now += 30_000;
  assert.deepEqual(call(limiter, 'k1', 'lookup'), { ok: true, headers: { 'ratelimit-limit': 2, 'ratelimit-remaining': 1, 'ratelimit-reset': 60 } });
});

test('keys, classes and unauthenticated IPs count apart', () => {
  const limiter = new RateLimiter(LIMITS, () => 5_000);
  assert.equal(call(limiter, 'k1', 'account').ok, true);
  assert.equal(call(limiter, 'k1', 'account').ok, false);
  assert.equal(call(limiter, 'k2', 'account').ok, true);
  assert.equal(call(limiter, 'k1', 'lookup').ok, true);
  assert.equal(call(limiter, undefined, 'account', '10.0.0.1').ok, true);
  assert.equal(call(limiter, undefined, 'account', '10.0.0.1').ok, false);
  assert.equal(call(limiter, undefined, 'account', '10.0.0.2').ok, true);
});

test('counters stay bounded at 10,000: ended windows are dropped first, else the oldest window', () => {
  let now = 0;
  const limiter = new RateLimiter(LIMITS, () => now);
  call(limiter, 'first', 'lookup');
  call(limiter, 'first', 'lookup');
  for (let i = 1; i < 10_000; i++) call(limiter, `key-${i}`, 'account');
  assert.equal(call(limiter, 'first', 'lookup').ok, false);
  // Full and nothing ended: a new key pushes out the oldest window, which then starts over.
  now = 59_000;
  call(limiter, 'newcomer', 'account');
  assert.equal(call(limiter, 'first', 'lookup').ok, true);
  // Every window has ended: the sweep drops them all, and a live one is counted as before.
  now = 200_000;
  assert.equal(call(limiter, 'late', 'account').ok, true);
  assert.equal(call(limiter, 'late', 'account').ok, false);
});
