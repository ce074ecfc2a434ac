/**
 * The messages between the benchmark driver (bench/run.ts) and a server it forked: the child says
 * `ready` with its port, answers `cpu` (its own CPU time, to price a request in CPU µs) and `stats`
 * (what the driver checks in the database), and closes everything on `stop`, SIGTERM or when the
 * driver goes away, so no server (nor PostgreSQL database) outlives the run.
 */

/** Routes the Tramita bench server mounts through buildApp's extraRoutes (all answer `{data: {ok: true}}`). */
export const BENCH_ROUTES = {
  /** auth + rate limit (lookup class) + price check + debit + ledger row + search log + envelope. */
  charged: '/v1/bench/charged',
  /** Breakdown: auth + rate limit, not charged. */
  auth: '/v1/bench/auth',
  /** Breakdown: no auth, no rate-limit class, no charge: the platform's remaining hooks and the envelope. */
  open: '/v1/bench/open',
} as const;

export interface ReadyMessage {
  type: 'ready';
  port: number;
  /** null for the bare node:http baseline. */
  engine: 'sqlite' | 'postgres' | null;
  /** Anything the driver needs to send requests (API key) or to check the results. */
  details: Record<string, unknown>;
}

export interface CpuMessage {
  type: 'cpu';
  /** process.cpuUsage() of the server process (every thread), in µs. */
  userUs: number;
  systemUs: number;
}

export interface StatsMessage {
  type: 'stats';
  stats: Record<string, number>;
}

export type ChildMessage = ReadyMessage | CpuMessage | StatsMessage;
export type DriverMessage = { type: 'cpu' } | { type: 'stats' } | { type: 'stop' };

export function send(message: ChildMessage): void {
  if (!process.send) throw new Error('this script is started by bench/run.ts (child_process.fork), not directly');
  process.send(message);
}

export interface DriverHandlers {
  /** Closes the server and whatever it opened; runs once, then the process exits. */
  close: () => Promise<void>;
  /** Answers `stats`; servers without anything to check leave it out. */
  stats?: () => Promise<Record<string, number>>;
}

/** Answers the driver's messages; stops on `stop`, SIGTERM/SIGINT or when the driver goes away. */
export function handleDriver(handlers: DriverHandlers): void {
  let closing = false;
  const stop = () => {
    if (closing) return;
    closing = true;
    handlers.close().then(
      () => process.exit(0),
      (err) => {
        console.error('bench server: error while closing:', err);
        process.exit(1);
      },
    );
  };
  process.on('message', (m: DriverMessage) => {
    if (m.type === 'stop') stop();
    if (m.type === 'cpu') {
      const { user, system } = process.cpuUsage();
      send({ type: 'cpu', userUs: user, systemUs: system });
    }
    if (m.type === 'stats' && handlers.stats) {
      handlers.stats().then(
        (stats) => send({ type: 'stats', stats }),
        (err) => {
          console.error('bench server: stats failed:', err);
          process.exit(1);
        },
      );
    }
  });
  process.on('disconnect', stop);
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
