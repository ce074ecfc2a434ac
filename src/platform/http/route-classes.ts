/**
 * Route classes and their rate limits (TRAMITA_RATE_LIMITS): the HTTP layer's vocabulary, parsed by
 * the settings table (config.ts) and used by route declarations (route.ts) and the limiter
 * (rate-limit.ts, gate.ts). A leaf: config.ts imports it.
 */
import { ConfigError } from '../../config-error.ts';

export const ROUTE_CLASSES = ['reference', 'lookup', 'search', 'async', 'monitor', 'download', 'account'] as const;
export type RouteClass = (typeof ROUTE_CLASSES)[number];
export interface RateLimit {
  max: number;
  windowMs: number;
}

/** Defaults per route class: requests per window, per account (spec §8 leaves the numbers to us). */
export const DEFAULT_RATE_LIMITS: Record<RouteClass, RateLimit> = {
  reference: { max: 600, windowMs: 60_000 },
  lookup: { max: 300, windowMs: 60_000 },
  search: { max: 120, windowMs: 60_000 },
  async: { max: 60, windowMs: 60_000 },
  monitor: { max: 60, windowMs: 60_000 },
  download: { max: 60, windowMs: 60_000 },
  account: { max: 600, windowMs: 60_000 },
};

/** `lookup=300/60s,search=50/10s`: overrides some classes, the rest keep their defaults. */
export function parseRateLimits(raw: string): Record<RouteClass, RateLimit> {
  const limits = structuredClone(DEFAULT_RATE_LIMITS);
  for (const part of raw
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^([a-z]+)=(\d+)\/(\d+)(ms|s|m)$/.exec(part);
    if (!m || !ROUTE_CLASSES.includes(m[1] as RouteClass)) {
      throw new ConfigError(`TRAMITA_RATE_LIMITS: "${part}" is not CLASS=MAX/WINDOW (classes: ${ROUTE_CLASSES.join(', ')}; window like 60s, 500ms, 1m)`);
    }
    const unit = { ms: 1, s: 1000, m: 60_000 }[m[4] as 'ms' | 's' | 'm'];
    const windowMs = Number(m[3]) * unit;
    if (Number(m[2]) < 1 || windowMs < 1) throw new ConfigError(`TRAMITA_RATE_LIMITS: "${part}" must allow at least 1 request per window`);
    limits[m[1] as RouteClass] = { max: Number(m[2]), windowMs };
  }
  return limits;
}

/** The defaults as TRAMITA_RATE_LIMITS writes them (the configuration page's default). */
export function describeRateLimits(): string {
  return ROUTE_CLASSES.map((c) => `${c}=${DEFAULT_RATE_LIMITS[c].max}/${DEFAULT_RATE_LIMITS[c].windowMs / 1000}s`).join(',');
}
