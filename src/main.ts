/**
 * `tramita` — the one entry point: serve | worker | migrate | accounts | keys | credits | sandbox
 * (src/cli/run.ts). Every command reads the same environment as the server (src/config.ts).
 */
import { runCli } from './cli/run.ts';

// Not a top-level await: `serve` and `worker` never settle, and end through their signal handlers.
void runCli(process.argv.slice(2)).then((code) => { process.exitCode = code; });
