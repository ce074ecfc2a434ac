/**
 * How the cost of a request grows with the stored data (issue 19, item 8): the store is filled with
 * 20 thousand, 200 thousand and 2 million sandbox cases (generated one by one from the simulator's
 * own generator, rendered as DataJud documents and read by the real DataJud parser, their parties as
 * the portal protocol gives them), then the same requests are timed at each size through the app
 * (in-process `inject`, sequential, charged as usual): the case cover, the CPF/CNPJ listing, the term
 * search (a party's name) and the lawyer summary, for natural persons and their lawyers, then one radar
 * check (a CPF radar's steady-state check, its provider answering from the store), and the listing of
 * the biggest litigant apart. Each HTTP kind is timed twice: the first read of each sampled case or
 * person since the store was filled (once the code is warm, on other samples), which at a size larger
 * than the machine's memory comes from the disk, then repeated reads of the same samples (the hot
 * path). Reports the load time, the database's size and each request's mean cost, as a ratio to the
 * smallest size (target: ≤ 1.5 at 2 million), and writes an SVG plot of both.
 *
 * Then the daily monitor pass at 10 thousand, 100 thousand and 1 million monitors (bench/monitor-cycle.ts):
 * DataJud requests per 1,000 monitors, wall time, and the minutes those requests take at 120 a minute.
 *
 * BENCH_SCALE_CASES (default 20000,200000; the 2 million point: 20000,200000,2000000, about 29 GB of SQLite
 * and 95 minutes here), BENCH_SCALE_MONITORS (default 10000,100000; add 1000000 for the million, ~45 minutes),
 * either empty to skip that part,
 * BENCH_SCALE_REQUESTS (default 1000 per kind),
 * BENCH_SCALE_SVG (where the plot goes; default a temp file), BENCH_SCALE_STORE_DIR (keep each size's
 * SQLite store there and reuse it: storeFor, below). DATABASE_URL: PostgreSQL instead of
 * SQLite. Runnable alone: `node bench/scale.ts`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { buildApp } from '../src/app.ts';
import { buildCapabilities } from '../src/capabilities/index.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { credit } from '../src/platform/billing/ledger.ts';
import { migrate, openDatabase, sqliteFile, type Database } from '../src/platform/db/database.ts';
import { createLogger } from '../src/platform/observability/logger.ts';
import { NO_SOURCES } from '../src/platform/ports/unconfigured.ts';
import type { CaseDetailsRecord, CaseDetailsSource } from '../src/platform/ports/case-details.ts';
import type { Sources } from '../src/platform/ports/sources.ts';
import { checkRadar } from '../src/capabilities/radars/check.ts';
import { createServices, type Services } from '../src/platform/services.ts';
import { generateCase, generationContext, profilesByAlias } from '../src/sandbox/data/generate.ts';
import { visibleMovementCount, type SandboxCase } from '../src/sandbox/data/model.ts';
import { buildPools } from '../src/sandbox/data/people.ts';
import { TIME } from '../src/sandbox/data/timeline.ts';
import { renderSource } from '../src/sandbox/datajud/source.ts';
import { parseHits } from '../src/sources/datajud/parse.ts';
import { djenAddressees } from '../src/sources/djen/addressees.ts';
import { freshDatabase } from '../test/harness.ts';
import { monitorCycle, type MonitorCycleResult } from './monitor-cycle.ts';

export const SCALE_TARGET_RATIO = 1.5;
const SEED = 7;
const BATCH = 500;
const SAMPLES = 400;

export interface ScalePoint {
  cases: number;
  loadSeconds: number;
  dbMb: number | null;
  /** Mean µs per request, by kind, repeated reads (the radar: steady-state checks). */
  costUs: Record<RequestKind, number>;
  /** Mean µs of the first read of each sample, by HTTP kind (the biggest litigant, one document, aside). */
  firstReadUs: Record<SampledKind, number>;
  /** Mean KB the process read from the disk per first read (Linux's /proc/self/io; null elsewhere). */
  firstReadDiskKb: Record<SampledKind, number> | null;
  /** Mean cases on a term search's page (at most TERM_PAGE): namesakes fill more of it as the store grows. */
  termHitsPerPage: number;
}

