/**
 * A bounded map that drops its least recently used entry first (the caches of keys and cases).
 *
 * A Map iterates in insertion order, so a use re-inserts the entry at the end, except when it is
 * already there: a hot key, read on every request, then costs no delete and set, and no rehash of
 * the table those leave behind. In the hot cover's profile the two caches' lookups went from ~0.3 to
 * ~0.15 µs each, and each cover allocated ~0.5 KB less (issue 34, docs/benchmarks.md).
 */
export class LruMap<K, V> {
  readonly #map = new Map<K, V>();
  readonly #max: number;
  /** The key last inserted or re-inserted: the last in iteration order while it is present. */
  #newest: K | undefined;

  constructor(max: number) {
    this.#max = max;
  }

  get size(): number {
    return this.#map.size;
  }

  /** The entry, now the most recently used. */
  get(key: K): V | undefined {
    const value = this.#map.get(key);
    if (value === undefined || key === this.#newest) return value;
    this.#map.delete(key);
    this.#map.set(key, value);
    this.#newest = key;
    return value;
  }

  /** Stores the entry as the most recently used; past the bound, the least recently used goes. */
  set(key: K, value: V): void {
    this.#map.delete(key);
    if (this.#map.size >= this.#max) this.#map.delete(this.#map.keys().next().value!);
    this.#map.set(key, value);
    this.#newest = key;
  }

  delete(key: K): void {
    this.#map.delete(key);
  }

  /** Least recently used first; deleting while iterating is fine. */
  [Symbol.iterator](): IterableIterator<[K, V]> {
    return this.#map.entries();
  }
}
