/** A promise's outcome as a value: what was asked ahead may be dropped without an unhandled rejection. */
export type Settled<T = unknown> = { ok: true; value: T } | { ok: false; error: unknown };

/** A promise that never rejects: its outcome, answered or failed. */
export const settle = <T>(p: Promise<T>): Promise<Settled<T>> =>
  p.then(
    (value) => ({ ok: true, value }),
    (error: unknown) => ({ ok: false, error }),
  );

/** The value, or the error thrown. */
export const unwrap = <T>(s: Settled<T>): T => {
  if (!s.ok) throw s.error;
  return s.value;
};
