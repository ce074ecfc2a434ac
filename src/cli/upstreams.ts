/**
 * The upstreams of a process, as its entry point opens them: with no real DataJud configured
 * (TRAMITA_SANDBOX=auto) or TRAMITA_SANDBOX=on, the sandbox simulator is started here on loopback and
 * the real connectors (sources/) are pointed at it. sources/ itself never starts the simulator.
 */
import type { Config } from '../config.ts';
import type { Clock } from '../platform/clock.ts';
import type { Sources } from '../platform/ports/sources.ts';
import type { Sandbox } from '../sandbox/server.ts';
import { connectSources } from '../sources/index.ts';

export interface OpenedSources extends Sources {
  /** Set when this process runs the simulator. */
  sandbox: Sandbox | null;
}

export function wantsSandbox(config: Pick<Config, 'sandbox' | 'datajudUrl'>): boolean {
  return config.sandbox === 'on' || (config.sandbox === 'auto' && !config.datajudUrl);
}

export async function openUpstreams(config: Config, opts: { clock?: Clock; onProgress?: (done: number, total: number) => void } = {}): Promise<OpenedSources> {
  // The simulator's code is loaded only when it runs: a real deployment never pays for it at start-up.
  const sandbox = wantsSandbox(config)
    ? await (await import('../sandbox/server.ts')).startSandbox({
        cases: config.sandboxCases,
        seed: config.sandboxSeed,
        port: config.sandboxPort,
        latencyMs: config.sandboxLatencyMs,
        datajudApiKey: config.datajudApiKey,
        clock: opts.clock,
        onProgress: opts.onProgress,
      })
    : null;
  const sources = connectSources(config, sandbox);
  const closeSources = sources.close;
  // The same object, not a copy: its DJEN addressees read `publications` from it (connectSources), which tests swap.
  return Object.assign(sources, {
    sandbox,
    async close() {
      await closeSources();
      await sandbox?.close();
    },
  });
}
