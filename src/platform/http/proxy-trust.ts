/**
 * Which proxies' `X-Forwarded-For`/`-Proto` Fastify believes (TRAMITA_TRUST_PROXY, config.ts): none,
 * the addresses listed, or the nearest N hops. proxy-addr walks the hops from the socket's peer (hop 0)
 * towards the client, and the request's address is the first one not trusted: with one trusted hop,
 * the entry the proxy appended, never the ones the client wrote before it.
 *
 * A hop count is given to Fastify as a function: Fastify 5.12 takes a bare number as trusting nobody
 * (it cannot tell the proxy from a client that connects directly), which would give every client the
 * proxy's address. The price is the reason Fastify gives: with a count, Tramita must be reachable only
 * through the proxy (docs/operations.md, "Running behind a proxy"); the address list has no such condition.
 */
import { isIP } from 'node:net';
import { ConfigError } from '../../config-error.ts';

/** What TRAMITA_TRUST_PROXY parses to: none, the nearest N hops, or these addresses. */
export type ProxyTrust = false | number | string[];

export function fastifyTrustProxy(trust: ProxyTrust): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return trust;
}

/** proxy-addr's names for address ranges, which Fastify's trustProxy also takes. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * TRAMITA_TRUST_PROXY: `false`, a hop count, or a comma list of addresses and CIDRs (Fastify's
 * trustProxy). A bare `true` is refused: it believes every hop, so the leftmost X-Forwarded-For, which
 * the client writes, would become its address (per-address limits, the audit log) (issue 45).
 */
export function trustProxy(raw: string): ProxyTrust {
  const value = raw.trim().toLowerCase();
  if (['false', 'no', '0', ''].includes(value)) return false;
  if (['true', 'yes'].includes(value)) {
    throw new ConfigError(
      `TRAMITA_TRUST_PROXY=${raw} would believe every X-Forwarded-For hop, including the one the client writes. Set the number of ` +
        'reverse proxies in front of Tramita (TRAMITA_TRUST_PROXY=1 for one nginx) or their addresses (TRAMITA_TRUST_PROXY=127.0.0.1 or ' +
        '10.0.0.0/8,127.0.0.1); see docs/operations.md, "Running behind a proxy".',
    );
  }
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops < 1 || hops > 20) throw new ConfigError(`TRAMITA_TRUST_PROXY must be an integer from 1 to 20, got "${value}"`);
    return hops;
  }
  const list = value.split(',').map((p) => p.trim());
  for (const entry of list) {
    const [address, bits, extra] = entry.split('/');
    const family = isIP(address ?? '');
    const maxBits = family === 6 ? 128 : 32;
    const validBits = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= maxBits);
    if (!PROXY_RANGE_NAMES.includes(entry) && (family === 0 || !validBits || extra !== undefined)) {
      throw new ConfigError(`TRAMITA_TRUST_PROXY: "${entry}" is not a hop count, an IP address, a CIDR (10.0.0.0/8) or one of ${PROXY_RANGE_NAMES.join(', ')}`);
    }
  }
  return list;
}
