/**
 * Identifiers: `<prefix>_<time><random>`, sortable by creation time as text, never user-controlled
 * (no `.` or other separators a receiver could confuse).
 */
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * Random bytes drawn from a pooled buffer: one randomBytes() call serves many ids, which matters on
 * the hot path (a charged request makes three ids). The bytes are the same CSPRNG output either way.
 */
const POOL_SIZE = 8192;
let pool = Buffer.alloc(0);
let offset = 0;

function nextByte(): number {
  if (offset >= pool.length) {
    pool = randomBytes(POOL_SIZE);
    offset = 0;
  }
  return pool[offset++];
}

/** Random text of `length` characters from `alphabet`; rejection sampling keeps it uniform. */
export function randomToken(length: number, alphabet = ALPHABET): string {
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    const b = nextByte();
    if (b < limit) out += alphabet[b % alphabet.length];
  }
  return out;
}

let lastMs = 0;
let seq = 0;
/** `lastMs` in base 36, padded: made once per millisecond rather than once per id. */
let msPart = '';

/**
 * `<prefix>_` + 9 chars of milliseconds + 4 of a per-millisecond sequence + 8 random: ids made by one
 * process sort in creation order even within one millisecond (statements list rows by id).
 */
export function newId(prefix: string): string {
  const now = Date.now();
  if (now > lastMs) {
    lastMs = now;
    seq = 0;
    msPart = now.toString(36).padStart(9, '0');
  } else {
    seq++;
  }
  return `${prefix}_${msPart}${seq.toString(36).padStart(4, '0')}${randomToken(8)}`;
}
