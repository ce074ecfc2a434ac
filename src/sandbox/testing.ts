/** Helpers for tests that run against the sandbox over real HTTP on 127.0.0.1. */
import { ManualClock } from '../platform/clock.ts';
import { startSandbox, type Sandbox, type SandboxOptions } from './server.ts';

export const TEST_DATAJUD_KEY = 'sandbox-test-key';
/** The generation anchor of test sandboxes: their ManualClock starts here. */
export const TEST_ANCHOR = '2026-03-10T00:00:00.000Z';

export interface TestSandbox extends Sandbox {
  clock: ManualClock;
}

export async function startTestSandbox(options: Partial<SandboxOptions> = {}): Promise<TestSandbox> {
  const clock = new ManualClock(TEST_ANCHOR);
  const sandbox = await startSandbox({ cases: 500, seed: 42, datajudApiKey: TEST_DATAJUD_KEY, clock, ...options });
  return { ...sandbox, clock };
}

export interface EsAnswer {
  status: number;
  body: any;
}

/** POST <datajudUrl>/<alias>/_search with the test key (or the given headers). */
export async function esSearch(sandbox: Sandbox, alias: string, query: unknown, headers: Record<string, string> = {}): Promise<EsAnswer> {
  const res = await fetch(`${sandbox.datajudUrl}/${alias}/_search`, {
    method: 'POST',
    headers: { authorization: `APIKey ${TEST_DATAJUD_KEY}`, 'content-type': 'application/json', ...headers },
    body: typeof query === 'string' ? query : JSON.stringify(query),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON (HTML 502, truncated body): tests look at the text
  }
  return { status: res.status, body };
}
