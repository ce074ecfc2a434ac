/**
 * What `npm run bench` prints of its HTTP cases and checks: the correctness checks (only 2xx; every 2xx
 * one debit of the price), the table, the targets against the baseline and against the floors, and the
 * paired stage's verdicts.
 */
import type { Result } from 'autocannon';
import { isFloorOf, MANY_ACCOUNTS, type CaseSpec, type Measured } from './cases.ts';
import { describePaired, type Paired } from './paired.ts';

/** The first targets: the charged path and the hot cover as ratios to the bare node:http baseline, and their p99. */
export const TARGETS = { chargedRatio: 0.4, chargedP99Ms: 15, coverRatio: 0.5, coverP99Ms: 10 };
/**
 * Issue 34: as a share of the floor's throughput, the hot cover on SQLite, and the charged path and the
 * hot cover over many accounts on PostgreSQL.
 */
export const FLOOR_SHARE_TARGET = 0.6;
/** Issue 54: the SQLite hot cover as a share of the independent cover floor (floor.ts's own schema, the cover read and charged). */
export const COVER_FLOOR_SHARE_TARGET = 0.5;
/** Issue 34: the SQLite hot cover's p99 at 50 connections. */
export const COVER_P99_TARGET_MS = 10;

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

export function responseCheck(m: Measured): Check {
  const bad = [m.warmup, m.run].map((r) => ({
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    codes: Object.keys(r.statusCodeStats).filter((c) => !c.startsWith('2')),
  }));
  const ok = bad.every((b) => b.non2xx === 0 && b.errors === 0 && b.timeouts === 0);
  const detail = ok
    ? `all responses 2xx (warm-up ${m.warmup['2xx']}, measured ${m.run['2xx']}), no errors or timeouts`
    : `warm-up ${JSON.stringify(bad[0])}, measured ${JSON.stringify(bad[1])}`;
  return { name: `${m.spec.name}: only 2xx`, ok, detail };
}

/** Requests autocannon had sent but not seen answered when it stopped (it closes those sockets). */
function inFlightAtStop(r: Result): number {
  return Math.max(0, r.requests.sent - r.requests.total - r.errors);
}

/** What one charged case's accounting is checked against: its label, price and counts. */
interface Charges {
  label: string;
  price: number;
  debitRows: number;
  searchLogs: number;
}

/**
 * Every 2xx autocannon counted must be exactly one debit of the price; the only other debits allowed
 * are requests still in flight when autocannon closed its sockets (served and charged, answer unread).
 * Each case runs on an account of its own, so the balance and the debit sum are that case's alone.
 */
export function billingCheck(m: Measured, c: Charges): Check[] {
  const s = m.stats!;
  // Summed over the case's accounts (one, or MANY_ACCOUNTS), each funded with initialCentavos.
  const initial = Number(m.ready.details.initialCentavos) * Number(m.ready.details.accounts ?? 1);
  const ok2xx = m.warmup['2xx'] + m.run['2xx'];
  const inFlight = inFlightAtStop(m.warmup) + inFlightAtStop(m.run);
  const unread = c.debitRows - ok2xx;
  return [
    {
      name: `${c.label}: ledger debit rows vs 2xx`,
      ok: unread >= 0 && unread <= inFlight,
      detail:
        `${c.debitRows} debit rows, ${ok2xx} 2xx counted (warm-up + measured); ${unread} more rows than 2xx, ` +
        `allowed 0..${inFlight} = requests in flight when autocannon closed its connections`,
    },
    {
      name: `${c.label}: balance == initial - rows*price`,
      ok: s.balanceCentavos === initial - c.debitRows * c.price && s.debitedCentavos === c.debitRows * c.price,
      detail:
        `balance ${s.balanceCentavos} = ${initial} - ${c.debitRows} x ${c.price} centavos (expected ${initial - c.debitRows * c.price}); ledger debits ` +
        `sum to ${s.debitedCentavos}`,
    },
    {
      name: `${c.label}: one search log per debit`,
      ok: c.searchLogs === c.debitRows,
      detail: `${c.searchLogs} search logs, ${c.debitRows} debit rows`,
    },
  ];
}

const labelOf = (m: Measured) => `${m.spec.role}${m.spec.accounts === 'many' ? ` (${MANY_ACCOUNTS} accounts)` : ''}`;
export const chargedCharges = (m: Measured): Charges => ({
  label: labelOf(m),
  price: Number(m.ready.details.priceCentavos),
  debitRows: m.stats!.debitRows,
  searchLogs: m.stats!.searchLogs,
});
export const coverCharges = (m: Measured): Charges => ({
  label: labelOf(m),
  price: Number(m.ready.details.coverPriceCentavos),
  debitRows: m.stats!.coverDebitRows,
  searchLogs: m.stats!.coverSearchLogs,
});

function pad(cells: string[], widths: number[]): string {
  return `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
}

export function printTable(results: Measured[], baselineCase: Measured): void {
  const baseline = baselineCase.run.requests.mean;
  const head = ['case', 'engine', 'req/s (mean)', 'p99 (ms)', 'ratio to baseline', 'server CPU µs/req', '2xx (measured)', 'non-2xx + errors'];
  const rows = results.map((m) => [
    m.spec.name,
    m.engine,
    m.run.requests.mean.toFixed(0),
    m.run.latency.p99.toFixed(1),
    (m.run.requests.mean / baseline).toFixed(3),
    m.serverCpuUsPerRequest.toFixed(0),
    String(m.run['2xx']),
    String(m.run.non2xx + m.run.errors),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  console.log('');
  console.log(pad(head, widths));
  console.log(`|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
  for (const r of rows) console.log(pad(r, widths));
  console.log('');
}

