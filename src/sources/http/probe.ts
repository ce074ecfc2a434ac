/**
 * The source-health prober's one request (platform/observability/source-health.ts, issue 51): a GET of
 * a failing source's base URL under a timeout, through this stack so "no answer" is classified like
 * every connector's (classify.ts). Any answer a server gives on purpose, whatever its status, means it
 * is back (upstreams.ts hears it on undici's channels like any request); the failure is handed back
 * for the prober's log line.
 */
import { Agent, request } from 'undici';
import { underTimeout } from './attempt.ts';
import { unanswered, upstreamError } from './classify.ts';

/** One socket for probes: a probe is rare (one per failing source per period) and never in a hurry. */
let agent: Agent | undefined;

/** Null when `url` answered; else the classified failure (`timeout`, `unavailable`) with its message. */
export async function probeUpstream(name: string, url: string, timeoutMs: number): Promise<{ failure: string; message: string } | null> {
  agent ??= new Agent({ connections: 1, headersTimeout: timeoutMs + 1_000, bodyTimeout: timeoutMs + 1_000 });
  try {
    await underTimeout(timeoutMs, undefined, async (signal) => {
      const res = await request(url, { method: 'GET', dispatcher: agent, signal });
      await res.body.dump();
    });
    return null;
  } catch (err) {
    const failure = unanswered(err, { error: upstreamError(name), label: name, timeoutMs }, 'the probe');
    return { failure: failure.failure, message: failure.message };
  }
}
