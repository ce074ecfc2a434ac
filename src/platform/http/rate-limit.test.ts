/**
 * The limiter's windows, with a fake clock (the route suite checks the 429 and its headers over HTTP):
 * a window starts at its first request and ends `windowMs` later; accounts and classes count apart, and
 * the keys of one account together; the counters stay bounded, and no flood of new addresses resets a
 * live window.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimit, RouteClass } from './route-classes.ts';
import { isApiError } from '../errors.ts';
import { MAX_ADDRESS_WINDOWS, RateLimiter } from './rate-limit.ts';

const LIMITS = { lookup: { max: 2, windowMs: 60_000 }, account: { max: 1, windowMs: 1_000 } } as unknown as Record<RouteClass, RateLimit>;

/** A request of `account` (any of its keys), or without a key from `ip`. */
function call(limiter: RateLimiter, account: string | undefined, routeClass: RouteClass, ip = '127.0.0.1') {
  const headers: Record<string, unknown> = {};
  const req = { auth: account ? { keyId: `key_of_${account}`, account: { id: account } } : undefined, ip } as unknown as FastifyRequest;
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

test('accounts, classes and unauthenticated IPs count apart; the keys of one account count together', () => {
  const limiter = new RateLimiter(LIMITS, () => 5_000);
  assert.equal(call(limiter, 'acc_1', 'account').ok, true);
  assert.equal(call(limiter, 'acc_1', 'account').ok, false);
  assert.equal(call(limiter, 'acc_2', 'account').ok, true);
  assert.equal(call(limiter, 'acc_1', 'lookup').ok, true);
  assert.equal(call(limiter, undefined, 'account', '10.0.0.1').ok, true);
  assert.equal(call(limiter, undefined, 'account', '10.0.0.1').ok, false);
  assert.equal(call(limiter, undefined, 'account', '10.0.0.2').ok, true);
  // Another key of acc_1: the same window (the request carries the account, whichever key it used).
  const otherKey = { auth: { keyId: 'key_second', account: { id: 'acc_1' } }, ip: '127.0.0.1' } as unknown as FastifyRequest;
  assert.throws(
    () => limiter.check(otherKey, { header() {} } as unknown as FastifyReply, 'account'),
    (e) => isApiError(e) && e.code === 'RATE_LIMITED',
  );
});

test('a flood of new addresses never resets a live window: past 10,000, newcomers share one overflow window', () => {
  let now = 0;
  const limiter = new RateLimiter(LIMITS, () => now);
  call(limiter, 'acc_victim', 'lookup');
  call(limiter, 'acc_victim', 'lookup');
  call(limiter, undefined, 'lookup', '192.0.2.1');
  call(limiter, undefined, 'lookup', '192.0.2.1');
  for (let i = 1; i < MAX_ADDRESS_WINDOWS; i++) call(limiter, undefined, 'account', `10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`);
  now = 59_000;
  // The bound is reached and every window is live: a newcomer neither evicts nor gets a fresh window.
  assert.equal(call(limiter, undefined, 'account', '203.0.113.1').ok, true);
  assert.equal(call(limiter, undefined, 'account', '203.0.113.2').ok, false, 'newcomers share the overflow window (account: 1/s)');
  assert.equal(call(limiter, 'acc_victim', 'lookup').ok, false, "the account's window is still counted");
  assert.equal(call(limiter, undefined, 'lookup', '192.0.2.1').ok, false, "a known address's window too");
  // Every window has ended: the sweep drops them, and a newcomer gets its own window again.
  now = 200_000;
  assert.equal(call(limiter, undefined, 'account', '203.0.113.3').ok, true);
  assert.equal(call(limiter, undefined, 'account', '203.0.113.4').ok, true);
  assert.equal(call(limiter, undefined, 'account', '203.0.113.3').ok, false);
});
