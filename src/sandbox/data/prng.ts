/**
 * Seeded randomness for the sandbox data set. sfc32 (Chris Doty-Humphrey's Small Fast Counter) is
 * tiny, fast and good enough for fake data; keys are hashed (cyrb53-style mixing) into its 128-bit
 * state, so `new Random(seed, 'case', 17)` always yields the same stream, independent of any other.
 */

/** 32-bit hash of a string (FNV-1a with a murmur finalizer). */
export function hash32(text: string, salt = 0): number {
  let h = (0x811c9dc5 ^ salt) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function sfc32(a: number, b: number, c: number, d: number): () => number {
  return () => {
    a |= 0;
    b |= 0;
    c |= 0;
    d |= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
}

export class Random {
  readonly #next: () => number;

  constructor(...keys: (string | number)[]) {
    const key = keys.join('\u0000');
    this.#next = sfc32(hash32(key, 1), hash32(key, 2), hash32(key, 3), hash32(key, 4));
    for (let i = 0; i < 12; i++) this.#next(); // warm up: the first outputs of sfc32 correlate with the seed
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.#next();
  }

  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.#next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.#next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.#next() * items.length)];
  }

  /** One of `items`, each with probability proportional to its weight. */
  weighted<T>(items: readonly { weight: number; value: T }[]): T {
    let total = 0;
    for (const i of items) total += i.weight;
    let r = this.#next() * total;
    for (const i of items) {
      r -= i.weight;
      if (r < 0) return i.value;
    }
    return items[items.length - 1].value;
  }

  /** Index in [0, n) biased towards 0: `power` 1 is uniform, larger values favour the first items more. */
  skewedIndex(n: number, power: number): number {
    return Math.min(n - 1, Math.floor(n * this.#next() ** power));
  }

  /** `count` decimal digits as a string (leading zeros allowed). */
  digits(count: number): string {
    let s = '';
    for (let i = 0; i < count; i++) s += String(Math.floor(this.#next() * 10));
    return s;
  }

  /** Triangular distribution on [min, max] with the given mode, rounded to an integer. */
  triangular(min: number, mode: number, max: number): number {
    const u = this.#next();
    const f = (mode - min) / (max - min);
    const x = u < f ? min + Math.sqrt(u * (max - min) * (mode - min)) : max - Math.sqrt((1 - u) * (max - min) * (max - mode));
    return Math.round(x);
  }

  /** Fisher–Yates shuffle in place. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(this.#next() * (i + 1));
      [items[i], items[j]] = [items[j], items[i]];
    }
    return items;
  }
}
