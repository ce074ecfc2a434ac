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
import type { Config } from '../../config.ts';

export function fastifyTrustProxy(trust: Config['trustProxy']): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return trust;
}
