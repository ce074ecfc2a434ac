/**
 * Progress of long operator work (the sandbox's data set, caderno ingest, precatório imports): on a
 * terminal, a bar redrawn on stderr; otherwise, and always at the end, a log line at a steady rhythm
 * (every `everyMs`), so a log collector shows that the work moves and how far it is.
 */
import type { Logger } from 'pino';

export type Progress = (done: number, total: number, fields?: Record<string, unknown>) => void;

const BAR_WIDTH = 30;

/** For background jobs: their progress goes to the log only, never a bar (other lines share the terminal). */
export const NO_TERMINAL = { isTTY: false } as NodeJS.WriteStream;

export function progressReporter(log: Pick<Logger, 'info'>, label: string, o: { everyMs?: number; out?: NodeJS.WriteStream } = {}): Progress {
  const out = o.out ?? process.stderr;
  const everyMs = o.everyMs ?? 5_000;
  let lastLog = 0;
  let lastPct = -1;
  return (done, total, fields = {}) => {
    const pct = total === 0 ? 100 : Math.min(100, Math.floor((done / total) * 100));
    const finished = done >= total;
    if (out.isTTY) {
      if (pct !== lastPct) {
        const filled = Math.round((pct / 100) * BAR_WIDTH);
        out.write(`\r  ${label} [${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${pct}%${finished ? '\n' : ''}`);
      }
    } else if (finished || Date.now() - lastLog >= everyMs) {
      lastLog = Date.now();
      log.info({ ...fields, done, total, pct }, label);
    }
    if (finished && out.isTTY) log.info({ ...fields, done, total }, `${label}: done`);
    lastPct = pct;
  };
}
