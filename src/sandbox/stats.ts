/** Request counters per sandbox upstream, so benchmarks can count what reached "DataJud", the portal and "DJEN". */
import { UPSTREAMS, type Upstream } from './faults.ts';

export interface UpstreamStats {
  requests: number;
  /** Answers by HTTP status ("200", "404", …); hung requests are not answered. */
  responses: Record<string, number>;
  /** Faults injected, by kind: latency, status, hang, malformed, partialShards. */
  faults: Record<string, number>;
}

export type SandboxStats = Record<Upstream, UpstreamStats>;

export class StatsCounter {
  #stats: SandboxStats = StatsCounter.#empty();

  static #empty(): SandboxStats {
    return Object.fromEntries(UPSTREAMS.map((u) => [u, { requests: 0, responses: {}, faults: {} }])) as unknown as SandboxStats;
  }

  request(upstream: Upstream): void {
    this.#stats[upstream].requests++;
  }

  response(upstream: Upstream, status: number): void {
    const r = this.#stats[upstream].responses;
    r[status] = (r[status] ?? 0) + 1;
  }

  fault(upstream: Upstream, kind: string): void {
    const f = this.#stats[upstream].faults;
    f[kind] = (f[kind] ?? 0) + 1;
  }

  snapshot(): SandboxStats {
    return structuredClone(this.#stats);
  }

  reset(): void {
    this.#stats = StatsCounter.#empty();
  }
}
