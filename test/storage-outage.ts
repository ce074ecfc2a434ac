/**
 * What the storage-outage drills share (issue 29, item 1): callers that keep making charged lookups
 * and record how each one ended, and the comparison of what they were told with what the ledger holds.
 */
import assert from 'node:assert/strict';

export interface Outcome {
  status: number | 'network';
  code?: string;
  ms: number;
  searchLogId?: string;
  at: number;
}

/** `callers` loops of GET `path` until `stop()`; each request gives up after `patienceMs` (a client's timeout). */
export function chargedLoad(base: string, key: string, path: string, callers: number, patienceMs = 30_000) {
  const outcomes: Outcome[] = [];
  let stopped = false;
  const loop = async () => {
    while (!stopped) {
      const began = performance.now();
      try {
        const res = await fetch(`${base}${path}`, { headers: { 'x-api-key': key }, signal: AbortSignal.timeout(patienceMs) });
        const body = (await res.json()) as { meta?: { searchLogId?: string }; error?: { code: string } };
        outcomes.push({ status: res.status, code: body.error?.code, searchLogId: body.meta?.searchLogId, ms: performance.now() - began, at: Date.now() });
        // A refused request waits a little, as a client honouring Retry-After would (not the whole of it: the drill is short).
        if (res.status >= 500) await new Promise((r) => setTimeout(r, 50));
      } catch {
        outcomes.push({ status: 'network', ms: performance.now() - began, at: Date.now() });
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  };
  const running = Array.from({ length: callers }, loop);
  return {
    outcomes,
    async stop(): Promise<Outcome[]> {
      stopped = true;
      await Promise.all(running);
      return outcomes;
    },
  };
}

/** `{ "200": n, "503 STORAGE_UNAVAILABLE": m, … }` */
export function statusCounts(outcomes: Outcome[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const o of outcomes) {
    const k = o.code ? `${o.status} ${o.code}` : String(o.status);
    counts[k] = (counts[k] ?? 0) + 1;
  }
  return counts;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]! : 0;
}

/** Every charged answer a caller received has its debit, and every debit was an answer someone received (a store whose only debits are the load's). */
export function assertLedgerMatchesAnswers(outcomes: Outcome[], ledger: Record<string, unknown>[]): void {
  const answered = outcomes.filter((o) => o.status === 200).map((o) => o.searchLogId);
  assert.ok(answered.every(Boolean), 'every 200 names its charge');
  const debits = ledger.filter((r) => r.kind === 'debit').map((r) => String(r.search_log_id));
  assert.equal(new Set(answered).size, answered.length, 'no charge was answered twice');
  assert.deepEqual([...debits].sort(), [...(answered as string[])].sort(), 'the ledger holds exactly the charged answers the callers received');
}
