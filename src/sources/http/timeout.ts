/**
 * The one classification of a request that ran out of time, for every connector: the per-attempt
 * timer of attempt.ts (`underTimeout`: an Error named `TimeoutError`) or undici's own timers, kept as a
 * backstop behind it (connect, headers, body). Each is the connector's `timeout` failure (504), never an
 * outage (`unavailable`, 503).
 */
const UNDICI_TIMEOUTS: ReadonlySet<string> = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

export function isUpstreamTimeout(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { name, code } = err as { name?: unknown; code?: unknown };
  return name === 'TimeoutError' || (typeof code === 'string' && UNDICI_TIMEOUTS.has(code));
}
