/**
 * How `serve` and `worker` end: SIGTERM or SIGINT, whoever sends it, runs the process's stop once
 * (finish in-flight requests, hand job leases back, close the database) and exits 0; a second signal
 * exits at once. Under npm (`npm start`, `npx tramita …`) a signal may end npm and the shell between
 * it and us without reaching this process (npx runs the bin through `sh -c`, which does not pass
 * signals on): then our parent changes, and that is taken as the same request to stop.
 */
const PARENT_CHECK_MS = 500;

/** Returns whether a stop has begun (start-up work that fails because of it is not a failure). */
export function stopOnSignal(stop: () => Promise<void>, log: { warn(obj: object, msg: string): void }): { readonly stopping: boolean } {
  let stopping = false;
  const begin = (reason: string) => {
    if (stopping) process.exit(1); // asked twice: stop now
    stopping = true;
    void stop().then(
      () => process.exit(0),
      (err: unknown) => {
        log.warn({ err, reason }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => begin(signal));
  // npm sets npm_command for `npm run`/`npm start` (run-script) and `npx` (exec).
  if (process.env.npm_command) {
    const parent = process.ppid;
    const timer = setInterval(() => {
      if (process.ppid !== parent && !stopping) begin('npm exited');
    }, PARENT_CHECK_MS);
    timer.unref();
  }
  return {
    get stopping() {
      return stopping;
    },
  };
}