type RequestKind = 'capa' | 'cpf_cnpj' | 'termo' | 'advogado_resumo' | 'radar' | 'cpf_cnpj_litigante';
const KINDS: RequestKind[] = ['capa', 'cpf_cnpj', 'termo', 'advogado_resumo', 'radar', 'cpf_cnpj_litigante'];
/** The kinds timed as HTTP requests; `radar` is timed as checks (measureRadarChecks). */
type HttpKind = Exclude<RequestKind, 'radar'>;
const HTTP_KINDS = KINDS.filter((k): k is HttpKind => k !== 'radar');
type SampledKind = Exclude<HttpKind, 'cpf_cnpj_litigante'>;
const SAMPLED_KINDS = HTTP_KINDS.filter((k): k is SampledKind => k !== 'cpf_cnpj_litigante');
const TERM_PAGE = 10;
/** Radars created and checked per size, each RADAR_ROUNDS times. */
const RADARS = 100;
const RADAR_ROUNDS = 10;

/**
 * What the requests ask: sampled cases, and a natural person of each (a typical party: a few cases,
 * whatever the store's size). `warmup` holds as many other samples, which warm the code without
 * touching the measured samples' data. `litigant` is the document with the most cases (a bank, a
 * state): its answer itself grows with the store, reported apart.
 */
interface SampleSet {
  numbers: string[];
  documents: string[];
  names: string[];
  oabs: string[];
}
interface Samples extends SampleSet {
  warmup: SampleSet;
  litigant: string;
}
const SAMPLE_ARRAY: Record<SampledKind, keyof SampleSet> = { capa: 'numbers', cpf_cnpj: 'documents', termo: 'names', advogado_resumo: 'oabs' };

/** The case's parties as the portal protocol gives them (sandbox/portal/server.ts), documents left out. */
function detailsOf(c: SandboxCase): CaseDetailsRecord {
  return {
    numeroCnj: c.numero,
    valorCausaCentavos: c.valorCausaCentavos,
    documentos: [],
    partes: c.partes.map((p) => ({
      polo: p.polo,
      tipo: p.tipo,
      nome: p.person.nome,
      tipoPessoa: p.person.tipoPessoa,
      documento: p.person.documento,
      advogados: p.advogados.map((l) => ({ nome: l.nome, oab: l.oab })),
    })),
  };
}

/** Generates `n` cases one at a time (never all in memory) and stores the visible ones with their parties. */
export async function fill(s: Services, n: number, onProgress: (done: number) => void): Promise<Samples> {
  const now = Date.now();
  const anchor = Math.floor(now / TIME.DAY) * TIME.DAY;
  const ctx = generationContext(SEED, anchor, 7 * TIME.DAY, buildPools(SEED, n));
  const profiles = profilesByAlias(ctx);
  const { store } = buildCapabilities(s).cases;
  const info = { name: 'DataJud', sandbox: true };
  const every = Math.max(1, Math.floor(n / (2 * SAMPLES)));
  const samples: Samples = { numbers: [], documents: [], names: [], oabs: [], warmup: { numbers: [], documents: [], names: [], oabs: [] }, litigant: '' };
  const casesPerCompany = new Map<string, number>();
  for (let start = 0; start < n; start += BATCH) {
    const batch: { c: SandboxCase; record: ReturnType<typeof parseHits>[number] }[] = [];
    for (let i = start; i < Math.min(n, start + BATCH); i++) {
      const c = generateCase(i, ctx);
      const profile = profiles.get(c.alias);
      if (c.filedAt > now || !profile) continue;
      const hits = c.instances.flatMap((inst) => {
        const visible = visibleMovementCount(inst, now);
        return visible === 0
          ? []
          : [{ _index: c.alias, _id: inst.id, sort: null, _source: renderSource({ c, inst }, profile, { visible, lastAt: inst.movements[visible - 1]!.at }) }];
      });
      const [record] = parseHits(hits);
      if (!record) continue;
      batch.push({ c, record });
      for (const p of c.partes) {
        if (p.person.tipoPessoa !== 'FISICA' && p.person.documento) casesPerCompany.set(p.person.documento, (casesPerCompany.get(p.person.documento) ?? 0) + 1);
      }
      if (i % every === 0) {
        // Every other sample warms the code up.
        const set: SampleSet = (i / every) % 2 === 0 ? samples : samples.warmup;
        set.numbers.push(c.numero);
        const person = c.partes.find((p) => p.person.tipoPessoa === 'FISICA' && p.person.documento);
        if (person) {
          set.documents.push(person.person.documento!);
          set.names.push(person.person.nome);
          // That person's own counsel: a typical lawyer. The public entities' and banks' few lawyers are
          // in a share of every case, so their summaries grow with the store, as the biggest litigant's listing.
          const lawyer = person.advogados.find((l) => l.oab);
          if (lawyer) set.oabs.push(`${lawyer.oab!.uf}${lawyer.oab!.numero}`);
        }
      }
    }
    await s.db.transaction().execute(async (trx) => {
      for (const { c, record } of batch) {
        await store.saveCase(record, info, trx);
        await store.saveDetails(detailsOf(c), trx, { documents: false });
      }
    });
    onProgress(Math.min(n, start + BATCH));
  }
  samples.litigant = [...casesPerCompany].reduce((a, b) => (b[1] > a[1] ? b : a))[0];
  return samples;
}

