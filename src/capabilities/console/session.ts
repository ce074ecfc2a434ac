/**
 * Who is signed in, and that a change comes from the console's own pages:
 * - the session cookie (`tramita_sessao`): HttpOnly, SameSite=Lax, Path=/console, Secure when the
 *   request came over HTTPS (directly or through a trusted proxy); its token is looked up by hash;
 * - CSRF: every form carries the session's random token (`_csrf`), compared in constant time, and a
 *   browser's Origin header, when sent, must be this server; the sign-in and invitation forms, before
 *   any session, use a random token in a short-lived cookie of their own (double submit).
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Account } from '../../platform/accounts/store.ts';
import { newToken, SESSION_MAX_MS, type ConsoleStore, type Origin, type SessionUser } from './store.ts';

export const SESSION_COOKIE = 'tramita_sessao';
const PRE_CSRF_COOKIE = 'tramita_csrf';

export interface SignedIn extends SessionUser {
  account: Account;
  /** The cookie's token (to end this session). */
  token: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    console?: SignedIn;
  }
}

/**
 * One of the console's own cookies, or undefined. Other applications on the same host may set cookies
 * we cannot decode (`other_app=100%`): only ours are read, and one of ours that does not decode counts
 * as absent (never a 500).
 */
export function cookie(req: FastifyRequest, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i <= 0 || part.slice(0, i).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(i + 1).trim());
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function setCookie(req: FastifyRequest, reply: FastifyReply, name: string, value: string, maxAgeSeconds: number): void {
  const secure = req.protocol === 'https' ? '; Secure' : '';
  const previous = reply.getHeader('set-cookie');
  const list = Array.isArray(previous) ? previous : previous ? [String(previous)] : [];
  reply.header('set-cookie', [...list, `${name}=${encodeURIComponent(value)}; Path=/console; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure}`]);
}

export function startSession(req: FastifyRequest, reply: FastifyReply, token: string): void {
  setCookie(req, reply, SESSION_COOKIE, token, SESSION_MAX_MS / 1000);
}

export function endSession(req: FastifyRequest, reply: FastifyReply): void {
  setCookie(req, reply, SESSION_COOKIE, '', 0);
}

export function origin(req: FastifyRequest): Origin {
  const ua = req.headers['user-agent'];
  return { ip: req.ip ?? null, userAgent: typeof ua === 'string' ? ua : null };
}

/** The signed-in person of this request, or undefined (no cookie, unknown, expired or inactive account). */
export async function loadSession(
  req: FastifyRequest,
  store: ConsoleStore,
  account: (id: string) => Promise<Account | undefined>,
): Promise<SignedIn | undefined> {
  const token = cookie(req, SESSION_COOKIE);
  if (!token) return undefined;
  const found = await store.session(token);
  if (!found) return undefined;
  const acc = await account(found.user.account_id);
  if (acc?.status !== 'active') return undefined;
  return { ...found, account: acc, token };
}

function sameToken(given: unknown, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * A browser sends Origin on a form POST; when it names a site, it must be this server. Absent (an old
 * client) or `null` (a privacy setting or referrer policy hides it) pass here: the CSRF token, which
 * another site cannot read, is still required.
 */
export function sameOrigin(req: FastifyRequest): boolean {
  const sent = req.headers.origin;
  if (sent === undefined || sent === 'null') return true;
  if (typeof sent !== 'string') return false;
  try {
    // Through URL both ways, so a default port written out (`localhost:80`) or left out compare equal.
    const origin = new URL(sent);
    return origin.host === new URL(`${origin.protocol}//${req.headers.host}`).host;
  } catch {
    return false;
  }
}

/** Whether a signed-in form POST carries the session's token and comes from this origin. */
export function csrfOk(req: FastifyRequest, session: SignedIn): boolean {
  return sameOrigin(req) && sameToken((req.body as Record<string, unknown> | undefined)?._csrf, session.session.csrf_token);
}

/** A token for a form shown before any session (sign-in, invitation), set in its own cookie. */
export function preSessionCsrf(req: FastifyRequest, reply: FastifyReply): string {
  const existing = cookie(req, PRE_CSRF_COOKIE);
  if (existing && existing.length >= 32) return existing;
  const token = newToken();
  setCookie(req, reply, PRE_CSRF_COOKIE, token, 3600);
  return token;
}

export function preSessionCsrfOk(req: FastifyRequest): boolean {
  const token = cookie(req, PRE_CSRF_COOKIE);
  return sameOrigin(req) && token !== undefined && sameToken((req.body as Record<string, unknown> | undefined)?._csrf, token);
}