export function printTargets(baseline: Measured, m: Measured, what: string, target: { ratio: number; p99Ms: number }): boolean {
  const ratio = m.run.requests.mean / baseline.run.requests.mean;
  const p99 = m.run.latency.p99;
  const ratioOk = ratio >= target.ratio;
  const p99Ok = p99 <= target.p99Ms;
  const scope = m.engine === 'sqlite' ? '' : ' (the targets are set for SQLite; shown for reference)';
  console.log(`Targets for ${what}${scope}:`);
  console.log(`  ratio to baseline >= ${target.ratio}: ${ratioOk ? 'MET' : 'NOT MET'} (${ratio.toFixed(3)})`);
  console.log(`  p99 <= ${target.p99Ms} ms:          ${p99Ok ? 'MET' : 'NOT MET'} (${p99.toFixed(1)} ms)`);
  return ratioOk && p99Ok;
}

/** Where the ratio targets stand against what no implementation of the money rules can beat here. */
export function printFloor(baseline: Measured, results: Measured[]): void {
  for (const floor of results.filter((m) => m.spec.role === 'floor')) {
    const ratio = floor.run.requests.mean / baseline.run.requests.mean;
    const cases = results.filter((m) => isFloorOf(floor.spec, m.spec));
    const shares = cases.map((m) => `${m.spec.role} ${((100 * m.run.requests.mean) / floor.run.requests.mean).toFixed(0)}%`).join(', ');
    const target = floor.spec.floorOf === 'cover' ? TARGETS.coverRatio : TARGETS.chargedRatio;
    console.log(
      `Floor of the ${floor.spec.floorOf} case (bench/servers/floor.ts: bare node:http, its own SQLite schema, a batch's charges in one ` +
        `transaction): ratio ${ratio.toFixed(3)}, ${floor.serverCpuUsPerRequest.toFixed(0)} µs/req.`,
    );
    console.log(
      target > ratio
        ? `  The ratio target ${target} lies above this floor: unreachable on this machine by any server that commits each charge before answering.`
        : `  The ratio target ${target} is at or below this floor on this machine.`,
    );
    if (cases.length > 0) console.log(`  Tramita's throughput as a share of this floor's: ${shares}.`);
  }
}

/**
 * PostgreSQL: Tramita's charged path and hot cover as shares of the PG floor's throughput, each
 * against the floor over as many accounts (the many-accounts case carries the target).
 */
export function printPgFloor(results: Measured[], judged: boolean): void {
  console.log(
    `PostgreSQL floor (bench/servers/floor-pg.ts: bare node:http + pg, a tick's charges in one statement, on a few connections), target ` +
      `>= ${FLOOR_SHARE_TARGET} over ${MANY_ACCOUNTS} accounts:`,
  );
  for (const accounts of ['many', 'one'] as const) {
    const label = accounts === 'many' ? `${MANY_ACCOUNTS} accounts` : 'one hot account';
    for (const m of results.filter((r) => (r.spec.role === 'charged' || r.spec.role === 'cover') && (r.spec.accounts ?? 'one') === accounts)) {
      const floor = results.find((f) => isFloorOf(f.spec, m.spec));
      if (!floor) continue;
      console.log(`  ${label}, ${m.spec.role}: floor ${Math.round(floor.run.requests.mean)} req/s, ${floor.serverCpuUsPerRequest.toFixed(0)} µs/req`);
      const ratio = m.run.requests.mean / floor.run.requests.mean;
      const verdict = accounts === 'many' && judged ? ` (target >= ${FLOOR_SHARE_TARGET}: ${ratio >= FLOOR_SHARE_TARGET ? 'MET' : 'NOT MET'})` : ' (reported)';
      console.log(
        `    ${m.spec.role}: ${ratio.toFixed(3)} of the floor${verdict}, ${m.serverCpuUsPerRequest.toFixed(0)} µs/req, p99 ${m.run.latency.p99.toFixed(1)} ms`,
      );
    }
  }
}

export function printChecks(checks: Check[]): boolean {
  console.log('Correctness:');
  for (const c of checks) console.log(`  ${c.ok ? 'PASS' : 'FAIL'}  ${c.name}: ${c.detail}`);
  return checks.every((c) => c.ok);
}

/** The paired stage's rounds and verdicts (bench/paired.ts): the share targets, judged on the median round. */
export function printPaired(paired: Array<{ spec: CaseSpec; result: Paired }>, engine: 'sqlite' | 'postgres', rounds: number, segmentS: number): boolean {
  console.log(
    `Paired with the floor (${rounds} rounds of ${segmentS} s on each server, alternating, both servers up; ` +
      'the share targets are judged on the median round):',
  );
  for (const { spec, result } of paired) {
    const target = engine === 'sqlite' && spec.role === 'cover' ? COVER_FLOOR_SHARE_TARGET : FLOOR_SHARE_TARGET;
    const shareOk = result.medianRatio >= target;
    const verdict =
      engine === 'postgres'
        ? `target >= ${FLOOR_SHARE_TARGET}: ${shareOk ? 'MET' : 'NOT MET'}`
        : spec.role === 'cover'
          ? `targets >= ${target}: ${shareOk ? 'MET' : 'NOT MET'}, p99 <= ${COVER_P99_TARGET_MS} ms: ` +
            `${result.medianP99Ms <= COVER_P99_TARGET_MS ? 'MET' : 'NOT MET'}`
          : 'reported';
    console.log(`${describePaired(result)} (${verdict})`);
  }
  const failures = paired.reduce((n, p) => n + p.result.failures, 0);
  if (failures > 0) console.log(`  FAIL  ${failures} non-2xx answers, errors or timeouts in the paired segments`);
  return failures === 0;
}
