/**
 * Opens the upstreams this process talks to, from the configuration: the real DataJud (and a
 * case-details provider when TRAMITA_PORTAL_URL is set, and DJEN), or the sandbox simulator on loopback, which
 * the same connectors talk to (DESIGN.md §5). One DataJud budget per process, shared by every caller.
 */
import type { Config } from '../config.ts';
import type { Clock } from '../platform/clock.ts';
import { startSandbox, type Sandbox } from '../sandbox/server.ts';
import { DataJudConnector, dataJudOptionsFromConfig } from './datajud/index.ts';
import { DjenConnector, djenOptionsFromConfig, PUBLIC_DJEN_URL } from './djen/index.ts';
import { PortalConnector } from './portal/connector.ts';
import type { Sources } from './ports.ts';

export const PUBLIC_DATAJUD_URL = 'https://api-publica.datajud.cnj.jus.br';

export interface OpenedSources extends Sources {
  /** Set when this process runs the simulator. */
  sandbox: Sandbox | null;
}

export function wantsSandbox(config: Pick<Config, 'sandbox' | 'datajudUrl'>): boolean {
  return config.sandbox === 'on' || (config.sandbox === 'auto' && !config.datajudUrl);
}

export async function openSources(config: Config, opts: { clock?: Clock; onProgress?: (done: number, total: number) => void } = {}): Promise<OpenedSources> {
  const sandbox = wantsSandbox(config)
    ? await startSandbox({ cases: config.sandboxCases, seed: config.sandboxSeed, port: config.sandboxPort, latencyMs: config.sandboxLatencyMs, datajudApiKey: config.datajudApiKey, clock: opts.clock, onProgress: opts.onProgress })
    : null;
  const datajudUrl = sandbox?.datajudUrl ?? config.datajudUrl ?? PUBLIC_DATAJUD_URL;
  const portalUrl = sandbox?.portalUrl ?? config.portalUrl;
  // The budget runs on real time even under a test clock: a frozen clock would never refill it.
  const datajud = new DataJudConnector(dataJudOptionsFromConfig(config, datajudUrl, sandbox !== null));
  // An explicit DJEN_URL wins even beside the sandbox (e.g. a Brazilian relay while DataJud stays simulated).
  const djenUrl = config.djenUrl ?? sandbox?.djenUrl ?? PUBLIC_DJEN_URL;
  const publications = new DjenConnector(djenOptionsFromConfig(config, djenUrl, !config.djenUrl && sandbox !== null));
  const details = portalUrl ? new PortalConnector({ baseUrl: portalUrl, timeoutMs: config.datajudTimeoutMs, sandbox: sandbox !== null }) : null;
  return {
    cases: datajud, details, publications, sandbox,
    async close() {
      await datajud.close();
      await publications.close();
      await details?.close();
      await sandbox?.close();
    },
  };
}
