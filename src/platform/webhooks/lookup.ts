/**
 * A `lookup` for the sender's HTTP agents that refuses non-public addresses at connection time.
 * Checking the URL when it is saved is not enough: a name can resolve to a public address then and to
 * 127.0.0.1 later (DNS rebinding), so every connection checks the addresses it is about to use.
 *
 * Node does not call `lookup` for IP-literal hosts: the sender checks those itself (send.ts).
 */
import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import { isPublicAddress } from './address.ts';

export const PRIVATE_ADDRESS_CODE = 'EPRIVATEADDRESS';

export class PrivateAddressError extends Error {
  readonly code = PRIVATE_ADDRESS_CODE;
  readonly hostname: string;
  readonly address: string;
  constructor(hostname: string, address: string) {
    super(
      hostname === address
        ? `refused to connect to non-public address ${address}`
        : `refused to connect: ${hostname} resolves to non-public address ${address}`,
    );
    this.name = 'PrivateAddressError';
    this.hostname = hostname;
    this.address = address;
  }
}

type LookupAllCallback = (err: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void;
/** The `all: true` form of dns.lookup; injectable so tests can resolve names to chosen addresses. */
export type LookupAll = (hostname: string, options: dns.LookupAllOptions, callback: LookupAllCallback) => void;

const systemLookupAll: LookupAll = (hostname, options, callback) => dns.lookup(hostname, options, callback);

export function guardedLookup(allowPrivate: boolean, lookupAll: LookupAll = systemLookupAll): LookupFunction {
  return (hostname, options, callback) => {
    // Always ask for every address: a single answer would let a private one hide behind the choice.
    lookupAll(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, options.all ? [] : '');
      if (addresses.length === 0) {
        const notFound: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
        notFound.code = 'ENOTFOUND';
        return callback(notFound, options.all ? [] : '');
      }
      if (!allowPrivate) {
        for (const { address } of addresses) {
          if (!isPublicAddress(address)) return callback(new PrivateAddressError(hostname, address), options.all ? [] : '');
        }
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}
