/** Request counters per sandbox upstream, so benchmarks can count what reached "DataJud", the portal and "DJEN". */
import { UPSTREAMS, type Upstream } from './faults.ts';

export interface UpstreamStats {
  requests: number;
  /** Requests by their path's first segment: on the consultations' simulators, the court (`tjsp`, `TJMA`), to count a search's cost per court. */
  bySegment: Record<string, number>;
  /** Answers by HTTP status ("200", "404", …); hung requests are not answered. */
  responses: Record<string, number>;
  /** Faults injected, by kind: latency, status, hang, malformed, partialShards. */
  faults: Record<string, number>;
}

export type SandboxStats = Record<Upstream, UpstreamStats>;

export class StatsCounter {
  #stats: SandboxStats = StatsCounter.#empty();

  static #empty(): SandboxStats {
    return Object.fromEntries(UPSTREAMS.map((u) => [u, { requests: 0, bySegment: {}, responses: {}, faults: {} }])) as unknown as SandboxStats;
  }

  request(upstream: Upstream, path = ''): void {
    const s = this.#stats[upstream];
    s.requests++;
    const segment = path.split('/', 2)[1] ?? '';
    s.bySegment[segment] = (s.bySegment[segment] ?? 0) + 1;
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
