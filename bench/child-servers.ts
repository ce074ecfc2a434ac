/**
 * The bench's servers under test, each in a child process of its own (child_process.fork of a script in
 * bench/servers/), and the load sent to them: start one and wait for its port, ask its CPU time or its
 * database counts, stop it; autocannon with the bench's connections, bounded by a guard.
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon, { type Options, type Result } from 'autocannon';
import type { ChildMessage, DriverMessage, ReadyMessage } from './servers/ipc.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const CONNECTIONS = 50;
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;
const IPC_TIMEOUT_MS = 30_000;

export interface Server {
  ready: ReadyMessage;
  child: ChildProcess;
}

/** What is sent to one server: its script and environment, and the path and headers of its requests. */
export interface ServedCase {
  name: string;
  script: string;
  /** Extra environment for the server's process. */
  env?: Record<string, string>;
  /** 'many': the server funds many accounts and every request carries one of their keys at random. */
  accounts?: 'one' | 'many';
  path: (ready: ReadyMessage) => string;
  headers: (ready: ReadyMessage) => Record<string, string>;
}

const children = new Set<ChildProcess>();

function waitForMessage<T extends ChildMessage['type']>(child: ChildProcess, type: T, what: string): Promise<Extract<ChildMessage, { type: T }>> {
  return new Promise((resolve, reject) => {
    const ms = type === 'ready' ? START_TIMEOUT_MS : IPC_TIMEOUT_MS;
    const timer = setTimeout(() => finish(new Error(`${what}: no "${type}" message within ${ms / 1000} s`)), ms);
    const onMessage = (m: ChildMessage) => {
      if (m.type === type) finish(undefined, m as Extract<ChildMessage, { type: T }>);
    };
    const onExit = (code: number | null) => finish(new Error(`${what}: exited (code ${code}) before sending "${type}"`));
    function finish(err?: Error, m?: Extract<ChildMessage, { type: T }>) {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (err) reject(err);
      else resolve(m!);
    }
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

export async function startServer(script: string, settings: { profileDir: string | undefined }, env: Record<string, string> = {}): Promise<Server> {
  const execArgv = settings.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${settings.profileDir}`] : [];
  const child = fork(path.join(HERE, 'servers', script), [], {
    execPath: process.execPath,
    execArgv,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.add(child);
  child.on('exit', () => children.delete(child));
  return { child, ready: await waitForMessage(child, 'ready', script) };
}

function tell(child: ChildProcess, message: DriverMessage): void {
  if (child.connected) child.send(message);
}

export async function stopServer(server: Server): Promise<void> {
  const { child } = server;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  tell(child, { type: 'stop' });
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

export async function serverCpuUs(server: Server): Promise<number> {
  const reply = waitForMessage(server.child, 'cpu', 'cpu request');
  tell(server.child, { type: 'cpu' });
  const { userUs, systemUs } = await reply;
  return userUs + systemUs;
}

export async function serverStats(server: Server): Promise<Record<string, number>> {
  const reply = waitForMessage(server.child, 'stats', 'stats request');
  tell(server.child, { type: 'stats' });
  return (await reply).stats;
}

/** Last resort (error or watchdog): the children we started, by pid. */
export function killChildren(): void {
  for (const child of children) child.kill('SIGTERM');
}

/** Each request of a many-accounts case carries one of the server's keys, picked at random. */
function randomKeyRequests(keys: string[] | undefined): Options['requests'] {
  if (!keys) return undefined;
  return [{ setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'x-api-key': keys[Math.floor(Math.random() * keys.length)] } }) }];
}

export async function load(url: string, headers: Record<string, string>, seconds: number, keys?: string[]): Promise<Result> {
  const guardMs = (seconds + 30) * 1000;
  let timer: NodeJS.Timeout | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`autocannon did not finish within ${guardMs / 1000} s`)), guardMs);
  });
  try {
    return await Promise.race([
      autocannon({ url, connections: CONNECTIONS, duration: seconds, pipelining: 1, headers, requests: randomKeyRequests(keys) }),
      guard,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
