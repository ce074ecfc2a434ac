/**
 * A stand-in for the challenge detector in tests written before the PJe branch's detector
 * (challenge.ts) is merged: it knows only the sandbox's two challenge pages (a reCAPTCHA bounce and a
 * Cloudflare "Just a moment..." page). Production code always uses challenge.ts.
 */
import type { Challenge } from './challenge.ts';

export function testDetector(body: string, status: number): Challenge | null {
  if (/<title>Just a moment\.\.\.<\/title>/.test(body)) return { kind: 'anti_bot', reason: `Cloudflare challenge (HTTP ${status})` };
  if (/recaptcha\/api\.js\?render=/.test(body) && !/id="numeroProcesso"/.test(body)) return { kind: 'captcha', reason: 'reCAPTCHA gate (the search form came back)' };
  return null;
}
