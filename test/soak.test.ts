/**
 * The soak harness end to end (issue 29, item 3), short: `npm run soak`'s own run (bench/soak.ts) for
 * 30 s on the suite's engine (SQLite, or PostgreSQL with DATABASE_URL), with a fault every few seconds.
 * Nothing may fail: no 5xx but the injected faults' documented 503/504, no error in the server's log,
 * every webhook delivered and signed, every balance = credits − debits, a clean stop. No timing or
 * memory thresholds here (the machine is shared): the long run's numbers are in docs/benchmarks.md.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { runSoak } from '../bench/soak.ts';
import { scanLogLine } from './log-scan.ts';

test('a short soak: the mix runs against a real tramita serve, is sampled from outside, and nothing failed', { timeout: 300_000 }, async (t) => {
  const report = await runSoak({
    seconds: 30,
    sampleSeconds: 5,
    rate: 10,
    cases: 1000,
    faultEverySeconds: 6,
    faultSeconds: 3,
    // The server's log lines (not the banner, which prints the sandbox key once by design) go through the suite's scan.
    onServerLine: (line) => {
      if (line.startsWith('{')) scanLogLine(line);
    },
  });
  t.after(() => fs.rmSync(report.svgPath, { force: true }));
  t.diagnostic(
    `${report.engine}: ${report.requests} requests, ${report.faults} faults, ${report.deliveries} deliveries; answers ${JSON.stringify(report.counts)}`,
  );
  for (const c of report.checks) assert.ok(c.ok, `${c.name}: ${c.detail}`);
  assert.ok(report.samples.length >= 6, `sampled every 5 s: ${report.samples.length} samples`);
  for (const s of report.samples) {
    for (const v of [s.rssMb, s.heapMb, s.dbMb]) assert.ok(Number.isFinite(v) && v > 0, JSON.stringify(s));
    assert.ok(Number.isFinite(s.lagP99Ms) && Number.isFinite(s.walMb), JSON.stringify(s));
  }
  assert.ok(Number.isFinite(report.rssSlopeMbPerHour));
  assert.ok(report.rowsAfter.ledger! > report.rowsBefore.ledger!, 'charged answers were written to the ledger');
  assert.match(fs.readFileSync(report.svgPath, 'utf8'), /^<svg [^>]*>[\s\S]*<polyline/);
});
