/**
 * What the soak samples and how it reports it: the server's own numbers read from its /metrics over
 * HTTP (prom-client's default process series), the database's size on disk (SQLite: its file and WAL
 * file; PostgreSQL: pg_database_size and the WAL directory), the table over time, the RSS slope and the plot.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { lineChartSvg } from './svg-chart.ts';

export interface Sample {
  /** Seconds since the load started. */
  atS: number;
  /** Requests answered so far. */
  requests: number;
  rssMb: number;
  heapMb: number;
  lagP99Ms: number;
  dbMb: number;
  walMb: number;
}

const MB = 2 ** 20;

/** One unlabelled series of a Prometheus text exposition. */
export function metricValue(text: string, name: string): number {
  const m = new RegExp(`^${name} ([0-9.eE+-]+)$`, 'm').exec(text);
  if (!m) throw new Error(`soak: /metrics has no ${name}`);
  return Number(m[1]);
}

export async function serverMetrics(base: string): Promise<Pick<Sample, 'rssMb' | 'heapMb' | 'lagP99Ms'>> {
  const text = await (await fetch(`${base}/metrics`, { signal: AbortSignal.timeout(30_000) })).text();
  return {
    rssMb: metricValue(text, 'process_resident_memory_bytes') / MB,
    heapMb: metricValue(text, 'nodejs_heap_size_used_bytes') / MB,
    lagP99Ms: metricValue(text, 'nodejs_eventloop_lag_p99_seconds') * 1000,
  };
}

/** The storage's size and its rows per table, read from outside the server. */
export interface StorageProbe {
  sizes(): Promise<Pick<Sample, 'dbMb' | 'walMb'>>;
  rowCounts(): Promise<Record<string, number>>;
  close(): Promise<void>;
}

const fileMb = (file: string) => (fs.existsSync(file) ? fs.statSync(file).size / MB : 0);

export async function storageProbe(dataDir: string, databaseUrl: string | undefined): Promise<StorageProbe> {
  if (!databaseUrl) {
    const file = path.join(dataDir, 'tramita.db');
    return {
      sizes: async () => ({ dbMb: fileMb(file), walMb: fileMb(`${file}-wal`) }),
      async rowCounts() {
        const db = new DatabaseSync(file, { readOnly: true });
        try {
          const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as { name: string }[];
          return Object.fromEntries(tables.map(({ name }) => [name, Number((db.prepare(`SELECT count(*) AS n FROM "${name}"`).get() as { n: number }).n)]));
        } finally {
          db.close();
        }
      },
      close: async () => {},
    };
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  return {
    async sizes() {
      const db = await client.query('SELECT pg_database_size(current_database())::bigint AS n');
      // The WAL directory is the cluster's (this soak's database is the only busy one on a cluster of its own).
      const wal = await client.query('SELECT coalesce(sum(size), 0)::bigint AS n FROM pg_ls_waldir()').catch(() => ({ rows: [{ n: 0 }] }));
      return { dbMb: Number(db.rows[0].n) / MB, walMb: Number(wal.rows[0].n) / MB };
    },
    async rowCounts() {
      const tables = await client.query(
        "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
      );
      const out: Record<string, number> = {};
      for (const { name } of tables.rows) out[name] = Number((await client.query(`SELECT count(*) AS n FROM "${name}"`)).rows[0].n);
      return out;
    },
    close: () => client.end(),
  };
}

/** Least-squares slope of y against x. */
export function slope(points: [number, number][]): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  let num = 0,
    den = 0;
  for (const [x, y] of points) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

/** RSS growth in MB per hour over the second half of the samples (the first half is the warm-up). */
export function rssSlopeMbPerHour(samples: Sample[]): number {
  return slope(samples.slice(Math.floor(samples.length / 2)).map((s) => [s.atS / 3600, s.rssMb]));
}

export function samplesTable(samples: Sample[]): string {
  return [
    '| time (min) | requests | RSS (MB) | heap used (MB) | lag p99 (ms) | DB (MB) | WAL (MB) |',
    '|---:|---:|---:|---:|---:|---:|---:|',
    ...samples.map(
      (s) =>
        `| ${(s.atS / 60).toFixed(1)} | ${s.requests} | ${s.rssMb.toFixed(1)} | ${s.heapMb.toFixed(1)} | ${s.lagP99Ms.toFixed(1)} | ${s.dbMb.toFixed(2)} ` +
        `| ${s.walMb.toFixed(2)} |`,
    ),
  ].join('\n');
}

export function samplesSvg(samples: Sample[], engine: string): string {
  const at = (pick: (s: Sample) => number): [number, number][] => samples.map((s) => [s.atS / 60, pick(s)]);
  return lineChartSvg({
    title: `Soak (${engine}): the server's memory and the database over time`,
    xLabel: 'minutes of load',
    yLabel: 'MB',
    series: [
      { name: 'RSS', points: at((s) => s.rssMb) },
      { name: 'heap used', points: at((s) => s.heapMb) },
      { name: 'database', points: at((s) => s.dbMb), dashed: true },
      { name: 'WAL', points: at((s) => s.walMb), dashed: true },
    ],
  });
}
