/**
 * V8 settings every `tramita` process applies at start, before it takes any work.
 *
 * Allocation-site pretenuring off. V8 watches the object and array literals of each allocation site
 * during the first collections and, when most of them survive (as at start-up, or while a burst of
 * requests is in flight), allocates that site's objects in the old generation from then on. In about
 * half of the server's starts it did so for sites of the request path: every request then left an
 * old-generation object behind that points at its young objects, so each young collection kept about
 * 5 MB of finished requests alive, copied them and promoted them to the old generation, which a full
 * collection then cleared. Scavenges took 10–12 ms instead of 1–2, the GC cost ~6 µs per hot cover
 * instead of ~0.8, and the p99 followed the pauses (docs/benchmarks.md, issue 34). Without it a young
 * object is promoted only when it lives through two collections, which is what a server's
 * short-lived request objects need.
 *
 * Set at run time (`node:v8`), not on the command line, so that `npm start`, the bin, an operator's
 * own `node` command and the benchmark's servers all run with it. V8 reads this flag whenever it
 * weighs an allocation site, so setting it before the first request is enough.
 */
import { setFlagsFromString } from 'node:v8';

export function applyV8Tuning(): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
}
