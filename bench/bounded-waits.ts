/**
 * A silent source never holds the answer (issue 51): a first cover lookup's latency with each auxiliary
 * source (DJEN's addressees, the case-details provider, a court's consultation page) answering, slow
 * (BOUNDED_SLOW_MS, past the deadline), silent (accepts, never answers) and refusing (403 at once),
 * against DataJud alone (`Prefer: return=minimal`), on the sandbox with the default deadline
 * (TRAMITA_AUXILIARY_DEADLINE_MS). TRAMITA_SOURCE_FAILING_AFTER is raised so every lookup waits the
 * deadline (the worst case: a failing source is skipped and costs nothing). Target: every row within
 * DataJud alone + the deadline (+ BOUNDED_MARGIN_MS for the request path's own work).
 * Standalone: node bench/bounded-waits.ts
 */
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createHarness, type Harness } from '../test/harness.ts';
import { loadConfig } from '../src/config.ts';

const ROUNDS = Number(process.env.BOUNDED_ROUNDS ?? 3);
const SLOW_MS = Number(process.env.BOUNDED_SLOW_MS ?? 10_000);
const MARGIN_MS = Number(process.env.BOUNDED_MARGIN_MS ?? 500);

type SourceKind = 'djen' | 'portal' | 'consultas';
type State = 'answering' | 'slow' | 'silent' | 'refusing';
const STATES: State[] = ['answering', 'slow', 'silent', 'refusing'];

/** How each auxiliary source is made the one a first lookup waits on. */
const SETUPS: Record<SourceKind, { label: string; env: Record<string, string>; court: (sigla: string) => boolean }> = {
  djen: { label: "DJEN's addressees", env: { TRAMITA_PORTAL_TRIBUNAIS: 'TJSP', TRAMITA_CONSULTAS: 'none' }, court: (s) => s !== 'TJSP' },
  portal: { label: 'the provider', env: { TRAMITA_CONSULTAS: 'none' }, court: (s) => s !== 'TJSP' },
  consultas: { label: "TJSP's consultation page", env: { TRAMITA_CONSULTAS: 'TJSP' }, court: (s) => s === 'TJSP' },
};

export interface BoundedRow {
  source: SourceKind;
  state: State;
  /** Median ms of a first lookup (200). */
  ms: number;
  /** How many of those answered with the parts pending. */
  pending: number;
}

export interface BoundedWaits {
  deadlineMs: number;
  rounds: number;
  datajudAlone: number;
  rows: BoundedRow[];
  /** Every row within DataJud alone + the deadline + the margin. */
  met: boolean;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function fault(h: Harness, source: SourceKind, state: State): void {
  const sandbox = h.sources.sandbox!;
  sandbox.faults.reset();
  if (state === 'slow') sandbox.faults.set({ upstream: source, latencyMs: SLOW_MS });
  if (state === 'silent') sandbox.faults.set({ upstream: source, hang: true });
  if (state === 'refusing') sandbox.faults.set({ upstream: source, status: 403 });
}

async function sourceRows(source: SourceKind): Promise<{ rows: BoundedRow[]; datajudAlone: number[] }> {
  const setup = SETUPS[source];
  const h = await createHarness({ env: { ...setup.env, TRAMITA_SOURCE_FAILING_AFTER: '100', TRAMITA_RATE_LIMITS: 'lookup=100000/60s,async=100000/60s' } });
  try {
    const sandbox = h.sources.sandbox!;
    const acc = await h.createAccount({ credits: 100_000 });
    const now = h.services.clock.now().getTime();
    const cases = sandbox.dataset.cases.filter(
      (c) => c.filedAt <= now && c.court.datajudAlias && setup.court(c.court.sigla) && c.partes.length > 0 && sandbox.dataset.visibleCase(c.numero) === c,
    );
    let next = 0;
    const take = () => {
      const c = cases[next++];
      if (!c) throw new Error('bounded-waits bench: not enough sandbox cases');
      return c.numero;
    };
    const cover = async (headers: Record<string, string> = {}) => {
      const t0 = performance.now();
      const res = await h.inject({ method: 'GET', url: `/v1/processos/cnj/${take()}`, headers: { ...acc.headers, ...headers } });
      const ms = performance.now() - t0;
      if (res.statusCode !== 200) throw new Error(`bounded-waits bench: ${res.statusCode} ${res.body.slice(0, 200)}`);
      return { ms, pending: res.json().data.enriquecimento.status === 'AGENDADO' };
    };
    const datajudAlone: number[] = [];
    for (let i = 0; i < ROUNDS; i++) datajudAlone.push((await cover({ prefer: 'return=minimal' })).ms);
    const rows: BoundedRow[] = [];
    for (const state of STATES) {
      fault(h, source, state);
      const runs = [];
      for (let i = 0; i < ROUNDS; i++) runs.push(await cover());
      rows.push({ source, state, ms: median(runs.map((r) => r.ms)), pending: runs.filter((r) => r.pending).length });
    }
    sandbox.faults.reset();
    return { rows, datajudAlone };
  } finally {
    await h.close();
  }
}

export async function boundedWaitsBench(): Promise<BoundedWaits> {
  const deadlineMs = loadConfig({}).auxiliaryDeadlineMs;
  const rows: BoundedRow[] = [];
  const alone: number[] = [];
  for (const source of Object.keys(SETUPS) as SourceKind[]) {
    const r = await sourceRows(source);
    rows.push(...r.rows);
    alone.push(...r.datajudAlone);
  }
  const datajudAlone = median(alone);
  return { deadlineMs, rounds: ROUNDS, datajudAlone, rows, met: rows.every((r) => r.ms <= datajudAlone + deadlineMs + MARGIN_MS) };
}

export function describeBoundedWaits(r: BoundedWaits): string {
  const rows = r.rows.map((x) => `${SETUPS[x.source].label} ${x.state} ${x.ms.toFixed(0)} ms (${x.pending}/${r.rounds} pending)`).join('; ');
  return (
    `Bounded waits (issue 51; sandbox, deadline ${r.deadlineMs} ms, medians of ${r.rounds} first lookups per row, slow = ${SLOW_MS} ms): DataJud alone ` +
    `${r.datajudAlone.toFixed(0)} ms; ${rows}. Target: every row <= DataJud alone + deadline + ${MARGIN_MS} ms: ${r.met ? 'MET' : 'NOT MET'}.`
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(describeBoundedWaits(await boundedWaitsBench()));
