/**
 * Matches one publication against every monitor at once: OAB monitors, publication monitors by term
 * (names, accent- and case-insensitive, whole words) and by case number. Built once from all the
 * patterns; `match` then makes one pass over the publication's text (fold.ts turns it into words),
 * and one loop over those words feeds the term automaton (term-index.ts), the OAB recognizer
 * (oab-mentions.ts) and the CNJ recognizer (cnj-mentions.ts) together. The cost of a publication
 * depends on its length, not on the number of monitors.
 *
 * Where each kind is looked for:
 * - `oab`: the structured lawyers (`advogados[].oab`) and every OAB printed in the text;
 * - `termo`: the text, the addressees' names (`destinatarios[].nome`) and the lawyers' names when
 *   the record has them (`advogados[].nome`), each name on its own (a term never spans two names);
 * - `processo`: `numeroCnj` and every CNJ number printed in the text (masked or 20 bare digits).
 *
 * Not reentrant (scratch buffers are reused between calls), which single-threaded JS never needs.
 */
import { parseOab } from '../identifiers/oab.ts';
import { UFS } from '../identifiers/uf.ts';
import { cnjMentionAt } from './cnj-mentions.ts';
import { FoldedText, KIND_DIGITS } from './fold.ts';
import { oabCandidate, oabKey, oabKeyOfParts, oabMentionAt } from './oab-mentions.ts';
import { edgeSlot, filterBit, sameWord, TermIndex, vocabularySlot, type TermIndexStats } from './term-index.ts';

export type PatternKind = 'oab' | 'termo' | 'processo';

export interface MatchPattern {
  /** Reported when the pattern is found; several patterns may share an id (reported once). */
  id: number;
  kind: PatternKind;
  /** oab: a registration in any spelling of platform/identifiers/oab.ts (canonical `SP123456`
   * preferred); termo: the raw term; processo: the 20 digits (a masked number is accepted). */
  value: string;
}

/** What `match` reads of a publication (a `PublicationRecord` fits). */
export interface MatchablePublication {
  texto: string;
  advogados: readonly { oab: { uf: string; numero: string } | null; nome?: string }[];
  destinatarios: readonly { nome: string }[];
  numeroCnj: string | null;
}

export interface RejectedPattern {
  id: number;
  kind: string;
  value: string;
  reason: string;
}

export interface MatcherStats {
  patterns: number;
  ids: number;
  oab: number;
  termos: number;
  processos: number;
  terms: TermIndexStats;
  /** Bytes of the typed arrays (the term index, id tables); the two small Maps are not counted. */
  bytes: number;
}

type Slots = number | number[];

function addSlot(map: Map<number | string, Slots>, key: number | string, slot: number): void {
  const had = map.get(key);
  if (had === undefined) map.set(key, slot);
  else if (typeof had === 'number') {
    if (had !== slot) map.set(key, [had, slot]);
  } else if (!had.includes(slot)) had.push(slot);
}

const NOT_DIGITS = /[\s.-]/g;
/** oabKey(uf, n, s) = uf × UF_SPAN + n × 27 + s. */
const UF_SPAN = 10_000_000 * 27;
const TWENTY_DIGITS = /^\d{20}$/;

export class PublicationMatcher {
  readonly #terms: TermIndex;
  /** Term index (in TermIndex order) → id slot. */
  readonly #termSlot: Int32Array;
  /** By UF index (oab-mentions.ts), then number × 27 + suffix: keys stay small integers (no boxing). */
  readonly #oab: (Map<number, Slots> | undefined)[];
  readonly #processo: Map<string, Slots>;
  /** Id slot → the id. */
  readonly #ids: number[];
  /** Id slot → the generation of the last `match` that reported it (deduplication without a Set). */
  readonly #stamp: Uint32Array;
  #generation = 0;
  readonly #text = new FoldedText();
  readonly rejected: readonly RejectedPattern[];
  readonly stats: MatcherStats;

  private constructor(
    terms: TermIndex,
    termSlot: Int32Array,
    oab: (Map<number, Slots> | undefined)[],
    processo: Map<string, Slots>,
    ids: number[],
    rejected: RejectedPattern[],
    counts: { patterns: number; oab: number; termos: number; processos: number },
  ) {
    this.#terms = terms;
    this.#termSlot = termSlot;
    this.#oab = oab;
    this.#processo = processo;
    this.#ids = ids;
    this.#stamp = new Uint32Array(ids.length);
    this.rejected = rejected;
    this.stats = {
      ...counts,
      ids: ids.length,
      terms: terms.stats,
      bytes: terms.stats.bytes + termSlot.byteLength + this.#stamp.byteLength + ids.length * 8,
    };
  }

