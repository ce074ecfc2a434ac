/**
 * Summarises a V8 CPU profile (`BENCH_CPU_PROF=1 npm run bench` writes one per server process):
 * self time by function and by package or source file, and inclusive (self + callees) time by
 * function, top N each. LAST_S keeps only the samples of the profile's last LAST_S seconds (the measured
 * run, without the server's start-up). Usage:
 *   node bench/profile-summary.ts FILE.cpuprofile [N] [LAST_S]
 */
import fs from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function where(url: string): string {
  if (!url) return '(native/V8)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  if (url.startsWith('node:')) return url;
  const src = /\/work\/main\/(.*)$/.exec(url);
  return src ? src[1] : url;
}

function selfTimes(profile: Profile): Map<number, number> {
  const self = new Map<number, number>();
  for (const [i, id] of profile.samples.entries()) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  return self;
}

/** Self + callees: each sample counts once for every distinct function on its stack. */
function inclusiveTimes(profile: Profile, nodes: Map<number, ProfileNode>, label: (node: ProfileNode) => string): Map<string, number> {
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const totals = new Map<string, number>();
  for (const [id, us] of selfTimes(profile)) {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) seen.add(label(nodes.get(at)!));
    for (const name of seen) totals.set(name, (totals.get(name) ?? 0) + us);
  }
  return totals;
}

function top(totals: Map<string, number>, all: number, n: number): string[] {
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, us]) => `${((100 * us) / all).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(7)} ms  ${k}`);
}

/** Only the samples taken in the last `seconds` of the profile. */
function lastSeconds(profile: Profile, seconds: number): Profile {
  const total = profile.timeDeltas.reduce((a, b) => a + b, 0);
  let at = 0;
  const keep = profile.timeDeltas.map((d) => {
    at += d;
    return at >= total - seconds * 1e6;
  });
  return { ...profile, samples: profile.samples.filter((_, i) => keep[i]), timeDeltas: profile.timeDeltas.filter((_, i) => keep[i]) };
}

function main(file: string, n: number, last: number | undefined): void {
  const whole = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  const profile = last ? lastSeconds(whole, last) : whole;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const byFunction = new Map<string, number>();
  const byPlace = new Map<string, number>();
  const label = ({ callFrame: { functionName, url, lineNumber } }: ProfileNode) =>
    `${functionName || '(anonymous)'} ${where(url)}${url ? `:${lineNumber + 1}` : ''}`;
  let all = 0;
  for (const [id, us] of selfTimes(profile)) {
    const node = nodes.get(id)!;
    const place = where(node.callFrame.url);
    const fn = label(node);
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
    byPlace.set(place, (byPlace.get(place) ?? 0) + us);
    all += us;
  }
  console.log(`${file}: ${(all / 1000).toFixed(0)} ms sampled`);
  console.log('\nself time by package / file:');
  for (const line of top(byPlace, all, n)) console.log(`  ${line}`);
  console.log('\nself time by function:');
  for (const line of top(byFunction, all, n)) console.log(`  ${line}`);
  console.log('\ninclusive time by function (self + callees):');
  for (const line of top(inclusiveTimes(profile, nodes, label), all, n)) console.log(`  ${line}`);
}

main(process.argv[2] ?? '', Number(process.argv[3] ?? 25), process.argv[4] ? Number(process.argv[4]) : undefined);
