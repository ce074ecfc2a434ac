/**
 * The per-request logger (`req.log`), made only when something is actually logged. Fastify gives every
 * request a child of the app's logger bound to its request id; with pino's redaction configured, making
 * that child costs about as much as the rest of an unauthenticated request's platform hooks, and at the
 * usual levels most requests never log a line. The child is the same pino child either way, with the
 * same bindings, made on the first call at an enabled level.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, LevelWithSilentOrString, LogFn, Logger } from 'pino';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

class LazyChildLogger {
  readonly #parent: Logger;
  readonly #bindings: Bindings;
  readonly #opts: ChildLoggerOptions;
  #child: Logger | undefined;

  constructor(parent: Logger, bindings: Bindings, opts: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#opts = opts;
  }

  #real(): Logger {
    this.#child ??= this.#parent.child(this.#bindings, this.#opts);
    return this.#child;
  }

  #log(level: Level, args: Parameters<LogFn>): void {
    if (this.#child || this.#parent.isLevelEnabled(level)) (this.#real()[level] as (...a: unknown[]) => void)(...args);
  }

  fatal(...args: Parameters<LogFn>): void {
    this.#log('fatal', args);
  }
  error(...args: Parameters<LogFn>): void {
    this.#log('error', args);
  }
  warn(...args: Parameters<LogFn>): void {
    this.#log('warn', args);
  }
  info(...args: Parameters<LogFn>): void {
    this.#log('info', args);
  }
  debug(...args: Parameters<LogFn>): void {
    this.#log('debug', args);
  }
  trace(...args: Parameters<LogFn>): void {
    this.#log('trace', args);
  }
  silent(): void {}

  get level(): LevelWithSilentOrString {
    return this.#child?.level ?? this.#opts.level ?? this.#parent.level;
  }

  set level(level: LevelWithSilentOrString) {
    this.#real().level = level;
  }

  isLevelEnabled(level: LevelWithSilentOrString): boolean {
    return this.#child ? this.#child.isLevelEnabled(level) : this.#parent.isLevelEnabled(level);
  }

  child(bindings: Bindings, opts?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#real().child(bindings, opts);
  }
}

/**
 * Fastify's `childLoggerFactory`. A route-level `logLevel` makes the child at once (it changes what is
 * enabled), as does a logger that is not pino's.
 */
export function lazyChildLogger(logger: FastifyBaseLogger, bindings: Bindings, opts: ChildLoggerOptions): FastifyBaseLogger {
  const parent = logger as unknown as Logger;
  if (opts.level !== undefined || typeof parent.isLevelEnabled !== 'function') return logger.child(bindings, opts);
  return new LazyChildLogger(parent, bindings, opts) as unknown as FastifyBaseLogger;
}
