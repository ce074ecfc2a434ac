/**
 * Reads by key, batched per turn of the event loop: the keys asked for in one tick are read by ONE
 * query (`fetch`), each distinct key once, and every caller gets its key's row. For PostgreSQL, where a
 * read is a round trip whose socket writes cost more client CPU than the read itself (a hot cover read
 * a case's stamp once per request: bench/servers/floor-pg.ts and docs/benchmarks.md); on SQLite a read
 * is a synchronous call and needs none of this.
 *
 * A read that waits for the end of its tick still starts after the request that asked for it arrived,
 * so it sees everything committed before that request: the same guarantee as a read of its own.
 */
export class TickLoader<K, V> {
  readonly #fetch: (keys: K[]) => Promise<Map<K, V>>;
  #waiting = new Map<K, Array<{ resolve: (v: V | undefined) => void; reject: (err: unknown) => void }>>();

  /** `fetch` returns the rows found, by key; a key it leaves out reads as undefined. */
  constructor(fetch: (keys: K[]) => Promise<Map<K, V>>) {
    this.#fetch = fetch;
  }

  load(key: K): Promise<V | undefined> {
    return new Promise((resolve, reject) => {
      if (this.#waiting.size === 0) setImmediate(() => this.#flush());
      const callers = this.#waiting.get(key);
      if (callers) callers.push({ resolve, reject });
      else this.#waiting.set(key, [{ resolve, reject }]);
    });
  }

  #flush(): void {
    const waiting = this.#waiting;
    this.#waiting = new Map();
    this.#fetch([...waiting.keys()]).then(
      (found) => { for (const [key, callers] of waiting) for (const c of callers) c.resolve(found.get(key)); },
      (err) => { for (const callers of waiting.values()) for (const c of callers) c.reject(err); },
    );
  }
}
