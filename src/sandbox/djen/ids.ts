/**
 * Identifiers of simulated communications. `id` grows with the communication's time (a rank in
 * chronological order), with small gaps like the real ids. `hash` is 30 alphanumeric characters
 * (the certidão key) that embed the id, scrambled, so a hash resolves to its item without a map.
 */
import { hash32, Random } from '../data/prng.ts';

const ID_BASE = 600_000_000;
const ID_STEP = 4;

/** The id of the communication of chronological rank `rank`. */
export function idOfRank(rank: number): number {
  return ID_BASE + rank * ID_STEP + (hash32(String(rank)) % ID_STEP);
}

/** The rank an id was made from, or null when it is not one of ours. */
export function rankOfId(id: number): number | null {
  if (!Number.isSafeInteger(id) || id < ID_BASE) return null;
  const rank = Math.floor((id - ID_BASE) / ID_STEP);
  return idOfRank(rank) === id ? rank : null;
}

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const MIX = 0x2c1b3c6d; // odd, so multiplying by it is a bijection on 32-bit integers
const MIX_INVERSE = (() => {
  let inv = MIX;
  for (let i = 0; i < 5; i++) inv = Math.imul(inv, 2 - Math.imul(MIX, inv));
  return inv >>> 0;
})();
/** Where the 6 characters of the scrambled id sit among the 30. */
const SLOTS = [2, 7, 11, 17, 22, 27];

function base62(n: number, width: number): string {
  let s = '';
  for (let i = 0; i < width; i++, n = Math.floor(n / 62)) s = ALPHABET[n % 62] + s;
  return s;
}

export function hashOfId(seed: number, id: number): string {
  const rng = new Random(seed, 'djen-hash', id);
  const chars = Array.from({ length: 30 - SLOTS.length }, () => ALPHABET[rng.int(0, 61)]);
  const embedded = base62(Math.imul(id, MIX) >>> 0, SLOTS.length);
  for (const [i, slot] of SLOTS.entries()) chars.splice(slot, 0, embedded[i]);
  return chars.join('');
}

/** The id a hash embeds when the whole hash is genuine, else null. */
export function idOfHash(seed: number, hash: string): number | null {
  if (!/^[0-9A-Za-z]{30}$/.test(hash)) return null;
  let n = 0;
  for (const slot of SLOTS) n = n * 62 + ALPHABET.indexOf(hash[slot]);
  if (n > 0xffffffff) return null;
  const id = Math.imul(n, MIX_INVERSE) >>> 0;
  return hashOfId(seed, id) === hash ? id : null;
}
