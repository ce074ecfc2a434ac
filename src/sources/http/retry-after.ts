/**
 * The one reader of `Retry-After` (RFC 9110 §10.2.3) for every connector: delta-seconds or an
 * HTTP-date, as milliseconds from `nowMs` (the connector's clock). Servers send fractions too
 * (`1.5`, seen from API gateways): read as seconds, never handed to `Date.parse`, which takes `1.5`
 * for a date in 2001 and so a wait of 0. Undefined when absent or unreadable (the connector's own
 * backoff applies); a date already past is 0.
 */
export function retryAfterMs(header: string | readonly string[] | undefined, nowMs: number): number | undefined {
  const value = (typeof header === 'string' ? header : header?.[0])?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  // An HTTP-date names its weekday and month in letters; a bare number with a sign or an exponent is no date.
  if (!/[A-Za-z]/.test(value)) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}
