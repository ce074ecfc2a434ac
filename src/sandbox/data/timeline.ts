/**
 * The life of a case as a script of TPU movements over its instances: distribuição first, then
 * despachos, intimações, petições and decisões, a judgment, maybe a recourse instance and back, and
 * for finished cases trânsito em julgado, baixa and arquivamento. Gaps are relative; `placeInTime`
 * stretches the script over the case's age so it ends before the anchor (open cases: recently), and
 * open cases may get a few movements in the days after the anchor, which appear as the clock passes.
 */
import type { Random } from './prng.ts';
import { MOVEMENTS, type MovementType } from './tpu.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export type DocumentKind = 'inicial' | 'despacho' | 'decisao' | 'sentenca' | 'acordao' | 'certidao';

export interface Step {
  /** Index of the instance in the case (0 = first instance). */
  inst: number;
  type: MovementType;
  /** Relative gap before this step (ms), stretched by placeInTime unless `fixed`. */
  gap: number;
  fixed?: boolean;
  doc?: DocumentKind;
  at: number;
}

export class Script {
  readonly steps: Step[] = [];
  readonly #rng: Random;

  constructor(rng: Random) {
    this.#rng = rng;
  }

  add(inst: number, type: MovementType, minDays: number, maxDays: number, doc?: DocumentKind): void {
    const gap = (minDays + this.#rng.float() * (maxDays - minDays)) * DAY + this.#rng.int(0, 8 * HOUR);
    this.steps.push({ inst, type, gap, ...(doc ? { doc } : {}), at: 0 });
  }

  /** A step exactly `ms` after the previous one (the "near duplicate 1 s apart" of datajud.md §8.2). */
  addFixed(inst: number, type: MovementType, ms: number): void {
    this.steps.push({ inst, type, gap: ms, fixed: true, at: 0 });
  }

  /** Routine activity: `count` steps drawn from despachos, intimações, petições, decisões, prazos. */
  filler(inst: number, count: number, execution: boolean): void {
    const rng = this.#rng;
    const start = this.steps.length;
    while (this.steps.length - start < count) {
      const kind = rng.weighted([
        { weight: 5, value: 'despacho' },
        { weight: 5, value: 'intimacao' },
        { weight: 4, value: 'peticao' },
        { weight: 3, value: 'ato' },
        { weight: 3, value: 'decisao' },
        { weight: 1, value: 'prazo' },
        { weight: execution ? 2 : 0, value: 'bloqueio' },
      ]);
      switch (kind) {
        case 'despacho':
          this.add(inst, MOVEMENTS.conclusaoDespacho, 1, 20);
          this.add(inst, MOVEMENTS.meroExpediente, 0, 5, 'despacho');
          break;
        case 'intimacao':
          this.add(inst, MOVEMENTS.expedida, 0, 3);
          if (rng.chance(0.1)) this.addFixed(inst, MOVEMENTS.expedida, 1000);
          this.add(inst, MOVEMENTS.confirmada, 1, 10);
          break;
        case 'peticao':
          this.add(inst, MOVEMENTS.peticao, 2, 30);
          if (rng.chance(0.5)) this.add(inst, rng.chance(0.5) ? MOVEMENTS.certidao : MOVEMENTS.outrosDocumentos, 0, 2, 'certidao');
          break;
        case 'ato':
          this.add(inst, MOVEMENTS.atoOrdinatorio, 1, 15);
          break;
        case 'decisao':
          this.add(inst, MOVEMENTS.conclusaoDespacho, 1, 20);
          this.add(inst, MOVEMENTS.outrasDecisoes, 0, 10, 'decisao');
          this.add(inst, MOVEMENTS.disponibilizacao, 1, 3);
          this.add(inst, MOVEMENTS.publicacao, 1, 1.2);
          break;
        case 'prazo':
          this.add(inst, MOVEMENTS.decursoPrazo, 5, 30);
          break;
        case 'bloqueio':
          this.add(inst, MOVEMENTS.bloqueio, 5, 40);
          break;
      }
    }
    this.steps.length = start + count; // the last pattern may overshoot
  }

  sentence(inst: number): void {
    const rng = this.#rng;
    this.add(inst, MOVEMENTS.conclusaoJulgamento, 5, 60);
    this.add(inst, rng.pick([MOVEMENTS.procedencia, MOVEMENTS.improcedencia, MOVEMENTS.procedenciaEmParte]), 1, 40, 'sentenca');
    this.add(inst, MOVEMENTS.disponibilizacao, 1, 3);
    this.add(inst, MOVEMENTS.publicacao, 1, 1.2);
  }

  judgment(inst: number): void {
    const rng = this.#rng;
    this.add(inst, MOVEMENTS.conclusaoJulgamento, 5, 60);
    this.add(inst, MOVEMENTS.inclusaoPauta, 10, 60);
    this.add(
      inst,
      rng.weighted([
        { weight: 4, value: MOVEMENTS.naoProvimento },
        { weight: 3, value: MOVEMENTS.provimento },
        { weight: 1, value: MOVEMENTS.naoConhecimento },
      ]),
      7,
      30,
      'acordao',
    );
    this.add(inst, MOVEMENTS.disponibilizacao, 1, 3);
    this.add(inst, MOVEMENTS.publicacao, 1, 1.2);
  }

  closing(inst: number): void {
    this.add(inst, MOVEMENTS.transitoJulgado, 15, 40);
    this.add(inst, MOVEMENTS.baixaDefinitiva, 1, 20);
    if (this.#rng.chance(0.8)) this.add(inst, MOVEMENTS.arquivamentoDefinitivo, 0, 10);
  }

  /** Movements per instance in the script. */
  countOf(inst: number, upTo = this.steps.length): number {
    let n = 0;
    for (let i = 0; i < upTo; i++) if (this.steps[i].inst === inst) n++;
    return n;
  }
}

export interface Plan {
  firstCount: number;
  execution: boolean;
  appeal: { count: number } | null;
  /** Convert physical records to electronic early in the case (old cases). */
  conversion: boolean;
  /** The juizado declines and a vara takes the case: a short instance 0, the main life from instance 1. */
  declined: boolean;
}

/** The juizado's short life before it declines competence: decision, publication, redistribution, baixa. */
function declinedPrologue(s: Script, rng: Random): void {
  s.steps.push({ inst: 0, type: MOVEMENTS.distribuicaoSorteio, gap: 0, at: 0, doc: 'inicial' });
  if (rng.chance(0.5)) s.add(0, MOVEMENTS.atoOrdinatorio, 1, 5);
  s.add(0, MOVEMENTS.conclusaoDespacho, 1, 10);
  s.add(0, MOVEMENTS.outrasDecisoes, 1, 20, 'decisao');
  s.add(0, MOVEMENTS.disponibilizacao, 1, 3);
  s.add(0, MOVEMENTS.publicacao, 1, 1.2);
  s.add(0, MOVEMENTS.redistribuicao, 5, 20);
  s.add(0, MOVEMENTS.baixaDefinitiva, 0, 2);
}

/** Writes the whole life of the case; open cases are cut later by `cutOpen`. */
export function writeScript(rng: Random, plan: Plan): Script {
  const s = new Script(rng);
  const main = plan.declined ? 1 : 0;
  const upper = main + 1;
  if (plan.declined) declinedPrologue(s, rng);
  s.steps.push({
    inst: main,
    type: rng.chance(0.9) ? MOVEMENTS.distribuicaoSorteio : MOVEMENTS.distribuicaoExclusiva,
    gap: plan.declined ? rng.int(1, 10) * DAY : 0,
    at: 0,
    ...(plan.declined ? {} : { doc: 'inicial' as const }),
  });
  const before = Math.max(2, Math.round((plan.firstCount - 6) * (plan.appeal ? 0.6 : 0.8)));
  s.filler(main, before, plan.execution);
  if (plan.conversion) s.steps.splice(rng.int(1, Math.min(3, s.steps.length)), 0, { inst: main, type: MOVEMENTS.conversao, gap: rng.int(1, 90) * DAY, at: 0 });
  s.sentence(main);
  if (plan.appeal) {
    s.add(main, MOVEMENTS.peticao, 5, 15);
    s.add(main, MOVEMENTS.remessaRecurso, 5, 30);
    s.steps.push({ inst: upper, type: MOVEMENTS.distribuicaoSorteio, gap: rng.int(1, 10) * DAY, at: 0 });
    s.filler(upper, Math.max(1, plan.appeal.count - 8), false);
    s.judgment(upper);
    s.add(upper, MOVEMENTS.transitoJulgado, 15, 40);
    s.add(upper, MOVEMENTS.remessa, 1, 10);
    s.add(upper, MOVEMENTS.baixaDefinitiva, 0, 2);
    s.add(main, MOVEMENTS.recebimento, 1, 10);
    s.filler(main, Math.max(1, plan.firstCount - s.countOf(main) - 3), plan.execution);
    s.add(main, MOVEMENTS.baixaDefinitiva, 1, 20);
    if (rng.chance(0.8)) s.add(main, MOVEMENTS.arquivamentoDefinitivo, 0, 10);
  } else {
    s.filler(main, Math.max(0, plan.firstCount - s.countOf(main) - 3), plan.execution);
    s.closing(main);
  }
  return s;
}

/** Cuts an open case somewhere in its life, keeping at least 5 movements in every instance it reached. */
export function cutOpen(rng: Random, s: Script): void {
  const min = Math.min(s.steps.length, 5);
  let k = rng.int(min, Math.max(min, s.steps.length - 2));
  const reached = (upTo: number) => new Set(s.steps.slice(0, upTo).map((st) => st.inst));
  while (k < s.steps.length && [...reached(k)].some((inst) => s.countOf(inst, k) < 5)) k++;
  s.steps.length = k;
}

/** Moves a time into court hours (10:00–22:00 UTC, 07:00–19:00 in Brasília) on the same day, keeping order within the day. */
function courtHours(t: number): number {
  const day = Math.floor(t / DAY) * DAY;
  return day + 10 * HOUR + Math.floor((t - day) / 2 / 1000) * 1000;
}

/**
 * Stretches the relative gaps so the script starts at `start` and its last step lands at `end`, in
 * court hours and whole seconds (`…T16:01:17.000Z`); times never decrease and never pass `end`.
 */
export function placeInTime(s: Script, start: number, end: number): void {
  let stretchable = 0;
  let fixed = 0;
  for (const st of s.steps)
    if (st.fixed) fixed += st.gap;
    else stretchable += st.gap;
  const scale = stretchable > 0 ? Math.max(0, end - start - fixed) / stretchable : 0;
  const last = Math.floor(Math.max(end, start) / 1000) * 1000;
  let raw = start;
  let prev = -Infinity;
  for (let i = 0; i < s.steps.length; i++) {
    const st = s.steps[i];
    if (i > 0) raw += st.fixed ? st.gap : st.gap * scale;
    const at = st.fixed && i > 0 ? prev + st.gap : Math.max(courtHours(raw), prev + 1000);
    st.at = Math.max(prev, Math.min(at, last));
    prev = st.at;
  }
}

/** 1–3 more routine movements of the last active instance, dated within `window` after `anchor`. */
export function appendFuture(rng: Random, s: Script, anchor: number, window: number): void {
  const inst = s.steps[s.steps.length - 1].inst;
  const times = Array.from({ length: rng.int(1, 3) }, () => courtHours(anchor + rng.int(1, window / 1000) * 1000)).sort((a, b) => a - b);
  const candidates = [
    MOVEMENTS.meroExpediente,
    MOVEMENTS.expedida,
    MOVEMENTS.peticao,
    MOVEMENTS.atoOrdinatorio,
    MOVEMENTS.outrasDecisoes,
    MOVEMENTS.disponibilizacao,
  ];
  let prev = s.steps[s.steps.length - 1].at;
  for (const time of times) {
    prev = Math.max(time, prev + 1000);
    const at = prev;
    const type = rng.pick(candidates);
    s.steps.push({ inst, type, gap: 0, at, ...(type === MOVEMENTS.outrasDecisoes ? { doc: 'decisao' as const } : {}) });
  }
}

export const TIME = { MINUTE, HOUR, DAY } as const;