function dbMegabytes(dataDir: string): number {
  const file = sqliteFile({ dataDir });
  return ['', '-wal'].reduce((sum, suffix) => sum + (fs.existsSync(file + suffix) ? fs.statSync(file + suffix).size : 0), 0) / 1e6;
}

/** What a kept store (BENCH_SCALE_STORE_DIR) remembers of its filling. */
interface KeptFill {
  samples: Samples;
  loadSeconds: number;
}

/**
 * The store of one size: a fresh database, or with BENCH_SCALE_STORE_DIR (SQLite) `DIR/N`, kept after
 * the run and reused by the next one with its samples, so the repeated reads of a 2-million-case store
 * can be measured again in minutes instead of a 95-minute load. Its first reads are not first any more.
 */
async function storeFor(n: number): Promise<{
  database: Database;
  config: Pick<Config, 'dataDir' | 'databaseUrl'>;
  kept: KeptFill | undefined;
  keep(fill: KeptFill): void;
  drop(): Promise<void>;
}> {
  const dir = process.env.BENCH_SCALE_STORE_DIR;
  if (!dir || process.env.DATABASE_URL) return { ...(await freshDatabase()), kept: undefined, keep: () => {} };
  const config = { dataDir: path.join(dir, String(n)), databaseUrl: undefined };
  const file = path.join(config.dataDir, 'fill.json');
  const kept = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as KeptFill) : undefined;
  // A store whose filling was cut off is filled again from scratch.
  if (!kept) fs.rmSync(config.dataDir, { recursive: true, force: true });
  return { database: await openDatabase(config), config, kept, keep: (f) => fs.writeFileSync(file, JSON.stringify(f)), drop: async () => {} };
}

