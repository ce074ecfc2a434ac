/**
 * One upstream request under its own timeout, headers and body included, and the caller's signal:
 * what every HTTP connector's attempt shares. A timeout surfaces as an Error named `TimeoutError`
 * (the caller's abort keeps its own reason), so each connector maps it to its `timeout` failure.
 */
import { Agent, request } from 'undici';
import { readBody, type BodyReading } from './body.ts';
import { callerWaiting } from '../../platform/request-path.ts';
import { requestPathRefusal } from '../../platform/observability/upstreams.ts';

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

/** An answer's headers as undici gives them (an array for a repeated one). */
export type ResponseHeaders = Record<string, string | string[] | undefined>;

/** An answer read in full. */
export interface UpstreamResponse {
  status: number;
  headers: ResponseHeaders;
  body: Buffer;
}

/**
 * The sockets of one upstream. undici's own timeouts are a backstop a second past the attempt's:
 * underTimeout covers headers and body.
 */
export function upstreamAgent(timeoutMs: number, connections: number, ca?: readonly string[]): Agent {
  const backstop = timeoutMs + 1_000;
  return new Agent({ connections, headersTimeout: backstop, bodyTimeout: backstop, ...(ca ? { connect: { ca: [...ca] } } : {}) });
}

/**
 * One request, its body read in full within the source's limits, under this attempt's timeout. Asked
 * as an auxiliary source while a caller waits, a failing source is not asked (issue 51; source-health.ts): the refusal is
 * thrown before any socket, as an unreachable host's would be, and the connector maps it so.
 */
export function sendOnce(
  agent: Agent,
  url: string,
  o: {
    method: 'GET' | 'POST';
    timeoutMs: number;
    reading: BodyReading;
    signal?: AbortSignal;
    body?: string;
    headers: Record<string, string>;
    /** Sees the headers before the body is read (DJEN's `x-ratelimit-remaining`, pause.ts). */
    onHeaders?: (headers: ResponseHeaders) => void;
  },
): Promise<UpstreamResponse> {
  if (!callerWaiting()?.auxiliary) return send(agent, url, o);
  return requestPathRefusal(url).then((refused) => {
    if (refused) throw refused;
    return send(agent, url, o);
  });
}

function send(agent: Agent, url: string, o: Parameters<typeof sendOnce>[2]): Promise<UpstreamResponse> {
  return underTimeout(o.timeoutMs, o.signal, async (signal) => {
    const res = await request(url, { method: o.method, dispatcher: agent, signal, body: o.body, headers: o.headers });
    o.onHeaders?.(res.headers);
    return { status: res.statusCode, headers: res.headers, body: await readBody(res, o.reading, signal) };
  });
}

/** The first value of a response header. */
export function header(raw: { headers: ResponseHeaders }, name: string): string | undefined {
  const v = raw.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** What a request that got no answer says: undici's code, then the message (`ECONNREFUSED connect ECONNREFUSED …`). */
export function networkErrorText(err: unknown): string {
  const code = typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : '';
  const message = err instanceof Error ? err.message : String(err);
  return `${code ? `${code} ` : ''}${message}`.trim();
}

/** A path without its query: queries may carry names or a CPF (a party searched), and messages reach logs. */
export function pathOnly(path: string): string {
  return path.split('?')[0];
}
