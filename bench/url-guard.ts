/**
 * The SSRF guard's cost per connection (platform/webhooks/address.ts `isPublicAddress`, run on every
 * address a webhook connects to): 200,000 checks of a public IPv6 and a public IPv4 address, next to
 * `net.isIP` on the same inputs in the same run (what merely parsing an address costs). The target,
 * formerly a test's "200k checks under a second", is ≤ 5 µs per check.
 * Standalone: node bench/url-guard.ts
 */
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { isPublicAddress } from '../src/platform/webhooks/address.ts';

export const URL_GUARD_TARGET_US = 5;
const ROUNDS = 100_000;
const INPUTS = ['2606:4700:4700::1111', '93.184.215.14'];

function usPerCheck(check: (ip: string) => unknown): number {
  for (let i = 0; i < 10_000; i++) for (const ip of INPUTS) check(ip);
  const t0 = performance.now();
  for (let i = 0; i < ROUNDS; i++) for (const ip of INPUTS) check(ip);
  return ((performance.now() - t0) * 1000) / (ROUNDS * INPUTS.length);
}

export function describeUrlGuard(): string {
  const guard = usPerCheck(isPublicAddress);
  const parse = usPerCheck(isIP);
  return (
    `Webhook address guard: isPublicAddress ${guard.toFixed(3)} µs per check over ${ROUNDS * INPUTS.length} checks (target ` +
    `<= ${URL_GUARD_TARGET_US}: ${guard <= URL_GUARD_TARGET_US ? 'MET' : 'NOT MET'}); net.isIP on the same inputs ${parse.toFixed(3)} ` +
    `µs (ratio ${(guard / parse).toFixed(1)}).`
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(describeUrlGuard());
