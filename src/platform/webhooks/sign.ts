/**
 * The headers of one webhook delivery and its two signatures (docs/webhooks.md, "Signatures"):
 * - `X-Service-Signature` (spec §6.2; `Service` is TRAMITA_WEBHOOK_PRODUCT, so a deployment can send
 *   the header names its integrators' receivers read): `sha256=` + hex HMAC-SHA256 of the raw body,
 *   keyed with the secret string exactly as the customer sees it;
 * - `webhook-signature` (Standard Webhooks, standardwebhooks.com): `v1,` + base64 HMAC-SHA256 of
 *   `${id}.${timestamp}.${body}`, keyed with the base64-decoded part of the `whsec_…` secret, so any
 *   Standard Webhooks library verifies our deliveries.
 */
import { createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';

/** The product name of spec §6.2's header prefix and User-Agent; TRAMITA_WEBHOOK_PRODUCT replaces it. */
export const DEFAULT_WEBHOOK_PRODUCT = 'Service';

export function userAgentOf(product: string): string {
  return `${product}-Webhook/1.0`;
}
const SECRET_PREFIX = 'whsec_';

/** A new signing secret in the Standard Webhooks format: `whsec_` + base64 of 24 random bytes. */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(24).toString('base64');
}

export interface DeliveryToSign {
  /** The exact bytes that will be sent (as a string; signed as its UTF-8 encoding). */
  body: string;
  secret: string | null;
  token: string | null;
  event: string;
  /** Identifies this delivery (one attempt chain to one receiver): X-Service-Delivery-Id. */
  deliveryId: string;
  /** Identifies the message across resends: webhook-id. */
  messageId: string;
  timestampSeconds: number;
  /** The product name in `X-<Product>-…` and `<Product>-Webhook/1.0` (default `Service`, spec §6.2). */
  product?: string;
}

export function signDelivery(input: DeliveryToSign): Record<string, string> {
  if (!Number.isSafeInteger(input.timestampSeconds)) {
    throw new TypeError('signDelivery: timestampSeconds must be an integer number of seconds');
  }
  const timestamp = String(input.timestampSeconds);
  const product = input.product ?? DEFAULT_WEBHOOK_PRODUCT;
  const prefix = `x-${product.toLowerCase()}-`;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': userAgentOf(product),
    [`${prefix}event`]: input.event,
    [`${prefix}delivery-id`]: input.deliveryId,
    [`${prefix}timestamp`]: timestamp,
  };
  if (input.token) headers.authorization = `Bearer ${input.token}`;
  if (input.secret) headers[`${prefix}signature`] = serviceSignature(input.secret, input.body);
  headers['webhook-id'] = input.messageId;
  headers['webhook-timestamp'] = timestamp;
  if (input.secret) {
    headers['webhook-signature'] = standardSignature(input.secret, input.messageId, timestamp, input.body);
  }
  return headers;
}

/** `sha256=<hex>`: HMAC-SHA256 keyed with the UTF-8 bytes of the whole secret string, over the body. */
export function serviceSignature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

/** `v1,<base64>`: the Standard Webhooks signature. */
export function standardSignature(secret: string, messageId: string, timestamp: string, body: string): string {
  return `v1,${createHmac('sha256', standardKey(secret)).update(`${messageId}.${timestamp}.${body}`, 'utf8').digest('base64')}`;
}

const STANDARD_KEYS_CACHED = 1024;
const standardKeys = new Map<string, KeyObject>();

/**
 * The decoded key of a `whsec_` secret, made once per secret: an HMAC keyed with a Buffer costs ~35 µs
 * in Node 24 (a key object is built each time), one keyed with a ready KeyObject ~5 µs.
 */
function standardKey(secret: string): KeyObject {
  let key = standardKeys.get(secret);
  if (key === undefined) {
    key = createSecretKey(Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64'));
    if (standardKeys.size >= STANDARD_KEYS_CACHED) standardKeys.delete(standardKeys.keys().next().value!);
    standardKeys.set(secret, key);
  }
  return key;
}
