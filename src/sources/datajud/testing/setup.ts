/** Test helper: a connector aimed at a fake server, with sleeps that do not really wait. Test-only code. */
import { recordingSleep } from '../../testing/sleeps.ts';
import { DataJudConnector, type DataJudConnectorOptions } from '../connector.ts';

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
