/**
 * Freshness of monitored cases (issue 43, "Done when"), on a simulated clock (ManualClock) against the
 * sandbox, with DataJud answering as of three days ago (`sandbox.datajud.set({ lagMs })`, as it lags the
 * courts) and the consultations of the e-SAJ/TJDFT courts enabled.
 *
 * 1. Latency. DIARIA case monitors (one check a day at the default TRAMITA_MONITOR_INTERVAL_MS of 1 h:
 *    the monitor cycle) created so that their last check before day D falls half an hour before the
 *    movement (the worst placement). At D a movement appears at the court (the sandbox case's own next
 *    movement) and DJEN publishes a communication of the case; DataJud lists the movement at D+3. The
 *    clock moves by the jobs' own period (60 s) and the due jobs run at each step; measured from D to
 *    the account's event in GET /v1/eventos (its created_at): `diario_movimentacao_nova` (DJEN; also for a
 *    third case followed HORARIA, its number last asked one step before D: issue 51 item 5),
 *    `nova_movimentacao` from the court's page (a consultation court), and `nova_movimentacao` from
 *    DataJud for a case of a court without consultation. DataJud's later copy of the page's movement
 *    must announce nothing again.
 * 2. Upstream requests. FRESHNESS_MONITORS DIARIA monitors on visible sandbox cases of every court (TJSP's
 *    consultation enabled, so its host's requests are counted alone), one simulated day after their
 *    first day (the steady state): requests per upstream, scaled to 1,000 monitored cases, and TJSP's
 *    share of its host budget (TRAMITA_CONSULTA_REQUESTS_PER_MINUTE × 1,440 a day).
 * Standalone: node bench/freshness.ts
 */
import { fileURLToPath } from 'node:url';
import { iso, ManualClock } from '../src/platform/clock.ts';
import { brasiliaDay } from '../src/platform/format.ts';
import { cycleMs, frequencyMs } from '../src/platform/monitoring/frequency.ts';
import type { SandboxCase } from '../src/sandbox/data/model.ts';
import { createHarness, json, monitorTestEnv, type Harness, type TestAccount } from '../test/harness.ts';
import { monitorCase } from '../test/case-feed.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const DATAJUD_LAG_MS = 3 * DAY;
const INTERVAL_MS = HOUR;
/** One monitor cycle: a DIARIA monitor's check period. */
const MONITOR_CYCLE_MS = frequencyMs('DIARIA', INTERVAL_MS);
const MONITORS = Number(process.env.FRESHNESS_MONITORS ?? 1_000);
const LATENCY_COURTS = ['TJSP', 'TJAL', 'TJAC', 'TJDFT'];
const BUDGET_COURT = 'TJSP';
/** The latency run's clock step: the events' created_at is the step that brought them (the cycle job runs every 60 s). */
const LATENCY_STEP_MS = 5 * MINUTE;
const START = '2026-01-01T00:00:00.000Z';

export interface SourceDelay {
  source: string;
  /** ms from D to the account's event; null when none came within the run. */
  delayMs: number | null;
  /** The monitor's own cycle (its frequency's period). */
  cycleMs: number;
  withinCycle: boolean;
}

export interface FreshnessResult {
  cycleMs: number;
  delays: SourceDelay[];
  /** `nova_movimentacao` events of the consultation case after DataJud caught up (must be 0). */
  duplicatesAfterDataJud: number;
  monitors: number;
  budgetCourtMonitors: number;
  /** Of those, the cases whose page was read in the steady day. */
  budgetCourtPagesRead: number;
  /** Upstream requests in the steady day, per 1,000 monitored cases. */
  per1000: Record<string, number>;
  budgetCourtRequests: number;
  budgetCourtBudget: number;
}

const movementsOf = (c: SandboxCase) => c.instances.flatMap((i) => i.movements);
const nextMovementAt = (c: SandboxCase, after: number) =>
  Math.min(
    ...movementsOf(c)
      .map((m) => m.at)
      .filter((at) => at > after),
  );

/** Moves the clock by `step` (the jobs' own period by default) up to `until`, running the due jobs at each step. */
async function runUntil(h: Harness, clock: ManualClock, until: number, step = cycleMs(INTERVAL_MS)): Promise<void> {
  while (clock.now().getTime() + step <= until) {
    clock.advance(step);
    await h.runJobs();
  }
}

/** A one-instance case of `courts` filed a month before `from`, whose next movement after `from` comes first. */
function caseWithNews(h: Harness, courts: (sigla: string) => boolean, from: number): SandboxCase {
  const c = h.sources
    .sandbox!.dataset.cases.filter((x) => courts(x.court.sigla) && x.court.datajudAlias && x.instances.length === 1 && x.filedAt < from - 30 * DAY)
    .filter((x) => nextMovementAt(x, from) < from + 20 * DAY)
    .sort((a, b) => nextMovementAt(a, from) - nextMovementAt(b, from))[0];
  if (!c) throw new Error('freshness bench: no sandbox case with a movement due');
  return c;
}

type FeedItem = { event: string; source: string; created_at: string; data: { numeroCnj: string; movimentacoes?: { data: string; nome: string }[] } };

