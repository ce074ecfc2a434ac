/**
 * The HTTP cases of `npm run bench`, in running order, and what a measured one holds: each names the
 * server script it runs (bench/servers/), the path and headers of its requests, its role in the
 * ratios and checks, and the engine it is for.
 */
import type { Result } from 'autocannon';
import type { ServedCase } from './child-servers.ts';
import { BENCH_ROUTES, type ReadyMessage } from './servers/ipc.ts';

/** The accounts of the many-accounts cases: each request picks one of their keys at random. */
export const MANY_ACCOUNTS = 1000;

export interface CaseSpec extends ServedCase {
  /** The baseline is the ratio's denominator; the charged case gets the targets and the billing check. */
  role: 'baseline' | 'floor' | 'charged' | 'cover' | 'other';
  /** Only with BENCH_BREAKDOWN=1: where the charged path's cost comes from. */
  breakdown: boolean;
  /** Runs only on this engine (the floors are per engine; the many-accounts cases are PostgreSQL's). */
  only?: 'sqlite' | 'postgres';
  /** A floor: the role it is the floor of (the charged route's tiny answer, or the stored cover's). */
  floorOf?: 'charged' | 'cover';
}

export interface Measured {
  spec: CaseSpec;
  engine: string;
  warmup: Result;
  run: Result;
  /** CPU time (user + system, all threads) the server spent per response of the measured run. */
  serverCpuUsPerRequest: number;
  ready: ReadyMessage;
  stats?: Record<string, number>;
}

const withKey = (r: ReadyMessage) => ({ 'x-api-key': String(r.details.key) });
const noHeaders = () => ({});
const firstKey = (r: ReadyMessage) => ({ 'x-api-key': (r.details.keys as string[])[0] });

