/**
 * `tramita` — the one entry point: serve | worker | migrate | accounts | keys | credits | sandbox.
 * Every command reads the same environment as the server (src/config.ts).
 */
import { parseArgs } from 'node:util';
import { loadConfig, ConfigError, type Config } from './config.ts';
import { migrate, openDatabase, type Database } from './platform/db/database.ts';
import { createLogger } from './platform/observability/logger.ts';
import { createServices, type Services } from './platform/services.ts';
import { accountsCommand, creditsCommand, keysCommand, NotFoundError, UsageError } from './cli/admin.ts';
import { serve, work } from './cli/serve.ts';
import { runSandboxCommand } from './sandbox/cli.ts';

const USAGE = `Usage: tramita <command> [options]

Commands:
  serve                                   start the HTTP server (migrates first; runs jobs in-process on SQLite)
  worker                                  run background jobs in this process (PostgreSQL deployments)
  migrate                                 apply pending database migrations
  accounts create --name N [--credits BRL] [--plan P] [--json]
  accounts list [--json]
  accounts show ID [--json]
  accounts deactivate ID | accounts activate ID
  keys create ACCOUNT_ID [--json]          prints the new key once
  keys list ACCOUNT_ID [--json]
  keys revoke KEY_ID
  credits add ACCOUNT_ID AMOUNT_BRL [--note TEXT] [--json]
  sandbox [--cases N] [--seed S] [--port P] [--latency MS]
                                          run the upstream simulator alone (fictitious DataJud + portal)

Configuration comes from the environment: see docs/configuration.md.`;

async function withServices<T>(config: Config, fn: (s: Services, database: Database) => Promise<T>): Promise<T> {
  const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
  const database = await openDatabase(config);
  try {
    await migrate(database);
    return await fn(createServices(config, database, log), database);
  } finally {
    await database.close();
  }
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command) throw new UsageError('no command given');
  if (command === 'help' || command === '--help' || command === '-h') {
    console.log(USAGE);
    return 0;
  }
  const config = loadConfig();
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
        const applied = await migrate(database);
        console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
      } finally {
        await database.close();
      }
      return 0;
    }
    case 'sandbox':
      return runSandboxCommand(config, rest);
    case 'accounts':
      return withServices(config, (s) => accountsCommand(s, rest));
    case 'keys':
      return withServices(config, (s) => keysCommand(s, rest));
    case 'credits':
      return withServices(config, (s) => creditsCommand(s, rest));
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (err) => {
    if (err instanceof UsageError || err instanceof ConfigError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(`tramita: ${(err as Error).message}\n\n${USAGE}`);
      process.exitCode = 2;
    } else if (err instanceof NotFoundError) {
      console.error(`tramita: ${err.message}`);
      process.exitCode = 1;
    } else {
      console.error(`tramita: ${(err as Error).stack ?? err}`);
      process.exitCode = 1;
    }
  },
);
