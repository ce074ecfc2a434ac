/** Small async helpers: abortable waiting and a counting semaphore. */

/** `promise`, but rejecting with the signal's reason as soon as `signal` aborts. */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

/**
 * Limits requests in flight. Needed besides the per-minute budget: DataJud answers in 1–20 s
 * (datajud.md §3), so a burst of budget-approved requests would otherwise sit in the socket pool
 * and spend their timeout there.
 */
export class Semaphore {
  #free: number;
  readonly #waiters: Array<() => void> = [];

  constructor(size: number) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError('Semaphore: size must be a positive integer');
    this.#free = size;
  }

  acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.#free > 0) {
      this.#free--;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const i = this.#waiters.indexOf(wake);
        if (i >= 0) this.#waiters.splice(i, 1);
        reject(signal?.reason);
      };
      const wake = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiters.push(wake);
    });
  }

  release(): void {
    const next = this.#waiters.shift();
    if (next) next();
    else this.#free++;
  }
}
