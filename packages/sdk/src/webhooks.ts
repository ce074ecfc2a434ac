/**
 * Verifying a webhook delivery (docs/webhooks.md "Signatures") with Web Crypto only, so it runs on
 * Node 20+, Deno, Bun and edge runtimes. Both signatures Tramita sends are checked when present:
 * - `webhook-signature` (Standard Webhooks v1): HMAC-SHA256 keyed by the base64 after `whsec_`, over
 *   `<webhook-id>.<webhook-timestamp>.<body>`; the timestamp must be within the tolerance;
 * - `X-Service-Signature` (spec §6.2): `sha256=` + hex HMAC-SHA256 keyed by the whole secret string,
 *   over the body.
 * At least one must be present, every one present must match (compared in constant time), and only
 * then is the body parsed.
 */
import type { EventName } from './generated.ts';

/** A delivery's body (spec §6.1). `event` may be a name this SDK does not know yet: handle it tolerantly. */
export interface WebhookEvent<D = Record<string, unknown>> {
  id: string;
  event: EventName | (string & {});
  source?: string;
  created_at: string;
  data: D;
  [key: string]: unknown;
}

/** Express's and Node's `req.headers`, Fastify's `request.headers`, or a Fetch `Headers` (Next.js, edge). */
export type IncomingHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** Largest distance between `webhook-timestamp` and now, in seconds (default 300, as Standard Webhooks). */
  toleranceSeconds?: number;
  /** The current time in ms (tests). */
  now?: () => number;
}

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

const encoder = new TextEncoder();

/**
 * Checks a delivery and returns its event. `rawBody` is the exact body received (a string or its
 * bytes): never a re-serialized object, whose bytes would differ. Throws WebhookVerificationError.
 */
export async function verifyWebhook<D = Record<string, unknown>>(
  rawBody: string | Uint8Array,
  headers: IncomingHeaders,
  secret: string,
  options: VerifyOptions = {},
): Promise<WebhookEvent<D>> {
  if (!secret) throw new WebhookVerificationError('Informe o segredo do webhook (whsec_…).');
  const body = typeof rawBody === 'string' ? encoder.encode(rawBody) : rawBody;
  const get = headerReader(headers);
  const standard = get('webhook-signature');
  const service = get('x-service-signature');
  if (!standard && !service) throw new WebhookVerificationError('Entrega sem assinatura (webhook-signature ou X-Service-Signature).');
  if (standard) await checkStandard(body, get, standard, secret, options);
  if (service) await checkService(body, service, secret);
  let event: WebhookEvent<D>;
  try {
    event = JSON.parse(new TextDecoder().decode(body)) as WebhookEvent<D>;
  } catch {
    throw new WebhookVerificationError('O corpo assinado não é JSON.');
  }
  if (typeof event?.id !== 'string' || typeof event.event !== 'string') throw new WebhookVerificationError('O corpo não tem id e event.');
  return event;
}

async function checkStandard(body: Uint8Array, get: (name: string) => string | null, header: string, secret: string, options: VerifyOptions): Promise<void> {
  const id = get('webhook-id');
  const timestamp = get('webhook-timestamp');
  if (!id || !timestamp) throw new WebhookVerificationError('webhook-signature sem webhook-id ou webhook-timestamp.');
  const seconds = Number(timestamp);
  const now = (options.now ?? Date.now)() / 1000;
  if (!Number.isInteger(seconds) || Math.abs(now - seconds) > (options.toleranceSeconds ?? 300)) {
    throw new WebhookVerificationError('webhook-timestamp fora da tolerância: entrega antiga ou relógio desajustado.');
  }
  const key = base64Decode(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret);
  const expected = await hmac(key, concat(encoder.encode(`${id}.${timestamp}.`), body));
  // The header may list several signatures (a secret being rotated): one match is enough.
  const candidates = header
    .split(' ')
    .filter((s) => s.startsWith('v1,'))
    .map((s) => safeBase64Decode(s.slice(3)));
  if (!candidates.some((c) => c !== null && constantTimeEqual(c, expected))) throw new WebhookVerificationError('webhook-signature não confere.');
}

async function checkService(body: Uint8Array, header: string, secret: string): Promise<void> {
  const hex = header.startsWith('sha256=') ? header.slice('sha256='.length) : header;
  const given = hexDecode(hex.toLowerCase());
  const expected = await hmac(encoder.encode(secret), body);
  if (!given || !constantTimeEqual(given, expected)) throw new WebhookVerificationError('X-Service-Signature não confere.');
}

function headerReader(headers: IncomingHeaders): (name: string) => string | null {
  if (typeof (headers as Headers).get === 'function') return (name) => (headers as Headers).get(name);
  const lower = new Map(Object.entries(headers as Record<string, string | string[] | undefined>).map(([k, v]) => [k.toLowerCase(), v]));
  return (name) => {
    const v = lower.get(name);
    return Array.isArray(v) ? (v[0] ?? null) : (v ?? null);
  };
}

async function hmac(key: Uint8Array, message: Uint8Array): Promise<Uint8Array> {
  const k = await crypto.subtle.importKey('raw', key as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await crypto.subtle.sign('HMAC', k, message as BufferSource));
}

/** Equal bytes, in a time that depends only on the length (public: 32 bytes for SHA-256). */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

function base64Decode(text: string): Uint8Array {
  const decoded = safeBase64Decode(text);
  if (!decoded) throw new WebhookVerificationError('Segredo inválido: esperado whsec_ seguido de base64.');
  return decoded;
}

function safeBase64Decode(text: string): Uint8Array | null {
  try {
    return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

function hexDecode(hex: string): Uint8Array | null {
  if (!/^(?:[0-9a-f]{2})+$/.test(hex)) return null;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}