async function measurePoint(n: number, requests: number): Promise<ScalePoint> {
  const fresh = await storeFor(n);
  const config = loadConfig(
    {
      TRAMITA_LOG_LEVEL: 'warn',
      TRAMITA_CASE_FRESH_MINUTES: '525600',
      TRAMITA_RATE_LIMITS: 'lookup=100000000/1s,search=100000000/1s,monitor=100000000/1s',
      TRAMITA_WORKERS: 'off',
    },
    fresh.config,
  );
  await migrate(fresh.database);
  const s = createServices(config, fresh.database, createLogger('warn'), {
    sources: { ...NO_SOURCES, publications: NO_NEW_PUBLICATIONS, addressees: djenAddressees(() => NO_NEW_PUBLICATIONS) },
  });
  // The radars' provider answers from the store, so a check costs what Tramita does, not an upstream.
  const withProvider = createServices(config, fresh.database, createLogger('warn'), { sources: { ...NO_SOURCES, details: storeAsProvider(s) } });
  try {
    const started = performance.now();
    let shown = 0;
    const { samples, loadSeconds } = fresh.kept ?? {
      samples: await fill(s, n, (done) => {
        if (done - shown >= n / 10 || done === n) {
          shown = done;
          process.stderr.write(`  scale: ${done}/${n} cases stored (${Math.round((performance.now() - started) / 1000)} s)\n`);
        }
      }),
      loadSeconds: (performance.now() - started) / 1000,
    };
    if (!fresh.kept) fresh.keep({ samples, loadSeconds });
    collectGarbage();
    const app = await buildApp(s, buildCapabilities(s));
    const account = await s.accounts.create({ name: 'bench scale', plan: s.prices.defaultPlan });
    await credit(s.db, s.clock, account.id, 1_000_000_000, 'bench');
    const headers = { 'x-api-key': (await s.accounts.issueKey(account.id)).key };
    const costUs = {} as Record<RequestKind, number>;
    const firstReadUs = {} as Record<SampledKind, number>;
    const firstReadDiskKb = diskReadBytes() === null ? null : ({} as Record<SampledKind, number>);
    const meanUs = async (url: (i: number) => string, count: number) => {
      const t0 = performance.now();
      for (let i = 0; i < count; i++) {
        const res = await app.inject({ url: url(i), headers });
        if (res.statusCode !== 200) throw new Error(`scale bench: ${url(i)} answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
      }
      return ((performance.now() - t0) * 1000) / count;
    };
    for (const kind of SAMPLED_KINDS) {
      const measured = samples[SAMPLE_ARRAY[kind]];
      const warmup = samples.warmup[SAMPLE_ARRAY[kind]];
      await meanUs((i) => urlOf(kind, warmup[i % warmup.length]!), Math.min(200, requests));
      const readBefore = diskReadBytes();
      firstReadUs[kind] = await meanUs((i) => urlOf(kind, measured[i]!), measured.length);
      if (firstReadDiskKb) firstReadDiskKb[kind] = (diskReadBytes()! - readBefore!) / 1024 / measured.length;
      costUs[kind] = await meanUs((i) => urlOf(kind, measured[i % measured.length]!), requests);
    }
    let termHits = 0;
    for (const name of samples.names)
      termHits += (await app.inject({ url: urlOf('termo', name), headers })).json<{ data: { items: unknown[] } }>().data.items.length;
    const litigant = () => `/v1/processos?cpf_cnpj=${samples.litigant}`;
    await meanUs(litigant, Math.min(20, requests));
    costUs.cpf_cnpj_litigante = await meanUs(litigant, Math.min(200, requests));
    await app.close();
    costUs.radar = await measureRadarChecks(withProvider, account.id, headers, samples.documents);
    return {
      cases: n,
      loadSeconds,
      dbMb: config.databaseUrl ? null : dbMegabytes(config.dataDir),
      costUs,
      firstReadUs,
      firstReadDiskKb,
      termHitsPerPage: termHits / samples.names.length,
    };
  } finally {
    s.webhooks.sender.close();
    withProvider.webhooks.sender.close();
    await fresh.database.close();
    await fresh.drop();
  }
}

function urlOf(kind: SampledKind, sample: string): string {
  switch (kind) {
    case 'capa':
      return `/v1/processos/cnj/${sample}`;
    case 'cpf_cnpj':
      return `/v1/processos?cpf_cnpj=${sample}`;
    // A fixed page of 10: namesakes fill more of a page as the store grows (7 hits per 20 at 2,000
    // cases, 17 at 20,000), and the target is about the index, not about longer answers.
    case 'termo':
      return `/v1/busca/termo?limit=${TERM_PAGE}&q=${encodeURIComponent(sample)}`;
    case 'advogado_resumo':
      return `/v1/advogados/resumo?oab=${sample}`;
  }
}

/**
 * Bytes this process has read from the storage layer (page-cache hits are not counted): how much of a
 * first read is the disk's.
 */
function diskReadBytes(): number | null {
  try {
    return Number(/^read_bytes: (\d+)$/m.exec(fs.readFileSync('/proc/self/io', 'utf8'))?.[1] ?? NaN);
  } catch {
    return null;
  }
}

/**
 * A full collection before the timed requests: the load leaves the generator's garbage (gigabytes at
 * 2 million cases), which the collector would otherwise reclaim during the first kind timed.
 */
function collectGarbage(): void {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
}

/** DJEN with nothing new: the lawyer summary's recent-publications sync costs no upstream. */
const NO_NEW_PUBLICATIONS: Sources['publications'] = { ...NO_SOURCES.publications, search: async () => ({ items: [], complete: true, requests: 0 }) };

/** A case-details provider that knows what the store knows (every stored case has its parties already). */
function storeAsProvider(s: Services): CaseDetailsSource {
  const { store } = buildCapabilities(s).cases;
  return {
    info: { name: 'store', sandbox: true },
    fetchDetails: async () => null,
    findByDocument: (documento) => store.numbersByDocument(documento),
    findByName: async () => [],
    downloadDocument: async () => null,
  };
}

/**
 * Mean µs of a CPF radar's check once its baseline is taken (what every later cycle does): the
 * provider's numbers, the known results left out, the rest loaded and filtered, the radar updated.
 * The radars are created through the API, which takes their baselines.
 */
async function measureRadarChecks(s: Services, accountId: string, headers: Record<string, string>, documents: string[]): Promise<number> {
  const capabilities = buildCapabilities(s);
  const app = await buildApp(s, capabilities);
  try {
    for (const termo of [...new Set(documents)].slice(0, RADARS)) {
      const res = await app.inject({ method: 'POST', url: '/v1/monitoramentos/novos-processos', headers, payload: { termo } });
      if (res.statusCode !== 201) throw new Error(`scale bench: creating a radar answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
    }
  } finally {
    await app.close();
  }
  const radars = await s.db.selectFrom('radars').selectAll().where('account_id', '=', accountId).execute();
  for (const radar of radars) await checkRadar(capabilities.radars, radar); // warm-up
  const t0 = performance.now();
  // Each check is ~0.1 ms: enough rounds that one pause of the collector is not the result.
  for (let round = 0; round < RADAR_ROUNDS; round++) {
    for (const radar of radars) await checkRadar(capabilities.radars, radar);
  }
  return ((performance.now() - t0) * 1000) / (radars.length * RADAR_ROUNDS);
}

export async function scaleBench(): Promise<ScalePoint[]> {
  const sizes = (process.env.BENCH_SCALE_CASES || '20000,200000').split(',').map(Number);
  const requests = Number(process.env.BENCH_SCALE_REQUESTS ?? 1000);
  const points: ScalePoint[] = [];
  for (const n of sizes) {
    points.push(await measurePoint(n, requests));
    // Each point as soon as it is measured: the largest takes an hour, and a cut-off run keeps the others.
    process.stderr.write(`  scale point: ${JSON.stringify(points.at(-1))}\n`);
  }
  return points;
}

/**
 * Cost ratios against the smallest size, one colour per kind: repeated reads solid, first reads dashed,
 * on log-scaled axes (the first reads at a size past the machine's memory are several times the rest).
 */
export function scaleSvg(points: ScalePoint[]): string {
  const W = 680,
    H = 400,
    L = 60,
    R = 150,
    T = 30,
    B = 50;
  const xs = points.map((p) => Math.log10(p.cases));
  const [x0, x1] = [Math.min(...xs), Math.max(...xs, Math.min(...xs) + 1)];
  // The biggest litigant's listing grows with its answer by construction: in the table, not the plot.
  const plotted = KINDS.filter((k) => k !== 'cpf_cnpj_litigante');
  const repeated = plotted.map((k) => points.map((p) => p.costUs[k] / points[0]!.costUs[k]));
  const first = SAMPLED_KINDS.map((k) => points.map((p) => p.firstReadUs[k] / points[0]!.firstReadUs[k]));
  const all = [...repeated.flat(), ...first.flat()];
  const [yMin, yMax] = [Math.min(0.5, ...all) * 0.9, Math.max(2, ...all) * 1.1];
  const X = (v: number) => L + ((v - x0) / (x1 - x0)) * (W - L - R);
  const Y = (v: number) => H - B - ((Math.log2(v) - Math.log2(yMin)) / (Math.log2(yMax) - Math.log2(yMin))) * (H - T - B);
  const colours = ['#1b6ac9', '#c9541b', '#2e8b3e', '#8a3ec9', '#c9a21b', '#777777'];
  const line = (ratios: number[], colour: string, dashed: boolean) =>
    `<polyline fill="none" stroke="${colour}" stroke-width="2"${dashed ? ' stroke-dasharray="6 4"' : ''} ` +
    `points="${points.map((_, j) => `${X(xs[j]!).toFixed(1)},${Y(ratios[j]!).toFixed(1)}`).join(' ')}"/>` +
    points.map((_, j) => `<circle cx="${X(xs[j]!).toFixed(1)}" cy="${Y(ratios[j]!).toFixed(1)}" r="3" fill="${colour}"/>`).join('');
  const lines = plotted
    .map((k, i) => `${line(repeated[i]!, colours[i]!, false)}<text x="${W - R + 10}" y="${T + 20 + i * 18}" fill="${colours[i]}" font-size="12">${k}</text>`)
    .join('\n');
  const dashed = SAMPLED_KINDS.map((k, i) => line(first[i]!, colours[plotted.indexOf(k)]!, true)).join('\n');
  const legendY = T + 30 + plotted.length * 18;
  const legend =
    `<line x1="${W - R + 10}" x2="${W - R + 34}" y1="${legendY}" y2="${legendY}" stroke="#333" stroke-width="2"/><text x="${W - R + 40}" y="${legendY + 4}" ` +
    `font-size="11">leitura repetida</text>` +
    `<line x1="${W - R + 10}" x2="${W - R + 34}" y1="${legendY + 18}" y2="${legendY + 18}" stroke="#333" stroke-width="2" stroke-dasharray="6 4"/><text ` +
    `x="${W - R + 40}" y="${legendY + 22}" font-size="11">primeira leitura</text>`;
  const ticks = points
    .map((p, j) => `<text x="${X(xs[j]!).toFixed(1)}" y="${H - B + 18}" font-size="11" text-anchor="middle">${p.cases.toLocaleString('pt-BR')}</text>`)
    .join('');
  const yTicks = [0.5, 1, 1.5, 2, 4, 8, 16, 32]
    .filter((v) => v >= yMin && v <= yMax)
    .map(
      (v) =>
        `<text x="${L - 8}" y="${Y(v) + 4}" font-size="11" text-anchor="end">${v.toLocaleString('pt-BR')}×</text><line x1="${L}" x2="${W - R}" y1="${Y(v)}" ` +
        `y2="${Y(v)}" stroke="#ddd"/>`,
    )
    .join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif">
<rect width="100%" height="100%" fill="white"/>
<text x="${L}" y="18" font-size="13">Custo por requisição relativo a ${points[0]!.cases.toLocaleString('pt-BR')} processos (meta ` +
    `≤ ${SCALE_TARGET_RATIO.toLocaleString('pt-BR')}×; escalas log)</text>
${yTicks}
<line x1="${L}" x2="${W - R}" y1="${Y(SCALE_TARGET_RATIO)}" y2="${Y(SCALE_TARGET_RATIO)}" stroke="#c00" stroke-dasharray="2 3"/>
${ticks}
<text x="${(L + W - R) / 2}" y="${H - 10}" font-size="12" text-anchor="middle">processos armazenados</text>
${lines}
${dashed}
${legend}
</svg>
`
  );
}

export function describeScale(points: ScalePoint[], svgPath: string): string {
  const first = points[0]!;
  const last = points[points.length - 1]!;
  const cell = (us: number, base: number) => `${us.toFixed(0)} µs (${(us / base).toFixed(2)}×)`;
  const diskCell = (p: ScalePoint, k: SampledKind) => (p.firstReadDiskKb ? `, ${p.firstReadDiskKb[k].toFixed(0)} KB from disk` : '');
  const verdict = (worst: number) => `${worst.toFixed(2)}× (target <= ${SCALE_TARGET_RATIO}: ${worst <= SCALE_TARGET_RATIO ? 'MET' : 'NOT MET'})`;
  // The biggest litigant's answer grows with the store by construction: reported, not held to the target.
  const held = KINDS.filter((k) => k !== 'cpf_cnpj_litigante');
  const worstRepeated = Math.max(...held.map((k) => last.costUs[k] / first.costUs[k]));
  const worstFirst = Math.max(...SAMPLED_KINDS.map((k) => last.firstReadUs[k] / first.firstReadUs[k]));
  const termCostPerCase = (p: ScalePoint) => {
    const perCase = p.costUs.termo / p.termHitsPerPage;
    const firstPerCase = first.costUs.termo / first.termHitsPerPage;
    return `${p.cases.toLocaleString('en-US')}: ${p.termHitsPerPage.toFixed(2)}, ${perCase.toFixed(0)} µs (${(perCase / firstPerCase).toFixed(2)}×)`;
  };
  return [
    `Scale (${process.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite'}; mean cost of a request through the app, sequential, in-process).`,
    'Repeated reads of the sampled cases and people (the radar: steady-state checks):',
    `| stored cases | generated and stored in | database | ${KINDS.join(' | ')} |`,
    `|---|---|---|${KINDS.map(() => '---').join('|')}|`,
    ...points.map(
      (p) =>
        `| ${p.cases.toLocaleString('en-US')} | ${p.loadSeconds.toFixed(0)} s | ${p.dbMb === null ? '—' : `${p.dbMb.toFixed(0)} MB`} | ` +
        KINDS.map((k) => cell(p.costUs[k], first.costUs[k])).join(' | ') +
        ' |',
    ),
    'First read of each sample since the store was filled:',
    `| stored cases | ${SAMPLED_KINDS.join(' | ')} |`,
    `|---|${SAMPLED_KINDS.map(() => '---').join('|')}|`,
    ...points.map(
      (p) => `| ${p.cases.toLocaleString('en-US')} | ${SAMPLED_KINDS.map((k) => cell(p.firstReadUs[k], first.firstReadUs[k]) + diskCell(p, k)).join(' | ')} |`,
    ),
    `Term search, cases per page of ${TERM_PAGE} and cost per ` + `case: ${points.map(termCostPerCase).join('; ')}.`,
    `Worst ratio at ${last.cases.toLocaleString('en-US')} against ${first.cases.toLocaleString('en-US')}: repeated reads ${verdict(worstRepeated)}, first ` +
      `reads ${verdict(worstFirst)}. Plot: ${svgPath}`,
  ].join('\n');
}

export function writeScalePlot(points: ScalePoint[]): string {
  const target = process.env.BENCH_SCALE_SVG ?? path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tramita-scale-')), 'scale.svg');
  fs.writeFileSync(target, scaleSvg(points));
  return target;
}

export async function monitorScale(): Promise<MonitorCycleResult[]> {
  const sizes = (process.env.BENCH_SCALE_MONITORS || '10000,100000').split(',').map(Number);
  const out: MonitorCycleResult[] = [];
  for (const n of sizes) out.push(await monitorCycle(n));
  return out;
}

export function describeMonitorScale(results: MonitorCycleResult[]): string {
  const day = 24 * 60;
  return [
    "Daily monitor pass (one check of every monitor; DataJud simulated, its budget raised so the wall time is Tramita's own):",
    '| monitors | DataJud requests | per 1,000 | wall time | runs | creating them | minutes at 120 req/min |',
    '|---|---|---|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.monitors.toLocaleString('en-US')} | ${r.upstreamRequests} | ${r.requestsPer1000.toFixed(2)} | ${r.seconds.toFixed(0)} s | ${r.runs} ` +
        `| ${r.setupSeconds.toFixed(0)} s | ${r.minutesAtDataJudLimit.toFixed(1)} ` +
        `(${r.minutesAtDataJudLimit <= day ? 'fits in a day' : 'DOES NOT fit in a day'}) |`,
    ),
  ].join('\n');
}

if (import.meta.main) {
  if (process.env.BENCH_SCALE_CASES !== '') {
    const points = await scaleBench();
    console.log(describeScale(points, writeScalePlot(points)));
  }
  if (process.env.BENCH_SCALE_MONITORS !== '') console.log(describeMonitorScale(await monitorScale()));
}
