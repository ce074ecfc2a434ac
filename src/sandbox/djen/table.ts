/**
 * The generated communications as a compact table: which movements of which cases produced a
 * communication, and of what kind. About a fifth of the movements do (a disponibilização becomes an
 * Intimação of the sentence, acórdão or decision before it, an ato ordinatório an Intimação, the
 * distribuição a Lista de distribuição, the first expedição a Citação — rarely by Edital —, the
 * inclusão em pauta a Pauta de julgamento), dated on the movement's day; ~2% are cancelled.
 *
 * Why typed arrays: the default sandbox (20,000 cases) has ~90,000 communications, and rendering
 * them all up front (HTML texto, lawyers, JSON) would cost hundreds of MB. The table keeps ~19 bytes
 * per communication (case, instance, movement, day, flags, rank); items are rendered on demand.
 * Each case draws from its own PRNG stream, so the table depends only on (seed, cases).
 */
import type { SandboxDataset } from '../data/dataset.ts';
import type { Instance } from '../data/model.ts';
import { Random } from '../data/prng.ts';
import { brasiliaDayOf } from './dates.ts';
import type { Meio, Polo } from './model.ts';

export interface Kind {
  tipoComunicacao: string;
  tipoDocumento: string;
  meio: Meio;
}

export const KINDS: readonly Kind[] = [
  { tipoComunicacao: 'Lista de distribuição', tipoDocumento: 'Distribuição', meio: 'D' },
  { tipoComunicacao: 'Pauta de julgamento', tipoDocumento: 'Outros', meio: 'D' },
  { tipoComunicacao: 'Intimação', tipoDocumento: 'Sentença', meio: 'D' },
  { tipoComunicacao: 'Intimação', tipoDocumento: 'Acórdão', meio: 'D' },
  { tipoComunicacao: 'Intimação', tipoDocumento: 'DESPACHO/DECISÃO', meio: 'D' },
  { tipoComunicacao: 'Intimação', tipoDocumento: 'Ato ordinatório', meio: 'D' },
  { tipoComunicacao: 'Intimação', tipoDocumento: 'Notificação', meio: 'D' },
  { tipoComunicacao: 'Citação', tipoDocumento: 'DESPACHO/DECISÃO', meio: 'D' },
  { tipoComunicacao: 'Edital', tipoDocumento: 'Outros', meio: 'E' },
];
const K = { lista: 0, pauta: 1, sentenca: 2, acordao: 3, despacho: 4, ato: 5, notificacao: 6, citacao: 7, edital: 8 } as const;

/** Flags byte: kind (bits 0–3), addressed polo (bits 4–5: 0 every party, 1 ativo, 2 passivo), cancelled (bit 6). */
const POLO_SHIFT = 4;
const CANCELLED = 0x40;
const POLOS: readonly (Polo | null)[] = [null, 'A', 'P'];

export const flagKind = (flags: number): Kind => KINDS[flags & 0x0f];
export const flagPolo = (flags: number): Polo | null => POLOS[(flags >> POLO_SHIFT) & 0x03];
export const flagCancelled = (flags: number): boolean => (flags & CANCELLED) !== 0;

const SENTENCES = new Set([219, 220, 221]);
const JUDGMENTS = new Set([235, 237, 239]);

/** What the case's history so far says about the next communication. */
interface CaseState {
  /** The decision a disponibilização publishes. */
  lastDecision: number;
  cited: boolean;
}

function onePolo(rng: Random): number {
  return rng.chance(0.5) ? 1 : 2;
}

