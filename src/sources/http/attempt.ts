/**
 * One upstream request under its own timeout, headers and body included, and the caller's signal:
 * what every HTTP connector's attempt shares. A timeout surfaces as an Error named `TimeoutError`
 * (the caller's abort keeps its own reason), so each connector maps it to its `timeout` failure.
 */
export async function underTimeout<T>(timeoutMs: number, signal: AbortSignal | undefined, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  try {
    return await run(combined);
  } catch (err) {
    if (timeout.aborted && !signal?.aborted) {
      const e = new Error(`timeout after ${timeoutMs} ms`);
      e.name = 'TimeoutError';
      throw e;
    }
    throw err;
  }
}

/** The first value of a response header (undici gives an array for a repeated one). */
export function header(raw: { headers: Record<string, string | string[] | undefined> }, name: string): string | undefined {
  const v = raw.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** A path without its query: queries may carry names or a CPF (a party searched), and messages reach logs. */
export function pathOnly(path: string): string {
  return path.split('?')[0];
}