  /**
   * Builds the matcher. A pattern whose value cannot be read (an invalid OAB, a term with no letter
   * or digit, a case number without 20 digits, an unknown kind) does not stop the others: it is
   * listed in `rejected` and never reported.
   */
  static build(patterns: readonly MatchPattern[]): PublicationMatcher {
    const slotOfId = new Map<number, number>();
    const ids: number[] = [];
    const oab: (Map<number, Slots> | undefined)[] = [];
    const processo = new Map<string, Slots>();
    const termValues: string[] = [];
    const termSlots: number[] = [];
    const termPattern: number[] = [];
    const rejected: RejectedPattern[] = [];
    const counts = { patterns: patterns.length, oab: 0, termos: 0, processos: 0 };
    const reject = (p: MatchPattern, reason: string) => rejected.push({ id: p.id, kind: String(p.kind), value: String(p.value), reason });

    for (let k = 0; k < patterns.length; k++) {
      const p = patterns[k];
      if (typeof p.value !== 'string') {
        reject(p, 'value must be a string');
        continue;
      }
      if (p.kind !== 'oab' && p.kind !== 'termo' && p.kind !== 'processo') {
        reject(p, `unknown kind ${JSON.stringify(p.kind)}`);
        continue;
      }
      let slot = slotOfId.get(p.id);
      if (slot === undefined) {
        slot = ids.length;
        slotOfId.set(p.id, slot);
        ids.push(p.id);
      }
      if (p.kind === 'termo') {
        termValues.push(p.value);
        termSlots.push(slot);
        termPattern.push(k);
        counts.termos++;
      } else if (p.kind === 'oab') {
        let key: number;
        try {
          const parsed = parseOab(p.value);
          key = oabKey(UFS.indexOf(parsed.uf as (typeof UFS)[number]), Number(parsed.numero), parsed.suffix ? parsed.suffix.charCodeAt(0) - 64 : 0);
        } catch (e) {
          reject(p, (e as Error).message);
          continue;
        }
        const uf = Math.floor(key / UF_SPAN);
        oab[uf] ??= new Map();
        addSlot(oab[uf] as Map<number | string, Slots>, key - uf * UF_SPAN, slot);
        counts.oab++;
      } else {
        const digits = p.value.replace(NOT_DIGITS, '');
        if (!TWENTY_DIGITS.test(digits)) {
          reject(p, 'a case number needs 20 digits (NNNNNNN-DD.AAAA.J.TR.OOOO)');
          continue;
        }
        addSlot(processo as Map<number | string, Slots>, digits, slot);
        counts.processos++;
      }
    }
    const terms = TermIndex.build(termValues);
    for (const t of terms.empty) {
      reject(patterns[termPattern[t]], 'the term has no letter or digit');
      counts.termos--;
    }
    return new PublicationMatcher(terms, Int32Array.from(termSlots), oab, processo, ids, rejected, counts);
  }

