/**
 * Real processes for the tests that need them (the CLI's smoke tests, `serve` start-up, crash drills):
 * a fresh store (a temp data directory, or a fresh PostgreSQL database created from DATABASE_URL, as
 * test/harness.ts does, so these run on both engines), a free loopback port, and `tramita serve` as
 * a child process whose output can be awaited. Every child is killed when its test ends.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import type { TestContext } from 'node:test';
import pg from 'pg';
import { createPgDatabase } from './harness.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const NODE = path.join(ROOT, 'node_modules', '.bin', 'node');
export const BIN = path.join(ROOT, 'bin', 'tramita.mjs');

/** Where one set of CLI runs keeps its data: a temp dir, plus a database of its own on PostgreSQL. */
export interface Store {
  dataDir: string;
  databaseUrl: string | undefined;
  env: Record<string, string>;
  /** Every row of a table, straight from the storage (node:sqlite or pg), bypassing the app. */
  rows(table: string): Promise<Record<string, unknown>[]>;
  drop(): Promise<void>;
}

/** The parent's environment without anything that would configure Tramita or the test runner. */
function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || k.startsWith('TRAMITA_') || k === 'PORT' || k === 'DATABASE_URL' || k.startsWith('NODE_TEST')) continue;
    env[k] = v;
  }
  return env;
}

/** A fresh store on the suite's engine, or a database of its own on the PostgreSQL at `base`. */
export async function freshStore(base = process.env.DATABASE_URL): Promise<Store> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tramita-cli-'));
  if (!base) {
    return {
      dataDir,
      databaseUrl: undefined,
      env: { ...cleanEnv(), TRAMITA_DATA_DIR: dataDir },
      async rows(table) {
        const db = new DatabaseSync(path.join(dataDir, 'tramita.db'));
        try {
          return db.prepare(`SELECT * FROM ${table}`).all() as Record<string, unknown>[];
        } finally {
          db.close();
        }
      },
      drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const { url: databaseUrl, drop } = await createPgDatabase(base);
  return {
    dataDir,
    databaseUrl,
    env: { ...cleanEnv(), TRAMITA_DATA_DIR: dataDir, DATABASE_URL: databaseUrl },
    async rows(table) {
      const c = new pg.Client({ connectionString: databaseUrl });
      await c.connect();
      try {
        return (await c.query(`SELECT * FROM ${table}`)).rows;
      } finally {
        await c.end();
      }
    },
    async drop() {
      fs.rmSync(dataDir, { recursive: true, force: true });
      await drop();
    },
  };
}

export function storeFor(t: TestContext, base?: string): Promise<Store> {
  return freshStore(base).then((s) => {
    t.after(() => s.drop());
    return s;
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface Server {
  child: ChildProcess;
  output(): string;
  /** Resolves with the output once it matches; rejects if the process exits first or after `ms`. */
  waitFor(pattern: RegExp, ms?: number): Promise<RegExpMatchArray>;
  /** Resolves with the exit code and signal, or rejects after `ms`. */
  exited(ms: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** How a command run to completion ended, and what it printed. */
export interface Result {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion (killed after 60 s) and collects its output. */
export function exec(file: string, args: string[], env: Record<string, string>): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** `tramita serve` on `port` with the store's environment (plus `extra`). */
export function startServe(t: TestContext, store: Store, port: number, extra: Record<string, string> = {}): Server {
  const child = spawn(NODE, [BIN, 'serve'], { cwd: ROOT, env: { ...store.env, PORT: String(port), ...extra }, stdio: ['ignore', 'pipe', 'pipe'] });
  t.after(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let out = '';
  let listeners: (() => void)[] = [];
  const notify = () => {
    for (const l of listeners) l();
  };
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    out += d;
    notify();
  });
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    out += d;
    notify();
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => {
      resolve({ code, signal });
      notify();
    });
  });
  return {
    child,
    output: () => out,
    waitFor(pattern, ms = 30_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          done();
          reject(new Error(`timed out waiting for ${pattern}; output:\n${out}`));
        }, ms);
        const check = () => {
          const m = out.match(pattern);
          if (m) {
            done();
            resolve(m);
          } else if (child.exitCode !== null || child.signalCode !== null) {
            done();
            reject(new Error(`serve exited (${child.exitCode ?? child.signalCode}) before printing ${pattern}; output:\n${out}`));
          }
        };
        const done = () => {
          clearTimeout(timer);
          listeners = listeners.filter((l) => l !== check);
        };
        listeners.push(check);
        check();
      });
    },
    exited(ms) {
      let timer: NodeJS.Timeout | undefined;
      return Promise.race([
        exit.finally(() => clearTimeout(timer)),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`serve did not exit within ${ms} ms; output:\n${out}`)), ms);
        }),
      ]);
    },
  };
}

/** Polls `probe` every 100 ms until it gives a value; throws naming `what` after `ms`. */
export async function until<T>(what: string, ms: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
