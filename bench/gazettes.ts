/**
 * The gazettes over a simulated year (issue 16): every day of the last 365 of the STF's DJe and of the
 * TSE's DJE read from the sandbox's simulators through the real connectors (STF: CSRF handshake and
 * pages of 500; TSE: the day index and each edition's PDF, split into matérias with pdfjs) and stored
 * through the one publication ingest (store, OAB index, full-text index, matching). Reported: the
 * ingest rate (publications per second) beside the same year only fetched and parsed, without the
 * store (the baseline: the store's share is the ratio), the store's size, and the latency of local
 * searches (a party's word, an OAB, a process, words within a month) beside a primary-key read of one
 * publication in the same run. SQLite by default; DATABASE_URL for PostgreSQL.
 * The simulators' own work (generating days and PDFs) is done in a warm-up pass, outside both timings.
 * Standalone: node bench/gazettes.ts (BENCH_GAZETTE_DAYS, default 365)
 */
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { loadConfig } from '../src/config.ts';
import { buildCapabilities } from '../src/capabilities/index.ts';
import { searchGazette, searchWords } from '../src/capabilities/gazettes/search-store.ts';
import { eachDay } from '../src/platform/http/period.ts';
import { migrate } from '../src/platform/db/database.ts';
import { createLogger } from '../src/platform/observability/logger.ts';
import { createServices } from '../src/platform/services.ts';
import { openUpstreams } from '../src/cli/upstreams.ts';
import { freshDatabase } from '../test/harness.ts';

const DAYS = Number(process.env.BENCH_GAZETTE_DAYS ?? 365);
const SEARCHES = 200;

export interface GazetteBenchResult {
  engine: string;
  days: number;
  stf: { publications: number; ingestPerSecond: number; fetchOnlyPerSecond: number };
  tse: { editions: number; publications: number; ingestPerSecond: number; fetchOnlyPerSecond: number };
  storeMb: number;
  search: { kind: string; p50Ms: number; p99Ms: number; hits: number }[];
  pkP50Ms: number;
}

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