  /** The ids of every pattern found in `pub`, each once. */
  match(pub: MatchablePublication): number[] {
    const out: number[] = [];
    let gen = ++this.#generation;
    if (gen === 0xffffffff) {
      this.#stamp.fill(0);
      this.#generation = gen = 1;
    }
    const stamp = this.#stamp;
    const ids = this.#ids;
    const terms = this.#terms;
    const termSlot = this.#termSlot;
    const t = this.#text;

    // The text: one pass over its characters (scan), then one loop over its words that feeds the
    // term automaton (inlined here, its arrays in locals), the OAB and the CNJ recognizers.
    const n = t.scan(pub.texto);
    const { vSlots, vShift, vFilter, vFilterShift, vChars, vOffset, digitWords, rootNext, edges, eShift, fail, report, dict, outStart, outTerms } = terms;
    const vMask = (vSlots.length >> 1) - 1;
    const eMask = (edges.length >> 2) - 1;
    const { hash, start, end, kind, chars } = t;
    let state = 0;
    for (let i = 0; i < n; i++) {
      const kd = kind[i];
      // The word's vocabulary id (-1: no term has it).
      let w = -1;
      if (digitWords || kd !== KIND_DIGITS) {
        const h = hash[i];
        const bit = filterBit(h, vFilterShift);
        if ((vFilter[bit >>> 5] & (1 << (bit & 31))) !== 0) {
          for (let slot = vocabularySlot(h, vShift); ; slot = (slot + 1) & vMask) {
            const id = vSlots[2 * slot + 1];
            if (id === -1) break;
            if (vSlots[2 * slot] === h && sameWord(chars, start[i], end[i], vChars, vOffset, id)) {
              w = id;
              break;
            }
          }
        }
      }
      // The automaton's step, and the terms ending here.
      if (w < 0) state = 0;
      else {
        for (;;) {
          if (state === 0) {
            const r = rootNext[w];
            state = Math.max(r, 0);
            break;
          }
          let next = -1;
          for (let slot = edgeSlot(state, w, eShift); edges[4 * slot] !== -1; slot = (slot + 1) & eMask) {
            if (edges[4 * slot] === state && edges[4 * slot + 1] === w) {
              next = edges[4 * slot + 2];
              break;
            }
          }
          if (next >= 0) {
            state = next;
            break;
          }
          state = fail[state];
        }
        for (let s = report[state]; s !== -1; s = dict[s]) {
          for (let k = outStart[s], to = outStart[s + 1]; k < to; k++) {
            const slot = termSlot[outTerms[k]];
            if (stamp[slot] !== gen) {
              stamp[slot] = gen;
              out.push(ids[slot]);
            }
          }
        }
      }
      // Case numbers and OABs printed in the text.
      if (kd === KIND_DIGITS) {
        const len = end[i] - start[i];
        if (len === 7 || len === 20) {
          const cnj = cnjMentionAt(t, i);
          if (cnj !== null) this.#report(this.#processo.get(cnj), gen, out);
        }
      } else if (oabCandidate(t, i)) {
        const key = oabMentionAt(t, i);
        if (key >= 0) this.#reportOab(key, gen, out);
      }
    }

    // The structured fields.
    for (const a of pub.advogados) {
      if (a.oab) {
        const key = oabKeyOfParts(a.oab.uf, a.oab.numero);
        if (key >= 0) this.#reportOab(key, gen, out);
      }
      if (a.nome) this.#names(a.nome, gen, out);
    }
    for (const d of pub.destinatarios) if (d.nome) this.#names(d.nome, gen, out);
    if (pub.numeroCnj) {
      const cnj = pub.numeroCnj.length === 20 ? pub.numeroCnj : pub.numeroCnj.replace(NOT_DIGITS, '');
      this.#report(this.#processo.get(cnj), gen, out);
    }
    return out;
  }

  /** Terms in one name (its own pass: a term never spans two names). */
  #names(name: string, gen: number, out: number[]): void {
    const t = this.#text;
    const n = t.scan(name);
    const terms = this.#terms;
    const stamp = this.#stamp;
    let state = 0;
    for (let i = 0; i < n; i++) {
      state = terms.next(state, terms.wordId(t, i));
      if (state === 0) continue;
      for (let s = terms.report[state]; s !== -1; s = terms.dict[s]) {
        for (let k = terms.outStart[s], to = terms.outStart[s + 1]; k < to; k++) {
          const slot = this.#termSlot[terms.outTerms[k]];
          if (stamp[slot] !== gen) {
            stamp[slot] = gen;
            out.push(this.#ids[slot]);
          }
        }
      }
    }
  }

  #reportOab(key: number, gen: number, out: number[]): void {
    const uf = Math.floor(key / UF_SPAN);
    const byNumber = this.#oab[uf];
    if (byNumber !== undefined) this.#report(byNumber.get(key - uf * UF_SPAN), gen, out);
  }

  #report(slots: Slots | undefined, gen: number, out: number[]): void {
    if (slots === undefined) return;
    const stamp = this.#stamp;
    if (typeof slots === 'number') {
      if (stamp[slots] !== gen) {
        stamp[slots] = gen;
        out.push(this.#ids[slots]);
      }
      return;
    }
    for (const slot of slots)
      if (stamp[slot] !== gen) {
        stamp[slot] = gen;
        out.push(this.#ids[slot]);
      }
  }
}
