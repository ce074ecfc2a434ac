/**
 * API keys: `trm_<keyId>_<secret>`. Only SHA-256(key) is stored, with the `trm_<keyId>` prefix shown
 * to identify it. A fast hash is right here (unlike passwords): the key is 190 random bits, and an
 * indexed lookup by hash makes an unknown key cost the same as a known one.
 */
import { hash } from 'node:crypto';
import { randomToken } from '../ids.ts';

const KEY_PATTERN = /^trm_([0-9a-z]{10})_([0-9A-Za-z]{32})$/;
const SECRET_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export interface NewKey {
  id: string;
  prefix: string;
  plaintext: string;
  hash: string;
}

export function generateKey(): NewKey {
  const keyId = randomToken(10);
  const plaintext = `trm_${keyId}_${randomToken(32, SECRET_ALPHABET)}`;
  return { id: `key_${keyId}`, prefix: `trm_${keyId}`, plaintext, hash: hashKey(plaintext) };
}

export function hashKey(plaintext: string): string {
  // One-shot: a third of createHash().update().digest()'s cost, and it runs on every authenticated request.
  return hash('sha256', plaintext, 'hex');
}

/** Cheap shape check before any lookup: malformed keys never reach the database. */
export function looksLikeKey(value: string): boolean {
  return KEY_PATTERN.test(value);
}
