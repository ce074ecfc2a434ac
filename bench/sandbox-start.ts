/**
 * The sandbox's start-up cost (issue 5's budget, moved here from a unit test: timing belongs in the
 * bench): the DJEN simulator's communications for the default 20,000 cases are built when it starts,
 * so they add to every `npm start`. Reports the build time and the table's size against their budgets
 * (< 1 s, < 60 MB), and the data set's own generation time as the baseline they add to.
 */
import { ManualClock } from '../src/platform/clock.ts';
import { generateDataset } from '../src/sandbox/data/dataset.ts';
import { DjenStore } from '../src/sandbox/djen/store.ts';

export const SANDBOX_DJEN_BUDGET = { ms: 1000, mb: 60 };

export interface SandboxStartResult {
  cases: number;
  datasetMs: number;
  communications: number;
  djenMs: number;
  djenMb: number;
}

export function sandboxStart(cases = 20_000): SandboxStartResult {
  const clock = new ManualClock(new Date('2026-11-20T12:00:00Z'));
  let started = performance.now();
  const dataset = generateDataset({ cases, seed: 1, clock });
  const datasetMs = performance.now() - started;
  started = performance.now();
  const store = new DjenStore(dataset);
  const djenMs = performance.now() - started;
  return { cases, datasetMs, communications: store.table.count, djenMs, djenMb: store.table.bytes() / 1e6 };
}
