/**
 * The `tramita` command's logic, runnable in-process (tests) as well as from the entry point
 * (src/main.ts): the environment and the output streams are given, and every outcome is an exit
 * code — 0, 1 (a named thing does not exist, or a failure), 2 (the command line or the configuration
 * is wrong, with the usage). `serve`, `worker` and `sandbox` run until a signal.
 */
import { parseArgs } from 'node:util';
import { loadConfig, ConfigError, type Config, type Env } from '../config.ts';
import { migrate, openDatabase, type Database } from '../platform/db/database.ts';
import { createLogger, logDestination } from '../platform/observability/logger.ts';
import { createServices, type Services } from '../platform/services.ts';
import { isApiError } from '../platform/errors.ts';
import { accountsCommand, creditsCommand, keysCommand, NotFoundError, UsageError, usersCommand } from './admin.ts';
import { backupCommand } from './backup.ts';
import { serve, work } from './serve.ts';
import { precatoriosCommand } from './precatorios.ts';
import { consultasCommand } from './consultas.ts';
import { explainStartupFailure } from './startup-failure.ts';

/** Where a run reads its settings and writes its lines. */
export interface CliIo {
  env: Env;
  /** One line (or block) of output, newline added. */
  out(text: string): void;
  /** One line (or block) of diagnostics, newline added. */
  err(text: string): void;
}

export const PROCESS_IO: CliIo = {
  env: process.env,
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
};

const USAGE = `Usage: tramita <command> [options]

Commands:
  serve                                   start the HTTP server (migrates first; runs jobs in-process on SQLite)
  worker                                  run background jobs in this process (PostgreSQL deployments)
  migrate                                 apply pending database migrations
  backup DIR [--json]                     copy the running SQLite store and its secrets key into DIR (new or empty),
                                          which a server then serves as its TRAMITA_DATA_DIR; PostgreSQL: pg_dump
  accounts create --name N [--credits BRL] [--plan P] [--json]
  accounts list [--json]
  accounts show ID [--json]
  accounts deactivate ID | accounts activate ID
  keys create ACCOUNT_ID [--json]          prints the new key once
  keys list ACCOUNT_ID [--json]
  keys revoke KEY_ID
  users invite ACCOUNT_ID EMAIL [--json]   prints a one-time link to set a console password (/console)
  credits add ACCOUNT_ID AMOUNT_BRL [--note TEXT] [--json]
  precatorios import FILE --tribunal SIGLA [--fonte-url URL] [--json]
                                          a court's precatório list (CSV or XLSX) into the store; re-importing updates
  consultas verificar [SIGLA...] [--processo SIGLA=CNJ]... [--json]
                                          ask each enabled court consultation for one case (given, or the last one
                                          consulted): reachable, challenge, page read, lines read in part (exit 1 if unread)
  consultas esqueleto CNJ DIR             the court's pages for that case saved into DIR reduced to their structure
                                          (text and values shaped, tags, ids and classes kept): no personal data
  sandbox [--cases N] [--seed S] [--port P] [--latency MS]
                                          run the upstream simulator alone (fictitious DataJud + portal)

Configuration comes from the environment: see docs/configuration.md.`;

async function withServices<T>(config: Config, fn: (s: Services, database: Database) => Promise<T>): Promise<T> {
  const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel, logDestination(config.logFormat, process.stderr));
  const database = await openDatabase(config);
  let services: Services | undefined;
  try {
    await migrate(database);
    services = createServices(config, database, log);
    return await fn(services, database);
  } finally {
    services?.webhooks.sender.close();
    await database.close();
  }
}

async function dispatch(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  if (!command) throw new UsageError('no command given');
  if (command === 'help' || command === '--help' || command === '-h') {
    io.out(USAGE);
    return 0;
  }
  const config = loadConfig(io.env);
  switch (command) {
    case 'serve':
      parseArgs({ args: rest, options: {}, strict: true });
      return serve(config);
    case 'worker':
      parseArgs({ args: rest, options: {}, strict: true });
      return work(config);
    case 'migrate': {
      parseArgs({ args: rest, options: {}, strict: true });
      const database = await openDatabase(config);
      try {
        // On an existing database, a line before each: some rewrite tables that grow with the store.
        const applied = await migrate(database, { starting: (name) => io.out(`applying ${name}…`), applied: () => {} });
        io.out(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
      } finally {
        await database.close();
      }
      return 0;
    }
    case 'backup':
      return backupCommand(config, rest, io.out);
    case 'sandbox':
      return (await import('../sandbox/cli.ts')).runSandboxCommand(config, rest, io);
    case 'accounts':
      return withServices(config, (s) => accountsCommand(s, rest, io.out));
    case 'keys':
      return withServices(config, (s) => keysCommand(s, rest, io.out));
    case 'credits':
      return withServices(config, (s) => creditsCommand(s, rest, io.out));
    case 'users':
      return withServices(config, (s) => usersCommand(s, rest, io.out));
    case 'precatorios':
      return withServices(config, (s) => precatoriosCommand(s, rest, io.out));
    case 'consultas':
      return withServices(config, (s) => consultasCommand(s, rest, io.out));
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

/** Runs one command; never rejects: every failure is a message on `err` and an exit code. */
export async function runCli(argv: string[], io: CliIo = PROCESS_IO): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (err) {
    if (err instanceof ConfigError) {
      io.err(`tramita: ${err.message}`); // names the setting; the usage would bury it
      return 2;
    }
    if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`tramita: ${(err as Error).message}\n\n${USAGE}`);
      return 2;
    }
    if (err instanceof NotFoundError) {
      io.err(`tramita: ${err.message}`);
      return 1;
    }
    if (isApiError(err)) {
      io.err(`tramita: ${err.code}: ${err.message}`); // a rule of the service refused it (e.g. API_KEY_LIMIT_REACHED)
      return 1;
    }
    const explained = explainStartupFailure(err, io.env);
    io.err(`tramita: ${explained ?? (err as Error).stack ?? err}`);
    return 1;
  }
}
