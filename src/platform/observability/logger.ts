/**
 * pino, with secrets kept out at every level: API keys, bearer tokens, webhook secrets, passwords.
 * Request lines carry the route pattern, never the query string (it may hold a CPF or a name) nor headers.
 */
import pino, { type DestinationStream, type Logger } from 'pino';

export const REDACTED_PATHS = [
  'req.headers["x-api-key"]', 'req.headers.authorization', 'headers["x-api-key"]', 'headers.authorization',
  '*.apiKey', '*.api_key', '*.key', '*.secret', '*.token', '*.password', '*.authorization',
];

/** Anything shaped like an API key, wherever it hides (an exception message, a URL): the last net. */
const KEY_SHAPE = /trm_[0-9a-z]{10}_[0-9A-Za-z]{32}/g;

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino({
    level,
    hooks: { streamWrite: (line) => line.replace(KEY_SHAPE, 'trm_[redacted]') },
    base: { service: 'tramita' },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: {
      err: pino.stdSerializers.err,
      // Never the raw request: headers carry the key, the query may carry personal data.
      req: (req: { method?: string; routeOptions?: { url?: string }; url?: string }) => ({ method: req.method, route: req.routeOptions?.url ?? req.url?.split('?')[0] }),
    },
  }, destination);
}
