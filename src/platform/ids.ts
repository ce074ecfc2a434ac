/**
 * Identifiers: `<prefix>_<time><random>`, sortable by creation time as text, never user-controlled
 * (no `.` or other separators a receiver could confuse).
 */
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** Random base-36 text of `length` characters (rejection sampling keeps it uniform). */
export function randomToken(length: number, alphabet = ALPHABET): string {
  const out: string[] = [];
  const limit = 256 - (256 % alphabet.length);
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < limit && out.length < length) out.push(alphabet[b % alphabet.length]);
    }
  }
  return out.join('');
}

export function newId(prefix: string, now = Date.now()): string {
  return `${prefix}_${now.toString(36).padStart(9, '0')}${randomToken(12)}`;
}
