/**
 * Caderno ingest (issue 5): one day's bulk caderno of one court from the sandbox's DJEN simulator
 * (CADERNO_BENCH_COMMUNICATIONS communications, default 20,000), read through the real DJEN connector
 * (metadata, ZIP download to a temp file, one JSON page at a time) and stored through the publication
 * ingest (store, OAB index, full-text index, matching, events) on SQLite. Reports communications per
 * second and the process's peak RSS (which also holds the sandbox's data set).
 */
import { loadConfig } from '../src/config.ts';
import { buildCapabilities } from '../src/capabilities/index.ts';
import { migrate } from '../src/platform/db/database.ts';
import { createLogger } from '../src/platform/observability/logger.ts';
import { createServices } from '../src/platform/services.ts';
import { openUpstreams } from '../src/cli/upstreams.ts';
import { freshDatabase } from '../test/harness.ts';

export interface CadernoIngestResult {
  communications: number;
  /** JSON pages of the caderno's ZIP. */
  paginas: number;
  seconds: number;
  perSecond: number;
  peakRssMb: number;
}

export async function cadernoIngest(target = Number(process.env.CADERNO_BENCH_COMMUNICATIONS ?? 20_000)): Promise<CadernoIngestResult> {
  const fresh = await freshDatabase();
  const config = loadConfig(
    { TRAMITA_LOG_LEVEL: 'warn', TRAMITA_SANDBOX: 'on', TRAMITA_SANDBOX_CASES: '20000', DJEN_REQUESTS_PER_MINUTE: '100000' },
    fresh.config,
  );
  await migrate(fresh.database);
  const sources = await openUpstreams(config);
  const s = createServices(config, fresh.database, createLogger('warn'), { sources });
  const ingest = buildCapabilities(s).publications.ingest;
  const source = sources.publications;
  const sandbox = sources.sandbox!;
  // One big day: the simulator publishes `target` communications today at the busiest court, as a
  // large court's real caderno holds (TJSP: about 220,000 a day, djen.md §4.6).
  const byCourt = new Map<string, string[]>();
  for (const c of sandbox.dataset.cases) byCourt.set(c.court.sigla, [...(byCourt.get(c.court.sigla) ?? []), c.numero]);
  const [sigla, numbers] = [...byCourt.entries()].filter(([k]) => k !== 'STF').sort((a, b) => b[1].length - a[1].length)[0];
  for (let i = 0; i < target; i++) sandbox.djen.publish({ numeroProcesso: numbers[i % numbers.length] });
  const today = new Date().toISOString().slice(0, 10);
  let communications = 0;
  const started = performance.now();
  try {
    const info = await source.caderno(sigla, today, 'D', async (items) => {
      communications += items.length;
      await ingest.ingest(items, source.info);
    });
    const seconds = (performance.now() - started) / 1000;
    return { communications, paginas: info.paginas, seconds, perSecond: communications / seconds, peakRssMb: process.resourceUsage().maxRSS / 1024 };
  } finally {
    s.webhooks.sender.close();
    await sources.close();
    await fresh.database.close();
    await fresh.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await cadernoIngest(), null, 2));