/** The account's events of the case (GET /v1/eventos) of one kind whose source passes `match`. */
async function caseEvents(h: Harness, acc: TestAccount, numero: string, kind: string, match: (source: string) => boolean): Promise<FeedItem[]> {
  const res = await h.inject({ method: 'GET', url: '/v1/eventos?limit=100', headers: acc.headers });
  return (json(res).data.items as FeedItem[]).filter((e) => e.event === kind && String(e.data.numeroCnj).replace(/\D/g, '') === numero && match(e.source));
}

/** A movement as integrators dedupe it (conventions §4.3): its Brasília day and its title. */
const dayTitle = (at: number, nome: string) => `${brasiliaDay(new Date(at).toISOString())}|${nome}`;
const announces = (e: FeedItem, key: string) => (e.data.movimentacoes ?? []).some((m) => `${m.data.split('/').reverse().join('-')}|${m.nome}` === key);
const firstAt = (events: FeedItem[]) => (events.length ? Math.min(...events.map((e) => Date.parse(e.created_at))) : null);

async function latency(): Promise<Pick<FreshnessResult, 'delays' | 'duplicatesAfterDataJud'>> {
  const clock = new ManualClock(START);
  const env = monitorTestEnv(INTERVAL_MS, { TRAMITA_CONSULTAS: LATENCY_COURTS.join(','), TRAMITA_FEED_SETTLE_MS: '0', TRAMITA_LOG_LEVEL: 'error' });
  const h = await createHarness({ clock, env });
  try {
    const sandbox = h.sources.sandbox!;
    sandbox.datajud.set({ lagMs: DATAJUD_LAG_MS });
    const start = clock.now().getTime();
    const onPage = caseWithNews(h, (s) => LATENCY_COURTS.includes(s), start + 3 * DAY);
    const d = nextMovementAt(onPage, start + 3 * DAY);
    // The DataJud-only case whose next movement comes soonest after D, so both are watched in one run.
    const dataJudOnly = caseWithNews(h, (s) => !LATENCY_COURTS.includes(s), d);
    const dDataJud = nextMovementAt(dataJudOnly, d);
    // A third case, followed HORARIA, for DJEN alone (issue 51 item 5).
    const hourly = sandbox.dataset.cases.find(
      (x) => x.court.datajudAlias && x.filedAt < start - 30 * DAY && x.numero !== onPage.numero && x.numero !== dataJudOnly.numero,
    )!;
    const acc = await h.createAccount({ credits: 100_000 });
    // Created so that the second daily check falls 30 min before D: the movement waits a whole cycle.
    const created = d - MONITOR_CYCLE_MS - 30 * MINUTE - cycleMs(INTERVAL_MS);
    clock.set(new Date(created));
    await monitorCase(h, acc, onPage.numero, 'DIARIA');
    await monitorCase(h, acc, dataJudOnly.numero, 'DIARIA');
    // The HORARIA monitor is created so that its number's last ask before D falls one step (60 s) before D:
    // the communication waits a whole hour, the worst placement.
    await runUntil(h, clock, created + 25 * MINUTE, LATENCY_STEP_MS);
    // Its own account: its hourly checks' events would push the others out of the feed's first page.
    const hourlyAcc = await h.createAccount({ credits: 100_000 });
    await monitorCase(h, hourlyAcc, hourly.numero, 'HORARIA');
    await runUntil(h, clock, d, LATENCY_STEP_MS);
    clock.set(new Date(d));
    sandbox.djen.publish({ numeroProcesso: onPage.numero, texto: 'Intimação fictícia publicada no dia D (bench de frescor).' });
    sandbox.djen.publish({ numeroProcesso: hourly.numero, texto: 'Intimação fictícia publicada no dia D (bench de frescor, HORARIA).' });
    const horizon = Math.max(d, dDataJud) + DATAJUD_LAG_MS + 2 * MONITOR_CYCLE_MS;
    await runUntil(h, clock, horizon, LATENCY_STEP_MS);
    const consulta = (s: string) => s.includes('consulta');
    const movementAt = (c: SandboxCase, at: number) => {
      const m = movementsOf(c).find((x) => x.at === at)!;
      return dayTitle(m.at, m.type.nome);
    };
    const [pageKey, dataJudKey] = [movementAt(onPage, d), movementAt(dataJudOnly, dDataJud)];
    const djenAt = firstAt(await caseEvents(h, acc, onPage.numero, 'diario_movimentacao_nova', () => true));
    const hourlyAt = firstAt(await caseEvents(h, hourlyAcc, hourly.numero, 'diario_movimentacao_nova', () => true));
    const pageAt = firstAt((await caseEvents(h, acc, onPage.numero, 'nova_movimentacao', consulta)).filter((e) => announces(e, pageKey)));
    const dataJud = await caseEvents(h, acc, dataJudOnly.numero, 'nova_movimentacao', (s) => !consulta(s));
    const dataJudAt = firstAt(dataJud.filter((e) => announces(e, dataJudKey)));
    const news = (await caseEvents(h, acc, onPage.numero, 'nova_movimentacao', (s) => !consulta(s))).filter((e) => announces(e, pageKey));
    const delay = (source: string, at: number | null, from: number, cycle = MONITOR_CYCLE_MS): SourceDelay => {
      const delayMs = at === null ? null : at - from;
      return { source, delayMs, cycleMs: cycle, withinCycle: delayMs !== null && delayMs <= cycle };
    };
    return {
      delays: [
        delay(`DJEN communication (${onPage.court.sigla})`, djenAt, d),
        delay(`DJEN communication, HORARIA monitor (${hourly.court.sigla})`, hourlyAt, d, frequencyMs('HORARIA', INTERVAL_MS)),
        delay(`court page movement (${onPage.court.sigla})`, pageAt, d),
        delay(`DataJud movement (${dataJudOnly.court.sigla}, no consultation; DataJud has it at D+3)`, dataJudAt, dDataJud),
      ],
      duplicatesAfterDataJud: news.length,
    };
  } finally {
    await h.close();
  }
}

