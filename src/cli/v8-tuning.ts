/**
 * V8 settings every `tramita` process applies at start, before it takes any work.
 *
 * Allocation-site pretenuring off. V8 watches the object and array literals of each allocation site
 * during the first collections and, when most of them survive (as at start-up, or while a burst of
 * requests is in flight), allocates that site's objects in the old generation from then on. In about
 * half of the server's starts, each young collection then kept ~5 MB of finished requests alive (the
 * survivors sampled were request objects: http messages, Fastify requests, socket writes), copied
 * them and promoted them to the old generation, where the next full collection found them dead: what
 * an old object pointing at young ones does, since the scavenger treats it as live until a full
 * collection. Scavenges took 10–12 ms instead of 1–2, the collector ~6 µs per hot cover instead of
 * ~0.8, and the p99 followed the pauses. Alternating runs: slow in 7 of 15 starts with it, in none of
 * 27 without (docs/benchmarks.md, issue 34).
 *
 * Set at run time (`node:v8`), not on the command line, so that `npm start`, the bin, `node src/main.ts`
 * and the benchmark's servers all run with it. V8 consults the flag each time it weighs its allocation
 * sites' feedback, so setting it before the first request is enough (measured: none of 12 starts slow).
 */
import { setFlagsFromString } from 'node:v8';

export function applyV8Tuning(): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
}