export async function gazetteBench(): Promise<GazetteBenchResult> {
  const fresh = await freshDatabase();
  const config = loadConfig({ TRAMITA_LOG_LEVEL: 'warn', TRAMITA_SANDBOX: 'on', TRAMITA_SANDBOX_CASES: '20000', TRAMITA_GAZETTE_COURTS: 'none' }, fresh.config);
  await migrate(fresh.database);
  const sources = await openUpstreams(config);
  const s = createServices(config, fresh.database, createLogger('warn'), { sources });
  const days = buildCapabilities(s).gazettes;
  const today = days.today();
  const year = eachDay({ inicio: new Date(Date.parse(today) - (DAYS - 1) * 86_400_000).toISOString().slice(0, 10), fim: today });
  const period = { inicio: year[0], fim: today };
  try {
    // Warm-up (not measured): the simulators generate each day and PDF once and keep them, so both
    // measured passes below read the same prepared answers.
    for (const d of year) {
      await sources.stf.day(d);
      for (const e of await sources.electoral.editions('TSE', d)) await sources.electoral.pdf('TSE', e.numero);
    }
    // Baseline: the same year fetched and parsed by the connectors, nothing stored.
    let t0 = performance.now();
    let stfFetched = 0;
    for (const d of year) stfFetched += (await sources.stf.day(d)).length;
    const stfFetchS = (performance.now() - t0) / 1000;
    t0 = performance.now();
    let tseFetched = 0;
    let editions = 0;
    for (const d of year) {
      for (const e of await sources.electoral.editions('TSE', d)) {
        editions++;
        tseFetched += (await sources.electoral.publications(e)).length;
      }
    }
    const tseFetchS = (performance.now() - t0) / 1000;

    t0 = performance.now();
    const stf = await days.ensure('STF', period);
    const stfS = (performance.now() - t0) / 1000;
    t0 = performance.now();
    const tse = await days.ensure('TSE', period);
    const tseS = (performance.now() - t0) / 1000;

    const storeMb =
      s.database.engine === 'sqlite'
        ? Number((await sql<{ n: number }>`SELECT page_count * page_size AS n FROM pragma_page_count(), pragma_page_size()`.execute(s.db)).rows[0].n) / 1e6
        : Number((await sql<{ n: string }>`SELECT pg_database_size(current_database()) AS n`.execute(s.db)).rows[0].n) / 1e6;

    // Search inputs taken from what was stored.
    const sample = await s.db
      .selectFrom('publications')
      .select(['id', 'destinatarios', 'numero_comunicacao', 'fonte', 'data_disponibilizacao'])
      .where('fonte', '=', 'STF')
      .limit(SEARCHES)
      .execute();
    const oabs = (await s.db.selectFrom('publication_lawyers').select('oab').distinct().limit(SEARCHES).execute()).map((r) => r.oab);
    const month = { inicio: new Date(Date.parse(today) - 29 * 86_400_000).toISOString().slice(0, 10), fim: today };
    const kinds: { kind: string; run: (i: number) => Promise<number> }[] = [
      {
        kind: "STF, a party's surname, whole period",
        run: async (i) =>
          (
            await searchGazette(
              s.db,
              s.database.engine,
              { fonte: 'STF', ...period, palavras: searchWords((JSON.parse(sample[i % sample.length].destinatarios)[0]?.nome ?? 'teste').split(' ').at(-1)) },
              { limit: 20 },
            )
          ).length,
      },
      {
        kind: 'STF + DJE, one OAB, whole period',
        run: async (i) =>
          (await searchGazette(s.db, s.database.engine, { fonte: i % 2 ? 'STF' : 'DJE eleitoral', ...period, oab: oabs[i % oabs.length] }, { limit: 20 }))
            .length,
      },
      {
        kind: 'STF, a process (class and number)',
        run: async (i) =>
          (
            await searchGazette(
              s.db,
              s.database.engine,
              { fonte: 'STF', palavras: searchWords(sample[i % sample.length].numero_comunicacao ?? '') },
              { limit: 20 },
            )
          ).length,
      },
      {
        kind: 'DJE, two words within 30 days',
        run: async (i) =>
          (
            await searchGazette(
              s.db,
              s.database.engine,
              { fonte: 'DJE eleitoral', tribunal: 'TSE', ...month, palavras: searchWords(i % 2 ? 'registro candidatura' : 'prestacao contas') },
              { limit: 20 },
            )
          ).length,
      },
    ];
    const search: GazetteBenchResult['search'] = [];
    for (const k of kinds) {
      for (let i = 0; i < 20; i++) await k.run(i); // warm-up
      const times: number[] = [];
      let hits = 0;
      for (let i = 0; i < SEARCHES; i++) {
        const t = performance.now();
        hits += await k.run(i);
        times.push(performance.now() - t);
      }
      search.push({ kind: k.kind, p50Ms: percentile(times, 50), p99Ms: percentile(times, 99), hits });
    }
    const pk: number[] = [];
    for (let i = 0; i < SEARCHES; i++) {
      const t = performance.now();
      await s.db
        .selectFrom('publications')
        .selectAll()
        .where('id', '=', sample[i % sample.length].id)
        .executeTakeFirst();
      pk.push(performance.now() - t);
    }
    return {
      engine: s.database.engine,
      days: DAYS,
      storeMb,
      stf: { publications: stf.publicacoes, ingestPerSecond: stf.publicacoes / stfS, fetchOnlyPerSecond: stfFetched / stfFetchS },
      tse: { editions, publications: tse.publicacoes, ingestPerSecond: tse.publicacoes / tseS, fetchOnlyPerSecond: tseFetched / tseFetchS },
      search,
      pkP50Ms: percentile(pk, 50),
    };
  } finally {
    await s.database.close();
    await sources.close();
    await fresh.drop();
  }
}

export function describeGazettes(r: GazetteBenchResult): string {
  const lines = [
    `Gazettes over ${r.days} days (${r.engine}): STF ${r.stf.publications} publications ingested at ${r.stf.ingestPerSecond.toFixed(0)}/s (fetch and parse ` +
      `only: ${r.stf.fetchOnlyPerSecond.toFixed(0)}/s, ratio ${(r.stf.ingestPerSecond / r.stf.fetchOnlyPerSecond).toFixed(2)}); ` +
      `TSE ${r.tse.editions} editions, ${r.tse.publications} matérias at ${r.tse.ingestPerSecond.toFixed(0)}/s (fetch, PDF and split ` +
      `only: ${r.tse.fetchOnlyPerSecond.toFixed(0)}/s, ratio ${(r.tse.ingestPerSecond / r.tse.fetchOnlyPerSecond).toFixed(2)}); ` +
      `store ${r.storeMb.toFixed(1)} MB.`,
    ...r.search.map(
      (x) =>
        `  search ${x.kind}: p50 ${x.p50Ms.toFixed(2)} ms, p99 ${x.p99Ms.toFixed(2)} ms (${x.hits} hits in ${SEARCHES} searches; ratio to a primary-key ` +
        `read ${(x.p50Ms / r.pkP50Ms).toFixed(1)})`,
    ),
    `  primary-key read of one publication: p50 ${r.pkP50Ms.toFixed(3)} ms`,
  ];
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(describeGazettes(await gazetteBench()));
