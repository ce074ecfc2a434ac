/**
 * pino, with secrets kept out at every level: API keys, bearer tokens, webhook secrets, passwords.
 * Request lines carry the route pattern, never the query string (it may hold a CPF or a name) nor headers.
 */
import { createRequire } from 'node:module';
import pino, { type DestinationStream, type Logger } from 'pino';

export const REDACTED_PATHS = [
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'headers["x-api-key"]',
  'headers.authorization',
  '*.apiKey',
  '*.api_key',
  '*.key',
  '*.secret',
  '*.token',
  '*.password',
  '*.authorization',
];

/** Anything shaped like an API key, wherever it hides (an exception message, a URL): the last net. */
const KEY_SHAPE = /trm_[0-9a-z]{10}_[0-9A-Za-z]{32}/g;

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      hooks: { streamWrite: (line) => line.replace(KEY_SHAPE, 'trm_[redacted]') },
      base: { service: 'tramita' },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      serializers: {
        err: pino.stdSerializers.err,
        // Never the raw request: headers carry the key, the query may carry personal data.
        req: (req: { method?: string; routeOptions?: { url?: string }; url?: string }) => ({
          method: req.method,
          route: req.routeOptions?.url ?? req.url?.split('?')[0],
        }),
      },
    },
    destination,
  );
}

/**
 * Where a process's log lines go: readable, coloured lines on a terminal (pino-pretty, loaded only
 * then), JSON lines otherwise, so a pipe or a log collector never receives colour codes.
 */
export function logDestination(format: 'auto' | 'json' | 'pretty', out: NodeJS.WriteStream = process.stdout): DestinationStream | undefined {
  if (format === 'json' || (format === 'auto' && !out.isTTY)) return undefined;
  const pretty = createRequire(import.meta.url)('pino-pretty') as (opts: Record<string, unknown>) => DestinationStream;
  return pretty({
    colorize: Boolean(out.isTTY),
    sync: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,service',
    destination: out === process.stderr ? 2 : 1,
  });
}
