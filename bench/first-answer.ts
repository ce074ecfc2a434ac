/**
 * The first complete answer (issue 43): a first cover lookup asks DataJud and the case-details sources
 * at the same time and answers when both are in, so it should cost the slower source, not their sum.
 * With the sandbox's latency knobs (DataJud FIRST_ANSWER_DATAJUD_MS per answer, the case-details provider
 * FIRST_ANSWER_DETAILS_MS), over FIRST_ANSWER_ROUNDS distinct cases, the medians of: the cover with
 * `Prefer: return=minimal` (DataJud alone, through the whole request path), the details alone (the
 * service's fetchParties), and the complete first cover; the target is complete ≤ 1.2 × the slower alone.
 * Standalone: node bench/first-answer.ts
 */
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createHarness } from '../test/harness.ts';

export const FIRST_ANSWER_TARGET_RATIO = 1.2;
const DATAJUD_MS = Number(process.env.FIRST_ANSWER_DATAJUD_MS ?? 1_000);
const DETAILS_MS = Number(process.env.FIRST_ANSWER_DETAILS_MS ?? 300);
const ROUNDS = Number(process.env.FIRST_ANSWER_ROUNDS ?? 5);

export interface FirstAnswer {
  datajudMs: number;
  detailsMs: number;
  rounds: number;
  /** Medians, in ms. */
  datajudAlone: number;
  detailsAlone: number;
  complete: number;
  /** complete / max(datajudAlone, detailsAlone). */
  ratio: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

export async function firstAnswerBench(): Promise<FirstAnswer> {
  const h = await createHarness({ env: { TRAMITA_RATE_LIMITS: 'lookup=100000/60s' } });
  try {
    const sandbox = h.sources.sandbox!;
    const acc = await h.createAccount({ credits: 100_000 });
    const now = h.services.clock.now().getTime();
    const cases = sandbox.dataset.cases.filter((c) => c.filedAt <= now && c.court.datajudAlias && c.partes.length > 0).slice(0, 3 * ROUNDS);
    if (cases.length < 3 * ROUNDS) throw new Error('first-answer bench: not enough sandbox cases');
    const cover = async (numero: string, headers: Record<string, string> = {}) => {
      const res = await h.inject({ method: 'GET', url: `/v1/processos/cnj/${numero}`, headers: { ...acc.headers, ...headers } });
      if (res.statusCode !== 200) throw new Error(`first-answer bench: ${res.statusCode} ${res.body.slice(0, 200)}`);
      return res.json();
    };
    sandbox.faults.set({ upstream: 'datajud', latencyMs: DATAJUD_MS });
    sandbox.faults.set({ upstream: 'portal', latencyMs: DETAILS_MS });
    const datajudAlone: number[] = [];
    const detailsAlone: number[] = [];
    const complete: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      datajudAlone.push(await timed(() => cover(cases[i]!.numero, { prefer: 'return=minimal' })));
      detailsAlone.push(await timed(() => h.capabilities.cases.service.fetchParties(cases[ROUNDS + i]!.numero)));
      complete.push(
        await timed(async () => {
          const body = await cover(cases[2 * ROUNDS + i]!.numero);
          if (!body.data.partes?.length) throw new Error('first-answer bench: the first answer came without its parties');
        }),
      );
    }
    sandbox.faults.reset();
    const r = { datajudAlone: median(datajudAlone), detailsAlone: median(detailsAlone), complete: median(complete) };
    return { datajudMs: DATAJUD_MS, detailsMs: DETAILS_MS, rounds: ROUNDS, ...r, ratio: r.complete / Math.max(r.datajudAlone, r.detailsAlone) };
  } finally {
    await h.close();
  }
}

export function describeFirstAnswer(r: FirstAnswer): string {
  return (
    `First complete answer (sandbox latencies: DataJud ${r.datajudMs} ms, case-details provider ${r.detailsMs} ms; medians of ${r.rounds} distinct ` +
    `cases): DataJud alone (Prefer: return=minimal) ${r.datajudAlone.toFixed(0)} ms, details alone ${r.detailsAlone.toFixed(0)} ms, the complete ` +
    `first cover ${r.complete.toFixed(0)} ms = ${r.ratio.toFixed(2)}× the slower alone (target <= ${FIRST_ANSWER_TARGET_RATIO}: ` +
    `${r.ratio <= FIRST_ANSWER_TARGET_RATIO ? 'MET' : 'NOT MET'}; asked one after the other they would take about ` +
    `${(r.datajudAlone + r.detailsAlone).toFixed(0)} ms).`
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(describeFirstAnswer(await firstAnswerBench()));