async function requestsPerDay(): Promise<Omit<FreshnessResult, 'delays' | 'duplicatesAfterDataJud' | 'cycleMs'>> {
  const clock = new ManualClock(START);
  const env = monitorTestEnv(INTERVAL_MS, {
    TRAMITA_CONSULTAS: BUDGET_COURT,
    TRAMITA_FEED_SETTLE_MS: '0',
    TRAMITA_LOG_LEVEL: 'error',
    // Room for MONITORS visible cases filed a month before the start (the harness's sandbox holds 400).
    TRAMITA_SANDBOX_CASES: String(Math.ceil(MONITORS * 1.5)),
  });
  const h = await createHarness({ clock, env });
  try {
    const sandbox = h.sources.sandbox!;
    sandbox.datajud.set({ lagMs: DATAJUD_LAG_MS });
    const now = clock.now().getTime();
    const cases = sandbox.dataset.cases.filter((c) => c.filedAt <= now - 30 * DAY && c.court.datajudAlias).slice(0, MONITORS);
    const acc = await h.createAccount({ credits: 100 * MONITORS * 1_000 });
    for (const c of cases) await monitorCase(h, acc, c.numero, 'DIARIA');
    await runUntil(h, clock, now + DAY); // the first day: first checks, first lookups, DJEN's history
    sandbox.resetStats();
    await runUntil(h, clock, now + 2 * DAY);
    const stats = sandbox.stats();
    const tjsp = cases.filter((c) => c.court.sigla === BUDGET_COURT).map((c) => c.numero);
    const read = await h.services.db
      .selectFrom('cases')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('numero_cnj', 'in', tjsp.length ? tjsp : [''])
      .where('detalhes_em', '>', iso(new Date(now + DAY)))
      .executeTakeFirstOrThrow();
    const per1000: Record<string, number> = {};
    for (const [upstream, s] of Object.entries(stats)) if (s.requests > 0) per1000[upstream] = (s.requests * 1000) / cases.length;
    return {
      monitors: cases.length,
      budgetCourtMonitors: tjsp.length,
      budgetCourtPagesRead: Number(read.n),
      per1000,
      budgetCourtRequests: stats.consultas.requests,
      budgetCourtBudget: h.config.consultaRequestsPerMinute * 1_440,
    };
  } finally {
    await h.close();
  }
}

export async function freshnessBench(): Promise<FreshnessResult> {
  return { cycleMs: MONITOR_CYCLE_MS, ...(await latency()), ...(await requestsPerDay()) };
}

const hours = (ms: number | null) => (ms === null ? 'no event' : `${(ms / HOUR).toFixed(2)} h`);

export function describeFreshness(r: FreshnessResult): string {
  const lines = r.delays.map((d) => `  ${d.source}: ${hours(d.delayMs)} after D (${d.withinCycle ? 'within' : 'NOT within'} its cycle, ${hours(d.cycleMs)})`);
  const per1000 = Object.entries(r.per1000)
    .map(([u, n]) => `${u} ${n.toFixed(1)}`)
    .join(', ');
  const share = r.budgetCourtRequests / r.budgetCourtBudget;
  return [
    `Freshness (simulated clock; DIARIA monitors, one cycle = ${hours(r.cycleMs)}, and one HORARIA; DataJud ${DATAJUD_LAG_MS / DAY} days behind the courts):`,
    ...lines,
    `  DataJud's later copy of the page's movement announced again: ${r.duplicatesAfterDataJud} time(s).`,
    `Upstream requests per 1,000 monitored cases per day (${r.monitors} DIARIA monitors, the second simulated day): ${per1000}.`,
    `  ${BUDGET_COURT} (consultation on, ${r.budgetCourtMonitors} of the monitored cases, ${r.budgetCourtPagesRead} of their pages read that day): ` +
      `${r.budgetCourtRequests} requests a day = ` +
      `${(share * 100).toFixed(2)}% of its host budget (${r.budgetCourtBudget} = TRAMITA_CONSULTA_REQUESTS_PER_MINUTE × 1,440).`,
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(describeFreshness(await freshnessBench()));