/** The flags of the communication this movement produces, or -1. */
function decide(rng: Random, code: number, inst: number, mov: number, state: CaseState): number {
  if (SENTENCES.has(code)) state.lastDecision = K.sentenca;
  else if (JUDGMENTS.has(code)) state.lastDecision = K.acordao;
  else if (code === 12164) state.lastDecision = K.despacho;
  let kind = -1;
  let polo = 0;
  switch (code) {
    case 1061:
      if (rng.chance(0.92)) kind = state.lastDecision;
      break;
    case 26:
      if (rng.chance(0.5)) kind = K.lista;
      break;
    case 12104:
      if (rng.chance(0.9)) kind = K.pauta;
      break;
    case 11010:
      if (rng.chance(0.3)) [kind, polo] = [K.despacho, rng.chance(0.5) ? 0 : onePolo(rng)];
      break;
    case 11383:
      if (rng.chance(0.6)) [kind, polo] = [K.ato, onePolo(rng)];
      break;
    case 12265:
      if (inst === 0 && mov <= 8 && !state.cited && rng.chance(0.6)) {
        state.cited = true;
        [kind, polo] = [rng.chance(0.04) ? K.edital : K.citacao, 2];
      } else if (rng.chance(0.15)) [kind, polo] = [K.notificacao, onePolo(rng)];
      break;
  }
  if (kind < 0) return -1;
  return kind | (polo << POLO_SHIFT) | (rng.chance(0.02) ? CANCELLED : 0);
}

export class CommunicationTable {
  readonly count: number;
  /** Per position (grouped by case, in case order): the source movement and what it produced. */
  readonly caseOf: Uint32Array;
  readonly inst: Uint8Array;
  readonly mov: Uint8Array;
  readonly day: Int32Array;
  readonly flags: Uint8Array;
  /** Positions of case i: caseStart[i] … caseStart[i + 1] - 1. */
  readonly caseStart: Uint32Array;
  /** Chronological rank of each position, and the position of each rank. */
  readonly rankOf: Uint32Array;
  readonly posOf: Uint32Array;

  constructor(dataset: SandboxDataset) {
    const cases = dataset.cases;
    let capacity = 0;
    for (const c of cases) for (const i of c.instances) capacity += i.movements.length;
    const caseOf = new Uint32Array(capacity);
    const inst = new Uint8Array(capacity);
    const mov = new Uint8Array(capacity);
    const flags = new Uint8Array(capacity);
    const at = new Float64Array(capacity);
    this.caseStart = new Uint32Array(cases.length + 1);
    let n = 0;
    for (const c of cases) {
      this.caseStart[c.index] = n;
      const rng = new Random(dataset.seed, 'djen', c.index);
      const state: CaseState = { lastDecision: K.despacho, cited: false };
      c.instances.forEach((instance: Instance, i) => {
        instance.movements.forEach((m, k) => {
          const f = decide(rng, m.type.codigo, i, k, state);
          if (f < 0) return;
          caseOf[n] = c.index;
          inst[n] = i;
          mov[n] = k;
          flags[n] = f;
          at[n] = m.at;
          n++;
        });
      });
    }
    this.caseStart[cases.length] = n;
    this.count = n;
    this.caseOf = caseOf.slice(0, n);
    this.inst = inst.slice(0, n);
    this.mov = mov.slice(0, n);
    this.flags = flags.slice(0, n);
    this.day = new Int32Array(n);
    for (let p = 0; p < n; p++) this.day[p] = brasiliaDayOf(at[p]);
    this.posOf = new Uint32Array(n);
    for (let p = 0; p < n; p++) this.posOf[p] = p;
    this.posOf.sort((a, b) => at[a] - at[b] || a - b);
    this.rankOf = new Uint32Array(n);
    for (let r = 0; r < n; r++) this.rankOf[this.posOf[r]] = r;
  }

  /** Bytes held by the table's arrays. */
  bytes(): number {
    return [this.caseOf, this.inst, this.mov, this.day, this.flags, this.caseStart, this.rankOf, this.posOf].reduce((n, a) => n + a.byteLength, 0);
  }

  /** Number of ranks whose day is ≤ `day` (ranks are chronological, so days never decrease with rank). */
  ranksUpTo(day: number): number {
    let lo = 0;
    let hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.day[this.posOf[mid]] <= day) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
