/**
 * The cold batch of issue 3: 10,000 distinct case numbers looked up through the DataJud connector
 * against the sandbox simulator (20,000 cases, loopback), all at once as concurrent single lookups, the
 * way a burst of API calls or a monitor cycle arrives. Reports upstream requests per 1,000 cases
 * (target ≤ 10): the connector coalesces single lookups per alias into `terms` batches.
 * The DataJud budget is raised for this run (the simulator has no terms of use); with the default of
 * 100 requests per minute the same batch takes about one minute and the same number of requests.
 */
import { loadConfig } from '../src/config.ts';
import { startSandbox } from '../src/sandbox/server.ts';
import { DataJudConnector, dataJudOptionsFromConfig } from '../src/sources/datajud/index.ts';

export const COLD_BATCH_TARGET_PER_1000 = 10;

export interface ColdBatchResult {
  cases: number;
  found: number;
  upstreamRequests: number;
  requestsPer1000: number;
  seconds: number;
}

export async function coldBatch(lookups = 10_000): Promise<ColdBatchResult> {
  const config = loadConfig({ DATAJUD_REQUESTS_PER_MINUTE: '100000' });
  const sandbox = await startSandbox({ cases: 20_000, seed: 1, datajudApiKey: config.datajudApiKey });
  const connector = new DataJudConnector(dataJudOptionsFromConfig(config, sandbox.datajudUrl, true));
  try {
    const now = Date.now();
    const numbers = sandbox.dataset.cases
      .filter((c) => c.filedAt <= now)
      .slice(0, lookups)
      .map((c) => c.numero);
    sandbox.resetStats();
    const started = performance.now();
    const records = await Promise.all(numbers.map((n) => connector.fetchCase(n)));
    const seconds = (performance.now() - started) / 1000;
    const upstreamRequests = sandbox.stats().datajud.requests;
    return {
      cases: numbers.length,
      found: records.filter(Boolean).length,
      upstreamRequests,
      requestsPer1000: (upstreamRequests * 1000) / numbers.length,
      seconds,
    };
  } finally {
    await connector.close();
    await sandbox.close();
  }
}
