/**
 * The linear-time check for parsers of upstream text (docs/architecture.md, "Linear time"): a parser is
 * run on adversarial inputs of growing size (4k, 16k and 64k characters by default) and its time must
 * grow like the input, not like its square. Only times measured in the same run are compared, never a
 * duration: the growth exponent between the smallest and the largest size (t ∝ nᵏ) must stay under
 * 1.5, where a linear parser has 1 and a quadratic one 2 (16 times the input: 16 times the time against
 * 256; the limit is 64).
 *
 * Measured on the shared 2-core machine (load 14), and why the check is made so:
 * - the whole range, not each step: while V8 optimizes and de-optimizes a parser, one step of 4 times
 *   the input took up to 15 times the time for linear code (a quadratic parser takes 16);
 * - sizes under 64k: V8 puts a string of more than 128 KB (128k one-byte or 64k two-byte characters) in
 *   fresh pages of its large-object space, about a millisecond per copy here, so a linear parser that
 *   copies its input twice (`trim`, `toUpperCase`) measured n^1.6 from 40k to 160k characters;
 * - wall time, as the fastest of many timings of about a millisecond taken in turns with the other
 *   sizes, after warm-up calls: a thread's CPU time is counted in 4 ms scheduler ticks, and some short
 *   timings are interrupted neither by another process nor by a garbage collection.
 */
import assert from 'node:assert/strict';

export interface LinearTimeOptions {
  /** Input sizes in characters, growing (default 4k, 16k, 64k: see the header for why not 160k). */
  sizes?: readonly number[];
  /** Largest accepted growth exponent between the smallest and the largest size (default 1.5). */
  maxExponent?: number;
  /** Short timings per size; the fastest is kept (default 20). */
  timings?: number;
  /** Measures before a growth over the limit fails (default 3): a quadratic parser is over it each time. */
  attempts?: number;
}

/** Calls of each size before the timings (V8 compiles a parser over its first calls). */
const WARM_CALLS = 5;
/** Length of one timing: short enough that most timings are not interrupted on a busy machine. */
const TIMING_MS = 1;
/** A call slower than this stops the measure there: the growth is already certain, and a quadratic parser should not run for minutes. */
const SLOW_MS = 250;

/**
 * One timing in ms per call: `fn(input)` called `calls` times in a row. Wall time, because a thread's
 * CPU time is counted in scheduler ticks (4 ms here), too coarse for a call of a millisecond.
 */
function timeCalls(fn: (input: string) => unknown, input: string, calls: number): number {
  const start = performance.now();
  for (let c = 0; c < calls; c++) fn(input);
  return (performance.now() - start) / calls;
}

/**
 * The fastest time per call of `fn` on each input, in ms; fewer entries than inputs when a call was
 * slower than SLOW_MS (the inputs after it are not tried).
 */
function measure(fn: (input: string) => unknown, inputs: readonly string[], timings: number): number[] {
  fn(inputs[0]!); // once untimed: a parser's first call may build its tables (matching/fold.ts's takes ~0.3 s)
  const warm: number[] = [];
  for (const input of inputs) {
    let best = timeCalls(fn, input, 1);
    for (let w = 1; w < WARM_CALLS && best < SLOW_MS; w++) best = Math.min(best, timeCalls(fn, input, 1));
    warm.push(best);
    if (best >= SLOW_MS) return warm;
  }
  const calls = warm.map((t) => Math.max(1, Math.min(1000, Math.round(TIMING_MS / Math.max(t, 0.001)))));
  const best = warm.map(() => Number.POSITIVE_INFINITY);
  for (let r = 0; r < timings; r++) {
    for (let k = 0; k < inputs.length; k++) best[k] = Math.min(best[k]!, timeCalls(fn, inputs[k]!, calls[k]!));
  }
  return best;
}

/**
 * The input as upstream text reaches a parser, one flat string (JSON.parse's or TextDecoder's), not the
 * tree of pieces that `repeat` and `+` build: V8 may flatten such a tree again on a later search once
 * it sits in the old generation, which made linear parsers look quadratic.
 */
function asReceived(input: string): string {
  return JSON.parse(JSON.stringify(input)) as string;
}

/**
 * Fails when `fn`'s time on `makeInput(size)` grows faster than linearly. `makeInput` returns a string of
 * about `size` characters; `fn` must accept it (throwing is a failure: a parser of upstream text
 * answers, even "unreadable").
 */
export function assertLinearTime(name: string, fn: (input: string) => unknown, makeInput: (size: number) => string, options: LinearTimeOptions = {}): void {
  const { sizes = [4_000, 16_000, 64_000], maxExponent = 1.5, timings = 20, attempts = 3 } = options;
  const inputs = sizes.map((size) => asReceived(makeInput(size)));
  const measures: string[] = [];
  for (let attempt = 0; attempt < attempts; attempt++) {
    const times = measure(fn, inputs, timings);
    const last = times.length - 1;
    const exponent = Math.log(times[last]! / times[0]!) / Math.log(sizes[last]! / sizes[0]!);
    measures.push(`${times.map((t, k) => `${sizes[k]}: ${t.toFixed(3)} ms`).join(', ')} (exponent ${exponent.toFixed(2)})`);
    if (exponent < maxExponent) return;
    if (times.length < sizes.length) break; // a call too slow to try the next size: no doubt left
  }
  assert.fail(`${name}: time grows like n^k with k at least ${maxExponent} (linear is 1, quadratic 2) — ${measures.join('; ')}`);
}
