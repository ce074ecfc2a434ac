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

let lastMs = 0;
let seq = 0;

/**
 * `<prefix>_` + 9 chars of milliseconds + 4 of a per-millisecond sequence + 8 random: ids made by one
 * process sort in creation order even within one millisecond (statements list rows by id).
 */
export function newId(prefix: string): string {
  const now = Date.now();
  if (now > lastMs) {
    lastMs = now;
    seq = 0;
  } else {
    seq++;
  }
  return `${prefix}_${lastMs.toString(36).padStart(9, '0')}${seq.toString(36).padStart(4, '0')}${randomToken(8)}`;
}
