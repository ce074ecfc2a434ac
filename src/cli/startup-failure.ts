/**
 * Why a command could not start, in one line that names the setting to change (issue 19, item 5):
 * a port in use, a database that cannot be reached, a data directory that cannot be written. A
 * supervisor restarts a process that exits non-zero; a stack trace helps nobody at that point.
 */
import net from 'node:net';

/** A command that cannot run (a start-up failure, a refused backup), already explained: printed as is, exit 1. */
export class StartupError extends Error {}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH']);
/** PostgreSQL's own refusals: bad password, no such role, no such database, too many connections. */
const POSTGRES_REFUSALS: Record<string, string> = {
  '28P01': 'password authentication failed',
  '28000': 'the role may not log in',
  '3D000': 'the database does not exist',
  '53300': 'too many connections',
};

function codeOf(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (typeof e.code === 'string') return e.code;
  }
  return undefined;
}

/** The database URL without its password, for a message. */
function safeUrl(raw: string): string {
  try {
    const url = new URL(raw);
    url.password = url.password ? '***' : '';
    return url.toString();
  } catch {
    return 'DATABASE_URL (not a URL)';
  }
}

/** One line for a failure that has a known cause and setting, or null for anything else. */
export function explainStartupFailure(err: unknown, env: Record<string, string | undefined>): string | null {
  if (err instanceof StartupError) return err.message;
  const code = codeOf(err);
  if (!code) return null;
  const databaseUrl = env.DATABASE_URL;
  if (databaseUrl && (NETWORK_CODES.has(code) || code in POSTGRES_REFUSALS)) {
    return `cannot use the database at ${safeUrl(databaseUrl)}: ${POSTGRES_REFUSALS[code] ?? code}. Check DATABASE_URL (and that PostgreSQL is running).`;
  }
  if (code === 'EADDRINUSE' || (code === 'EACCES' && (err as { syscall?: string }).syscall === 'listen')) {
    const { address, port } = err as { address?: string; port?: number };
    return (
      `cannot listen on ${address ?? 'the address'}:${port ?? '?'}: ${code === 'EADDRINUSE' ? 'the port is already in use' : 'permission denied'}. Set ` +
      `PORT (or TRAMITA_HOST; for tramita worker, TRAMITA_WORKER_METRICS_PORT) to a free one, or stop the process holding it.`
    );
  }
  if (!databaseUrl && (code === 'EACCES' || code === 'EROFS' || code === 'ENOSPC' || code === 'ERR_SQLITE_ERROR')) {
    return `cannot use the data directory ${env.TRAMITA_DATA_DIR ?? './data'}: ${(err as Error).message}. Check TRAMITA_DATA_DIR.`;
  }
  return null;
}

/**
 * Fails at once when the port is taken, before the slow parts of a start (the sandbox's data set):
 * a supervisor learns within a second. Port 0 (any free port) is always free.
 */
export async function assertPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  });
}
