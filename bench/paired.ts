/**
 * A case measured against its floor in alternating short segments: both servers run at once (each
 * idle while the other is loaded), then `rounds` times the floor for `segmentS` seconds and the case
 * for as long, so each round's ratio compares two servers measured seconds apart. The sequential table
 * measures a case minutes after its floor, and on a shared machine the same code moves by a quarter
 * between minutes (docs/benchmarks.md); that drift lands in the table's ratio and not in these.
 * Reported: each round, the median ratio and the case's p99 (median and worst of its segments).
 */
import type { Result } from 'autocannon';
import { load, serverCpuUs, startServer, stopServer, type Server, type ServedCase } from './child-servers.ts';

export interface PairedRound {
  floorRps: number;
  caseRps: number;
  ratio: number;
  caseP99Ms: number;
  /** Server CPU time (all threads) per response in the segment: less moved by the rest of the machine than req/s. */
  floorCpuUs: number;
  caseCpuUs: number;
}

export interface Paired {
  name: string;
  rounds: PairedRound[];
  medianRatio: number;
  /** The median round's floor CPU µs/response ÷ the case's: the case's share of the floor in CPU, not in req/s. */
  medianCpuShare: number;
  medianP99Ms: number;
  worstP99Ms: number;
  /** Bytes per response (headers and body) of the case and of its floor, over the last round: they should match. */
  caseBytes: number;
  floorBytes: number;
  /** Non-2xx answers, errors and timeouts over every segment, warm-ups included: a measurement with any is void. */
  failures: number;
}

export interface PairedSettings {
  rounds: number;
  segmentS: number;
  warmupS: number;
  profileDir: string | undefined;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const failuresOf = (r: Result) => r.non2xx + r.errors + r.timeouts;
const bytesPerResponse = (r: Result) => Math.round(r.throughput.total / Math.max(1, r.requests.total));

/** One segment of load on a started server, as its case asks, with the server's CPU µs per response over it. */
async function segment(server: Server, c: ServedCase, seconds: number): Promise<Result & { cpuUs: number }> {
  const { ready } = server;
  const keys = c.accounts === 'many' ? (ready.details.keys as string[]) : undefined;
  const cpuBefore = await serverCpuUs(server);
  const r = await load(`http://127.0.0.1:${ready.port}${c.path(ready)}`, c.headers(ready), seconds, keys);
  return { ...r, cpuUs: ((await serverCpuUs(server)) - cpuBefore) / Math.max(1, r.requests.total) };
}

export async function measurePaired(floor: ServedCase, subject: ServedCase, settings: PairedSettings): Promise<Paired> {
  const servers: Server[] = [];
  try {
    const floorServer = await startServer(floor.script, settings, floor.env);
    servers.push(floorServer);
    const caseServer = await startServer(subject.script, settings, subject.env);
    servers.push(caseServer);
    process.stdout.write(`  ${subject.name} against ${floor.name}: ${settings.rounds} rounds of ${settings.segmentS} s + ${settings.segmentS} s ... `);
    let failures = failuresOf(await segment(floorServer, floor, settings.warmupS)) + failuresOf(await segment(caseServer, subject, settings.warmupS));
    const rounds: PairedRound[] = [];
    let bytes = { caseBytes: 0, floorBytes: 0 };
    for (let i = 0; i < settings.rounds; i++) {
      const f = await segment(floorServer, floor, settings.segmentS);
      const c = await segment(caseServer, subject, settings.segmentS);
      bytes = { caseBytes: bytesPerResponse(c), floorBytes: bytesPerResponse(f) };
      failures += failuresOf(f) + failuresOf(c);
      rounds.push({
        floorRps: f.requests.mean,
        caseRps: c.requests.mean,
        ratio: c.requests.mean / f.requests.mean,
        caseP99Ms: c.latency.p99,
        floorCpuUs: f.cpuUs,
        caseCpuUs: c.cpuUs,
      });
    }
    const result = {
      name: subject.name,
      rounds,
      medianRatio: median(rounds.map((r) => r.ratio)),
      medianCpuShare: median(rounds.map((r) => r.floorCpuUs / r.caseCpuUs)),
      medianP99Ms: median(rounds.map((r) => r.caseP99Ms)),
      worstP99Ms: Math.max(...rounds.map((r) => r.caseP99Ms)),
      ...bytes,
      failures,
    };
    console.log(`median ${result.medianRatio.toFixed(3)} of the floor`);
    return result;
  } finally {
    for (const s of servers) await stopServer(s);
  }
}

export function describePaired(p: Paired): string {
  const ratios = p.rounds.map((r) => r.ratio.toFixed(2)).join(', ');
  const rps = p.rounds.map((r) => `${Math.round(r.caseRps)}/${Math.round(r.floorRps)}`).join(', ');
  const cpu = p.rounds.map((r) => `${Math.round(r.caseCpuUs)}/${Math.round(r.floorCpuUs)}`).join(', ');
  return (
    `    ${p.name}: median ${p.medianRatio.toFixed(3)} of the floor (rounds: ${ratios}; req/s case/floor: ${rps}); ` +
    `in CPU, median ${p.medianCpuShare.toFixed(3)} of the floor (server CPU µs/response case/floor: ${cpu}); ` +
    `p99 median ${p.medianP99Ms.toFixed(1)} ms, worst ${p.worstP99Ms.toFixed(1)} ms; bytes/response case ${p.caseBytes}, floor ${p.floorBytes}`
  );
}
