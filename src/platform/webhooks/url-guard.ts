/**
 * Validation of a webhook URL when a customer configures it (spec §6: HTTPS only, INVALID_WEBHOOK_URL
 * otherwise). Besides the shape of the URL it refuses every target inside our own network: reserved
 * names, non-public IP literals and names that resolve to non-public addresses. Resolution here only
 * gives the customer an early, clear error; the sender checks again at every connection (lookup.ts),
 * because DNS can change between now and then.
 */
import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';
import { ApiError } from '../errors.ts';
import { isPublicAddress } from './address.ts';

export const MAX_WEBHOOK_URL_LENGTH = 2048;

export type Resolver = (host: string) => Promise<string[]>;

export interface WebhookUrlOptions {
  /** Development only (TRAMITA_WEBHOOK_ALLOW_PRIVATE): http:, loopback, private and local names. */
  allowPrivate: boolean;
  /** Named in the error's `details.field`; defaults to `webhook_url`. */
  field?: string;
  /** Host name → addresses; defaults to the system resolver (dns.lookup, all addresses). */
  resolve?: Resolver;
}

export type WebhookUrlRejection =
  | 'not_a_string'
  | 'too_long'
  | 'unparseable'
  | 'scheme'
  | 'credentials'
  | 'fragment'
  | 'reserved_name'
  | 'private_address'
  | 'unresolvable';

const systemResolver: Resolver = async (host) => (await dns.lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

export async function checkWebhookUrl(raw: unknown, opts: WebhookUrlOptions): Promise<URL> {
  const field = opts.field ?? 'webhook_url';
  const reject = (reason: WebhookUrlRejection, message: string): never => {
    throw new ApiError('INVALID_WEBHOOK_URL', message, { field, reason });
  };

  if (typeof raw !== 'string') return reject('not_a_string', `${field} must be a string`);
  if (raw.length > MAX_WEBHOOK_URL_LENGTH) {
    return reject('too_long', `${field} is longer than ${MAX_WEBHOOK_URL_LENGTH} characters`);
  }
  const url = URL.parse(raw);
  if (!url) return reject('unparseable', `${field} is not a valid absolute URL`);

  if (url.protocol !== 'https:' && !(opts.allowPrivate && url.protocol === 'http:')) {
    return reject('scheme', `${field} must use https (got ${url.protocol.slice(0, 32)})`);
  }
  if (url.username !== '' || url.password !== '') {
    return reject('credentials', `${field} must not contain credentials (user:password@); use the bearer token instead`);
  }
  // `url.hash` is '' for an empty fragment too ("https://x.com/#"); the serialization keeps the '#'.
  if (url.href.includes('#')) return reject('fragment', `${field} must not contain a fragment (#…)`);

  if (opts.allowPrivate) return url;

  // WHATWG URL has already canonicalized IP literals (127.1, 2130706433, 0x7f.1, 0177.0.0.1 → 127.0.0.1;
  // [::ffff:127.0.0.1] → [::ffff:7f00:1]), so testing the canonical hostname catches every spelling.
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (isIP(host) !== 0) {
    if (!isPublicAddress(host)) {
      return reject('private_address', `${field} points to a non-public address (${host})`);
    }
    return url;
  }

  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  if (isReservedName(name)) {
    return reject('reserved_name', `${field} host "${name}" is a local or internal name, not a public one`);
  }

  let addresses: string[];
  try {
    addresses = await (opts.resolve ?? systemResolver)(name);
  } catch {
    addresses = [];
  }
  if (addresses.length === 0) return reject('unresolvable', `${field} host "${name}" does not resolve`);
  const nonPublic = addresses.find((address) => !isPublicAddress(address));
  if (nonPublic !== undefined) {
    return reject('private_address', `${field} host "${name}" resolves to a non-public address (${nonPublic})`);
  }
  return url;
}

/** Names that only mean something inside a network: loopback, mDNS, cloud-internal, single labels. */
function isReservedName(name: string): boolean {
  // `.internal` includes metadata.google.internal.
  return !name.includes('.') || name === 'localhost' || name.endsWith('.localhost') || name.endsWith('.local') || name.endsWith('.internal');
}
