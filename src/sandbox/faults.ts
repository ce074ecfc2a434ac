/**
 * Fault injection for the sandbox upstreams, so tests and benchmarks can see how Tramita behaves when
 * DataJud, the portal or DJEN is slow, down, rate-limiting, geoblocking, hanging or answering garbage.
 * Per upstream (`datajud`, `portal`, `djen`, `llm` (the simulated model), `stf` (its gazette), `dje` (the electoral gazettes), `mural` (the bulletin board's
 * back end), `provedor` (the mural provider protocol), `mandados` (the warrants providers), `pje` (the PJe consultas públicas), `consultas` (the courts'
 * consultation pages: `latencyMs` is the slow host), or `all` = every one; `both` is the older name of `all`,
 * kept for callers written when there were two upstreams):
 * - `latencyMs`: added before answering (default: the sandbox's `latencyMs`, TRAMITA_SANDBOX_LATENCY_MS);
 * - `status`: answer 500/502/503, 429 with `Retry-After: retryAfterSeconds` (default 1), or 403 (for
 *  DJEN, CloudFront's "blocked access from your country" page: the geoblock, djen.md §3);
 * - `hang`: never answer; the request stays open until the client gives up (the server still closes cleanly);
 * - `malformed`: a 200 whose body is cut in half (truncated JSON);
 * - `partialShards` (DataJud only): `_shards.failed: 1` and that shard's hits missing;
 * - `times`: apply to the next N requests, then revert to the defaults; omitted: until reset.
 * One `set` replaces the faults of the upstream(s) it names. Precedence: hang, status, malformed, partialShards.
 * Controlled in process (`sandbox.faults`) or over HTTP (`PUT`/`GET`/`DELETE /_sandbox/faults`).
 */

export const UPSTREAMS = ['datajud', 'portal', 'djen', 'llm', 'stf', 'dje', 'mural', 'provedor', 'mandados', 'protocolo', 'tjrj', 'pje', 'consultas'] as const;
export type Upstream = (typeof UPSTREAMS)[number];
/** 'all' and 'both' both mean every upstream. */
export type UpstreamTarget = Upstream | 'all' | 'both';
export const FAULT_STATUSES = [403, 429, 500, 502, 503] as const;
export type FaultStatus = (typeof FAULT_STATUSES)[number];

export interface FaultSettings {
  latencyMs?: number;
  status?: FaultStatus;
  retryAfterSeconds?: number;
  hang?: boolean;
  malformed?: boolean;
  partialShards?: boolean;
  times?: number;
}

export interface FaultRequest extends FaultSettings {
  /** Default 'all'. */
  upstream?: UpstreamTarget;
}

/** What applies to one request. */
export interface AppliedFault {
  latencyMs: number;
  status: FaultStatus | null;
  retryAfterSeconds: number;
  hang: boolean;
  malformed: boolean;
  partialShards: boolean;
}

export interface ActiveFault extends AppliedFault {
  /** Requests left before reverting to the defaults; null: until reset. */
  remaining: number | null;
}

export class FaultError extends RangeError {}

const KEYS = new Set(['upstream', 'latencyMs', 'status', 'retryAfterSeconds', 'hang', 'malformed', 'partialShards', 'times']);

function check(ok: boolean, message: string): void {
  if (!ok) throw new FaultError(message);
}

const isInt = (v: unknown, min: number) => typeof v === 'number' && Number.isInteger(v) && v >= min;
const isBool = (v: unknown) => v === undefined || typeof v === 'boolean';
const isEvery = (v: unknown) => v === 'all' || v === 'both';

/** Validates a fault request (from code or from the HTTP control endpoint); throws FaultError. */
export function parseFaultRequest(input: unknown): FaultRequest {
  check(typeof input === 'object' && input !== null && !Array.isArray(input), 'faults: expected a JSON object');
  const r = input as Record<string, unknown>;
  for (const key of Object.keys(r)) check(KEYS.has(key), `faults: unknown setting "${key}" (known: ${[...KEYS].join(', ')})`);
  check(
    r.upstream === undefined || isEvery(r.upstream) || UPSTREAMS.includes(r.upstream as Upstream),
    `faults: upstream must be ${UPSTREAMS.join(', ')} or all`,
  );
  check(r.latencyMs === undefined || isInt(r.latencyMs, 0), 'faults: latencyMs must be an integer ≥ 0');
  check(r.status === undefined || FAULT_STATUSES.includes(r.status as FaultStatus), `faults: status must be one of ${FAULT_STATUSES.join(', ')}`);
  check(r.retryAfterSeconds === undefined || isInt(r.retryAfterSeconds, 0), 'faults: retryAfterSeconds must be an integer ≥ 0');
  check(r.times === undefined || isInt(r.times, 1), 'faults: times must be an integer ≥ 1');
  check(isBool(r.hang) && isBool(r.malformed) && isBool(r.partialShards), 'faults: hang, malformed and partialShards must be booleans');
  check(!(r.partialShards && r.upstream !== undefined && r.upstream !== 'datajud' && !isEvery(r.upstream)), 'faults: partialShards applies to DataJud only');
  return r as FaultRequest;
}

export class SandboxFaults {
  readonly defaultLatencyMs: number;
  readonly #active = new Map<Upstream, ActiveFault>();

  constructor(defaultLatencyMs = 0) {
    this.defaultLatencyMs = defaultLatencyMs;
    this.reset();
  }

  #defaults(): ActiveFault {
    return { latencyMs: this.defaultLatencyMs, status: null, retryAfterSeconds: 1, hang: false, malformed: false, partialShards: false, remaining: null };
  }

  #targets(target: UpstreamTarget = 'all'): Upstream[] {
    return isEvery(target) ? [...UPSTREAMS] : [target as Upstream];
  }

  /** Replaces the faults of the named upstream(s); throws FaultError on a bad setting. */
  set(request: FaultRequest): void {
    const r = parseFaultRequest(request);
    for (const upstream of this.#targets(r.upstream)) {
      this.#active.set(upstream, {
        latencyMs: r.latencyMs ?? this.defaultLatencyMs,
        status: r.status ?? null,
        retryAfterSeconds: r.retryAfterSeconds ?? 1,
        hang: r.hang ?? false,
        malformed: r.malformed ?? false,
        partialShards: upstream === 'datajud' && (r.partialShards ?? false),
        remaining: r.times ?? null,
      });
    }
  }

  get(): Record<Upstream, ActiveFault> {
    return Object.fromEntries(UPSTREAMS.map((u) => [u, { ...this.#active.get(u)! }])) as Record<Upstream, ActiveFault>;
  }

  reset(target: UpstreamTarget = 'all'): void {
    for (const upstream of this.#targets(target)) this.#active.set(upstream, this.#defaults());
  }

  /** The faults for one request to `upstream`, counting it against `times`. */
  take(upstream: Upstream): AppliedFault {
    const active = this.#active.get(upstream)!;
    const { remaining, ...applied } = active;
    if (remaining !== null) {
      if (remaining <= 1) this.#active.set(upstream, this.#defaults());
      else active.remaining = remaining - 1;
    }
    return applied;
  }
}
