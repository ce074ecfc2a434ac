/**
 * `tramita` — the one entry point: serve | worker | migrate | backup | accounts | keys | users | credits | precatorios | sandbox
 * (src/cli/run.ts). Every command reads the same environment as the server (src/config.ts).
 */
import { enableCompileCache } from 'node:module';

// Node keeps the compiled (and type-stripped) modules on disk: a second start skips that work
// (about a third of the start-up time, docs/benchmarks.md). Before any other import, so it applies to them.
// bin/tramita.mjs (npm start) enables it before this file is loaded, so this one comes from the cache too.
enableCompileCache();
const { applyV8Tuning } = await import('./cli/v8-tuning.ts');
applyV8Tuning();
const { runCli } = await import('./cli/run.ts');

// `serve` and `worker` never settle: they end through their signal handlers.
void runCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
  // A failed start may leave servers open (the sandbox's, a database pool): exit now, not when they close.
  if (code !== 0) process.exit(code);
});
