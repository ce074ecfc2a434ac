/** Test helpers: a connector aimed at a fake server, sleeps that do not really wait. Test-only code. */
import type { ManualClock } from '../../../platform/clock.ts';
import type { Sleep } from '../budget.ts';
import { DataJudConnector, type DataJudConnectorOptions } from '../connector.ts';

/** A sleep that returns at once and remembers every delay it was asked for. */
export function recordingSleep(): Sleep & { delays: number[] } {
  const delays: number[] = [];
  const sleep = async (ms: number, signal?: AbortSignal) => {
    signal?.throwIfAborted();
    delays.push(ms);
  };
  return Object.assign(sleep, { delays });
}

/** A sleep that moves a manual clock forward instead of waiting. */
export function clockSleep(clock: ManualClock): Sleep {
  return async (ms, signal) => {
    signal?.throwIfAborted();
    clock.advance(ms);
  };
}

export function connector(baseUrl: string, overrides: Partial<DataJudConnectorOptions> = {}): DataJudConnector {
  return new DataJudConnector({
    baseUrl,
    apiKey: 'test-key',
    timeoutMs: 5_000,
    requestsPerMinute: 100_000,
    batchSize: 500,
    sleep: recordingSleep(),
    random: () => 0.5,
    retry: { baseMs: 1, capMs: 4 },
    ...overrides,
  });
}
