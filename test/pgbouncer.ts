/**
 * A real PgBouncer (Debian's package) in transaction mode in front of the test PostgreSQL, for the
 * tests of what a pooler does to the connection's state. Debian's 1.18 does not carry named
 * statements across its server connections (that came in 1.21), which is the case under test.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './processes.ts';

export const PGBOUNCER = '/usr/sbin/pgbouncer';

export interface PgBouncer {
  /** `databaseUrl` with PgBouncer's address instead of PostgreSQL's. */
  url: string;
  stop(): Promise<void>;
}

/** Starts PgBouncer with `serverConnections` server connections per database, pooling per transaction. */
export async function startPgBouncer(databaseUrl: string, serverConnections: number): Promise<PgBouncer> {
  const target = new URL(databaseUrl);
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tramita-pgbouncer-'));
  const ini = path.join(dir, 'pgbouncer.ini');
  fs.writeFileSync(
    ini,
    [
      '[databases]',
      `* = host=${target.hostname} port=${target.port} user=${decodeURIComponent(target.username)}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'auth_type = any',
      'pool_mode = transaction',
      `default_pool_size = ${serverConnections}`,
      'max_client_conn = 200',
      'unix_socket_dir =',
      'ignore_startup_parameters = extra_float_digits,options',
    ].join('\n'),
  );
  fs.chmodSync(dir, 0o755);
  fs.chmodSync(ini, 0o644);
  // PgBouncer refuses to run as root: it switches to the cluster's owner (scripts/pg-cluster.sh).
  const asRoot = process.getuid?.() === 0 ? ['-u', 'postgres'] : [];
  const child = spawn(PGBOUNCER, [...asRoot, ini], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    child.kill('SIGTERM');
    await exited;
    fs.rmSync(dir, { recursive: true, force: true });
  };
  for (let attempt = 0; attempt < 100; attempt++) {
    if (await accepts(port)) {
      const url = new URL(databaseUrl);
      url.port = String(port);
      return { url: url.toString(), stop };
    }
    if (child.exitCode !== null) break;
    await sleep(50);
  }
  await stop();
  throw new Error(`PgBouncer did not start: ${stderr.slice(-500)}`);
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