/** In running order; the breakdown rows sit between the cases they explain. */
const CASES: CaseSpec[] = [
  { name: 'baseline node:http hello-world', role: 'baseline', breakdown: false, script: 'baseline.ts', path: () => '/', headers: noHeaders },
  {
    name: 'floor: node:http + own SQLite schema, the charge alone',
    role: 'floor',
    floorOf: 'charged',
    breakdown: false,
    only: 'sqlite',
    script: 'floor.ts',
    path: () => '/v1/bench/charged',
    headers: withKey,
  },
  {
    name: 'floor: node:http + own SQLite schema, the stored cover read and charged',
    role: 'floor',
    floorOf: 'cover',
    breakdown: false,
    only: 'sqlite',
    script: 'floor.ts',
    path: (r) => `/v1/processos/cnj/${String(r.details.hotCnj)}`,
    headers: withKey,
  },
  {
    name: '(breakdown) floor, each charge as its own statements in a savepoint',
    role: 'other',
    breakdown: true,
    only: 'sqlite',
    script: 'floor.ts',
    env: { FLOOR_SQL: 'per-charge' },
    path: () => '/v1/bench/charged',
    headers: withKey,
  },
  {
    name: `floor PG: node:http + pg, a tick's charges in one statement, ${MANY_ACCOUNTS} accounts`,
    role: 'floor',
    floorOf: 'charged',
    breakdown: false,
    only: 'postgres',
    accounts: 'many',
    script: 'floor-pg.ts',
    env: { FLOOR_ACCOUNTS: String(MANY_ACCOUNTS) },
    path: () => '/v1/bench/charged',
    headers: noHeaders,
  },
  {
    name: 'floor PG: the same, one hot account',
    role: 'floor',
    floorOf: 'charged',
    breakdown: false,
    only: 'postgres',
    script: 'floor-pg.ts',
    env: { FLOOR_ACCOUNTS: '1' },
    path: () => '/v1/bench/charged',
    headers: firstKey,
  },
  {
    name: `floor PG: the stored cover read and charged, ${MANY_ACCOUNTS} accounts`,
    role: 'floor',
    floorOf: 'cover',
    breakdown: false,
    only: 'postgres',
    accounts: 'many',
    script: 'floor-pg.ts',
    env: { FLOOR_ACCOUNTS: String(MANY_ACCOUNTS) },
    path: (r) => `/v1/processos/cnj/${String(r.details.hotCnj)}`,
    headers: noHeaders,
  },
  {
    name: `(breakdown) floor PG, one transaction per charge, ${MANY_ACCOUNTS} accounts`,
    role: 'other',
    breakdown: true,
    only: 'postgres',
    accounts: 'many',
    script: 'floor-pg.ts',
    env: { FLOOR_ACCOUNTS: String(MANY_ACCOUNTS), FLOOR_PG_SQL: 'per-charge' },
    path: () => '/v1/bench/charged',
    headers: noHeaders,
  },
  { name: '(breakdown) bare Fastify hello-world', role: 'other', breakdown: true, script: 'fastify.ts', path: () => '/', headers: noHeaders },
  {
    name: `(breakdown) GET ${BENCH_ROUTES.open} (no auth/limit/charge)`,
    role: 'other',
    breakdown: true,
    script: 'tramita.ts',
    path: () => BENCH_ROUTES.open,
    headers: noHeaders,
  },
  { name: 'GET /v1/conta/saldo', role: 'other', breakdown: false, script: 'tramita.ts', path: () => '/v1/conta/saldo', headers: withKey },
  {
    name: `(breakdown) GET ${BENCH_ROUTES.auth} (auth + limit)`,
    role: 'other',
    breakdown: true,
    script: 'tramita.ts',
    path: () => BENCH_ROUTES.auth,
    headers: withKey,
  },
  {
    name: `GET ${BENCH_ROUTES.charged} (charged)`,
    role: 'charged',
    breakdown: false,
    script: 'tramita.ts',
    path: () => BENCH_ROUTES.charged,
    headers: withKey,
  },
  {
    name: `GET ${BENCH_ROUTES.charged} (charged, ${MANY_ACCOUNTS} accounts)`,
    role: 'charged',
    breakdown: false,
    only: 'postgres',
    accounts: 'many',
    script: 'tramita.ts',
    env: { BENCH_ACCOUNTS: String(MANY_ACCOUNTS) },
    path: () => BENCH_ROUTES.charged,
    headers: noHeaders,
  },
  {
    name: 'GET /v1/processos/cnj/{cnj} (hot, charged, from the store)',
    role: 'cover',
    breakdown: false,
    script: 'tramita.ts',
    path: (r) => `/v1/processos/cnj/${String(r.details.hotCnj)}`,
    headers: withKey,
  },
  {
    name: `GET /v1/processos/cnj/{cnj} (hot cover, ${MANY_ACCOUNTS} accounts)`,
    role: 'cover',
    breakdown: false,
    only: 'postgres',
    accounts: 'many',
    script: 'tramita.ts',
    env: { BENCH_ACCOUNTS: String(MANY_ACCOUNTS) },
    path: (r) => `/v1/processos/cnj/${String(r.details.hotCnj)}`,
    headers: noHeaders,
  },
];

/** Whether `f` is the floor `c` is measured against: the floor of its role, over as many accounts. */
export function isFloorOf(f: CaseSpec, c: CaseSpec): boolean {
  if (f.role !== 'floor' || (c.role !== 'charged' && c.role !== 'cover')) return false;
  return f.floorOf === c.role && (f.accounts ?? 'one') === (c.accounts ?? 'one');
}

export function selectCases(settings: { breakdown: boolean }): CaseSpec[] {
  // Each engine has its floor (floor.ts, floor-pg.ts); the Tramita cases follow DATABASE_URL.
  const engine = process.env.DATABASE_URL ? 'postgres' : 'sqlite';
  const only = process.env.BENCH_CASES?.split(',');
  return CASES.filter(
    (c) =>
      (!only || c.role === 'baseline' || only.some((o) => c.name.includes(o))) &&
      (settings.breakdown || !c.breakdown) &&
      (c.only === undefined || c.only === engine),
  );
}
