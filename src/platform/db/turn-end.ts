/**
 * The end of a turn of the event loop, where the per-turn batchers (tick-batch.ts, group-commit.ts)
 * flush what was queued during it.
 *
 * Work queued while the turn's I/O callbacks run is flushed in the check phase (setImmediate): every
 * request parsed in that turn has queued its item by then.
 *
 * Work queued because of a flush (a hot cover's stamps are read, then its handler queues the charge)
 * runs in the same check phase, once the microtasks that flush released have settled. Through
 * setImmediate it would wait for the next turn, after that turn's I/O, and the requests of two turns
 * would alternate as two cohorts of half the size, each paying a COMMIT of its own: on SQLite, batches
 * of 22 charges instead of 40 for the hot cover at 50 connections (docs/benchmarks.md).
 *
 * How: a nextTick queued from a microtask runs only once V8 has emptied the microtask queue, that is
 * once every continuation the flush released has run as far as it can without I/O. At most
 * MAX_ROUNDS such rounds follow one another; past that, the work waits for the next turn, so a chain
 * that keeps queueing never keeps the loop from its I/O.
 */
type Flush = () => void;

const MAX_ROUNDS = 8;

let queued: Flush[] = [];
let scheduled = false;
/** Rounds run in this check phase; > 0 from a flush until the microtasks it released have settled. */
let rounds = 0;

/** Runs `flush` at the end of this turn (or of the current flush's continuations); `flush` must not throw. */
export function atTurnEnd(flush: Flush): void {
  queued.push(flush);
  if (scheduled) return;
  scheduled = true;
  if (rounds > 0 && rounds < MAX_ROUNDS) queueMicrotask(() => process.nextTick(runRound));
  else setImmediate(startTurnEnd);
}

function startTurnEnd(): void {
  rounds = 0;
  runRound();
}

function runRound(): void {
  scheduled = false;
  rounds++;
  // Queued first: it only queues a nextTick, which runs after every microtask the flushes release.
  queueMicrotask(() => process.nextTick(settled));
  const now = queued;
  queued = [];
  for (const flush of now) flush();
}

/** The continuations of the last round have run: unless they queued another round, the turn is over. */
function settled(): void {
  if (!scheduled) rounds = 0;
}
