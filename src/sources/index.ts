/**
 * Connects the upstreams this process talks to, from the configuration: the real DataJud (and a
 * case-details provider when TRAMITA_PORTAL_URL is set, and DJEN), or, when the entry point runs the
 * sandbox simulator (cli/upstreams.ts), its loopback URLs, which the same connectors talk to
 * (DESIGN.md §5). One DataJud budget per process, shared by every caller.
 */
import type { Config } from '../config.ts';
import type { Sources } from '../platform/ports/sources.ts';
import { DataJudConnector, dataJudOptionsFromConfig } from './datajud/index.ts';
import { DjenConnector, djenOptionsFromConfig, PUBLIC_DJEN_URL } from './djen/index.ts';
import { PortalConnector } from './portal/connector.ts';

export const PUBLIC_DATAJUD_URL = 'https://api-publica.datajud.cnj.jus.br';

/** Where the sandbox simulator listens, when this process runs it. */
export interface SimulatedUpstreams {
  datajudUrl: string;
  portalUrl: string;
  djenUrl: string;
}

export function connectSources(config: Config, simulated: SimulatedUpstreams | null = null): Sources {
  const datajudUrl = simulated?.datajudUrl ?? config.datajudUrl ?? PUBLIC_DATAJUD_URL;
  const portalUrl = simulated?.portalUrl ?? config.portalUrl;
  // The budget runs on real time even under a test clock: a frozen clock would never refill it.
  const datajud = new DataJudConnector(dataJudOptionsFromConfig(config, datajudUrl, simulated !== null));
  // An explicit DJEN_URL wins even beside the sandbox (e.g. a Brazilian relay while DataJud stays simulated).
  const djenUrl = config.djenUrl ?? simulated?.djenUrl ?? PUBLIC_DJEN_URL;
  const publications = new DjenConnector(djenOptionsFromConfig(config, djenUrl, !config.djenUrl && simulated !== null));
  const details = portalUrl ? new PortalConnector({ baseUrl: portalUrl, timeoutMs: config.datajudTimeoutMs, sandbox: simulated !== null }) : null;
  return {
    cases: datajud, details, publications,
    async close() {
      await datajud.close();
      await publications.close();
      await details?.close();
    },
  };
}
