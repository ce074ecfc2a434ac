/**
 * Whole-word multi-term index: an Aho-Corasick automaton whose alphabet is words, not characters.
 *
 * Why words: terms are names matched on word boundaries ("ana silva" must not match inside
 * "mariana silvana"). The scanner (fold.ts) already splits the text into folded words and hashes
 * each one as it copies it, so a word-level automaton costs one hash-table probe per word of text —
 * about 6 characters — where a character-level one costs a transition per character plus a
 * word-boundary check at both ends of every candidate. It is also far smaller: 100,000 names of ~5
 * words make a trie of a few hundred thousand word-nodes (a character trie would have millions of
 * nodes). A text word that no term contains is not in the vocabulary and sends the automaton back to
 * its root; a known word follows goto/failure links as in classic Aho-Corasick, so every term is
 * found in one left-to-right pass, overlapping ones included ("maria", "maria silva", "silva").
 *
 * Layout (all typed arrays, no object or Map per node, none even during the build):
 * - vocabulary: open-addressing table (hash → word id, load <= 1/4), word characters in one
 *   Uint16Array; a probe compares the stored 32-bit hash, then the characters (so hash collisions
 *   cannot match); in front of it a bit set of the hashes (16+ bits per word, ~128 KB for 50,000
 *   words: it stays in cache) turns most words of ordinary prose away without touching the table;
 * - transitions: the root's in a direct array indexed by word id, all others in one open-addressing
 *   table keyed by (state, word), entries interleaved [state, word, next, -] (one cache line);
 * - per state: failure link, dictionary link (nearest suffix state that ends a term), and a CSR range
 *   of the terms that end there.
 * Measured (bench/matching.ts): 100,000 names → ~47,000 words, ~128,000 states, ~12.5 MB of typed
 * arrays, built in 0.1–0.3 s.
 */
import { FoldedText, KIND_DIGITS } from './fold.ts';

const EMPTY = -1;

function nextPow2(n: number): number {
  let p = 16;
  while (p < n) p *= 2;
  return p;
}

function log2(p: number): number {
  return 31 - Math.clz32(p);
}

export interface TermIndexStats {
  terms: number;
  words: number;
  states: number;
  transitions: number;
  bytes: number;
}

export class TermIndex {
  // The arrays are public for the matcher's inner loop (matcher.ts hoists them into locals); treat
  // them as read-only.
  /** Vocabulary slots, interleaved: [2s] = hash of the word, [2s + 1] = word id, or -1 when empty. */
  readonly vSlots: Int32Array;
  readonly vShift: number;
  /** Bit set of word hashes (another mix of them): a clear bit means "no term has this word" without
   * touching the slots — it stays in L2 cache, the slots may not. */
  readonly vFilter: Int32Array;
  readonly vFilterShift: number;
  readonly vChars: Uint16Array;
  readonly vOffset: Int32Array;
  /** Whether any term has a word of digits only (else digit words skip the vocabulary probe). */
  readonly digitWords: boolean;
  /** The root's transitions, by word id (-1: none). */
  readonly rootNext: Int32Array;
  /** Other transitions, interleaved by 4: [state, word, next, unused]; state -1 when empty. */
  readonly edges: Int32Array;
  readonly eShift: number;
  readonly fail: Int32Array;
  /** Nearest state on the failure chain (itself included) where terms end, or -1. */
  readonly report: Int32Array;
  /** Next state after this one, on its failure chain, where terms end, or -1. */
  readonly dict: Int32Array;
  readonly outStart: Int32Array;
  readonly outTerms: Int32Array;
  readonly stats: TermIndexStats;
  /** Indexes (in the `terms` given to `build`) of the terms that fold to nothing; never found. */
  readonly empty: readonly number[];

  private constructor(parts: {
    vSlots: Int32Array;
    vFilter: Int32Array;
    vChars: Uint16Array;
    vOffset: Int32Array;
    digitWords: boolean;
    rootNext: Int32Array;
    edges: Int32Array;
    fail: Int32Array;
    report: Int32Array;
    dict: Int32Array;
    outStart: Int32Array;
    outTerms: Int32Array;
    terms: number;
    empty: number[];
    transitions: number;
  }) {
    this.vSlots = parts.vSlots;
    this.vShift = 32 - log2(parts.vSlots.length / 2);
    this.vFilter = parts.vFilter;
    this.vFilterShift = 32 - log2(parts.vFilter.length * 32);
    this.vChars = parts.vChars;
    this.vOffset = parts.vOffset;
    this.digitWords = parts.digitWords;
    this.rootNext = parts.rootNext;
    this.edges = parts.edges;
    this.eShift = 32 - log2(parts.edges.length / 4);
    this.fail = parts.fail;
    this.report = parts.report;
    this.dict = parts.dict;
    this.outStart = parts.outStart;
    this.outTerms = parts.outTerms;
    this.empty = parts.empty;
    const arrays = [
      parts.vSlots,
      parts.vFilter,
      parts.vChars,
      parts.vOffset,
      parts.rootNext,
      parts.edges,
      parts.fail,
      parts.report,
      parts.dict,
      parts.outStart,
      parts.outTerms,
    ];
    this.stats = {
      terms: parts.terms,
      words: parts.vOffset.length - 1,
      states: parts.fail.length,
      transitions: parts.transitions,
      bytes: arrays.reduce((sum, a) => sum + a.byteLength, 0),
    };
  }

  /**
   * Builds the index of `terms` (raw: folded here with fold.ts); the term at index i is reported as
   * i. Terms that fold to the same words share their state; a term that folds to nothing is listed
   * in `empty` and never reported.
   */
  static build(terms: readonly string[]): TermIndex {
    const scanner = new FoldedText();
    // Vocabulary, growing: word characters in one buffer, an open-addressing table of ids (load <= 1/2).
    let vChars = new Uint16Array(1 << 16);
    let charTotal = 0;
    const offsets: number[] = [];
    const hashes: number[] = [];
    let vBuildSize = 1 << 12;
    let vBuildSlots = new Int32Array(vBuildSize).fill(EMPTY);
    let vBuildShift = 32 - log2(vBuildSize);
    const wordOf = (i: number): number => {
      const h = scanner.hash[i];
      const from = scanner.start[i];
      const to = scanner.end[i];
      let slot = vocabularySlot(h, vBuildShift);
      for (; vBuildSlots[slot] !== EMPTY; slot = (slot + 1) & (vBuildSize - 1)) {
        const w = vBuildSlots[slot];
        if (hashes[w] === h && sameWordAt(scanner.chars, from, to, vChars, offsets[w], w + 1 < offsets.length ? offsets[w + 1] : charTotal)) return w;
      }
      const w = offsets.length;
      if (charTotal + (to - from) > vChars.length) {
        const bigger = new Uint16Array(Math.max(vChars.length * 2, charTotal + (to - from)));
        bigger.set(vChars);
        vChars = bigger;
      }
      offsets.push(charTotal);
      hashes.push(h);
      vChars.set(scanner.chars.subarray(from, to), charTotal);
      charTotal += to - from;
      vBuildSlots[slot] = w;
      if (offsets.length * 2 > vBuildSize) {
        vBuildSize *= 2;
        vBuildShift = 32 - log2(vBuildSize);
        vBuildSlots = new Int32Array(vBuildSize).fill(EMPTY);
        for (let v = 0; v < offsets.length; v++) {
          let sl = vocabularySlot(hashes[v], vBuildShift);
          while (vBuildSlots[sl] !== EMPTY) sl = (sl + 1) & (vBuildSize - 1);
          vBuildSlots[sl] = v;
        }
      }
      return w;
    };

    // The trie. The root's transitions go into a growing array by word id; the others straight into
    // the runtime table: open addressing, interleaved [state, word, child, unused], load <= 1/2.
    let rootNextBuild = new Int32Array(1 << 12).fill(EMPTY);
    let eSize = 1 << 12;
    let eShift = 32 - log2(eSize);
    let table = new Int32Array(eSize * 4).fill(EMPTY);
    let transitions = 0;
    const insert = (state: number, w: number, next: number): void => {
      let slot = edgeSlot(state, w, eShift);
      while (table[4 * slot] !== EMPTY) slot = (slot + 1) & (eSize - 1);
      table[4 * slot] = state;
      table[4 * slot + 1] = w;
      table[4 * slot + 2] = next;
    };
    const go = (s: number, w: number): number => {
      if (s === 0) return w < rootNextBuild.length ? rootNextBuild[w] : EMPTY;
      for (let slot = edgeSlot(s, w, eShift); table[4 * slot] !== EMPTY; slot = (slot + 1) & (eSize - 1)) {
        if (table[4 * slot] === s && table[4 * slot + 1] === w) return table[4 * slot + 2];
      }
      return EMPTY;
    };
    const parent: number[] = [0];
    const via: number[] = [EMPTY];
    const depth: number[] = [0];
    const endState = new Int32Array(terms.length).fill(EMPTY);
    const empty: number[] = [];
    for (let t = 0; t < terms.length; t++) {
      const n = scanner.scan(terms[t]);
      if (n === 0) {
        empty.push(t);
        continue;
      }
      let state = 0;
      for (let i = 0; i < n; i++) {
        const w = wordOf(i);
        let next = go(state, w);
        if (next === EMPTY) {
          next = parent.length;
          parent.push(state);
          via.push(w);
          depth.push(depth[state] + 1);
          if (state === 0) {
            if (w >= rootNextBuild.length) {
              const bigger = new Int32Array(Math.max(rootNextBuild.length * 2, w + 1)).fill(EMPTY);
              bigger.set(rootNextBuild);
              rootNextBuild = bigger;
            }
            rootNextBuild[w] = next;
          } else {
            insert(state, w, next);
            if (++transitions * 2 > eSize) {
              const old = table;
              eSize *= 2;
              eShift = 32 - log2(eSize);
              table = new Int32Array(eSize * 4).fill(EMPTY);
              for (let slot = 0; slot < old.length; slot += 4) if (old[slot] !== EMPTY) insert(old[slot], old[slot + 1], old[slot + 2]);
            }
          }
        }
        state = next;
      }
      endState[t] = state;
    }
    const wordCount = offsets.length;
    // Every word id gets an entry, also the words that start no term (ids past what the build grew).
    const rootNext = new Int32Array(wordCount).fill(EMPTY);
    rootNext.set(rootNextBuild.subarray(0, Math.min(wordCount, rootNextBuild.length)));

    const states = parent.length;

    // Runtime vocabulary table (load <= 1/4) and its filter (>= 16 bits per word).
    const vSize = nextPow2(wordCount * 4);
    const vShift = 32 - log2(vSize);
    const vSlots = new Int32Array(vSize * 2);
    for (let slot = 0; slot < vSize; slot++) vSlots[2 * slot + 1] = EMPTY;
    const filterBits = nextPow2(Math.max(1024, wordCount * 16));
    const vFilter = new Int32Array(filterBits / 32);
    const filterShift = 32 - log2(filterBits);
    const vOffset = new Int32Array(wordCount + 1);
    let digitWords = false;
    for (let w = 0; w < wordCount; w++) {
      vOffset[w] = offsets[w];
      const to = w + 1 < wordCount ? offsets[w + 1] : charTotal;
      let digitsOnly = true;
      for (let q = offsets[w]; q < to; q++) if (vChars[q] < 48 || vChars[q] > 57) digitsOnly = false;
      if (digitsOnly) digitWords = true;
      const h = hashes[w];
      let slot = vocabularySlot(h, vShift);
      while (vSlots[2 * slot + 1] !== EMPTY) slot = (slot + 1) & (vSize - 1);
      vSlots[2 * slot] = h;
      vSlots[2 * slot + 1] = w;
      const bit = filterBit(h, filterShift);
      vFilter[bit >>> 5] |= 1 << (bit & 31);
    }
    vOffset[wordCount] = charTotal;
    const vCharsFinal = vChars.slice(0, charTotal);

    // Outputs (CSR): the terms ending at each state.
    const outStart = new Int32Array(states + 1);
    for (let t = 0; t < terms.length; t++) if (endState[t] !== EMPTY) outStart[endState[t] + 1]++;
    for (let s = 0; s < states; s++) outStart[s + 1] += outStart[s];
    const outTerms = new Int32Array(outStart[states]);
    const fill = outStart.slice(0, states);
    for (let t = 0; t < terms.length; t++) if (endState[t] !== EMPTY) outTerms[fill[endState[t]]++] = t;

    // Failure and dictionary links, states in order of depth (a counting sort: parents come first).
    let maxDepth = 0;
    for (let s = 0; s < states; s++) if (depth[s] > maxDepth) maxDepth = depth[s];
    const byDepthStart = new Int32Array(maxDepth + 2);
    for (let s = 0; s < states; s++) byDepthStart[depth[s] + 1]++;
    for (let d = 0; d <= maxDepth; d++) byDepthStart[d + 1] += byDepthStart[d];
    const order = new Int32Array(states);
    const cursor = byDepthStart.slice(0, maxDepth + 1);
    for (let s = 0; s < states; s++) order[cursor[depth[s]]++] = s;

    const fail = new Int32Array(states);
    const report = new Int32Array(states).fill(EMPTY);
    const dict = new Int32Array(states).fill(EMPTY);
    for (let k = 1; k < states; k++) {
      const s = order[k];
      const w = via[s];
      const p = parent[s];
      let f = 0;
      if (p !== 0) {
        f = fail[p];
        let next = go(f, w);
        while (next === EMPTY && f !== 0) {
          f = fail[f];
          next = go(f, w);
        }
        f = next === EMPTY ? 0 : next;
      }
      fail[s] = f;
      dict[s] = report[f];
      report[s] = outStart[s + 1] > outStart[s] ? s : dict[s];
    }

    return new TermIndex({
      vSlots,
      vFilter,
      vChars: vCharsFinal,
      vOffset,
      digitWords,
      rootNext,
      edges: table,
      fail,
      report,
      dict,
      outStart,
      outTerms,
      terms: terms.length,
      empty,
      transitions: states - 1,
    });
  }

  /** The vocabulary id of word i of `t`, or -1 when no term has that word. */
  wordId(t: FoldedText, i: number): number {
    if (!this.digitWords && t.kind[i] === KIND_DIGITS) return EMPTY;
    const h = t.hash[i];
    const bit = filterBit(h, this.vFilterShift);
    if ((this.vFilter[bit >>> 5] & (1 << (bit & 31))) === 0) return EMPTY;
    const slots = this.vSlots;
    const mask = slots.length / 2 - 1;
    for (let slot = vocabularySlot(h, this.vShift); ; slot = (slot + 1) & mask) {
      const w = slots[2 * slot + 1];
      if (w === EMPTY) return EMPTY;
      if (slots[2 * slot] === h && sameWord(t.chars, t.start[i], t.end[i], this.vChars, this.vOffset, w)) return w;
    }
  }

  /** The state after reading word `w` (a vocabulary id, or -1 for a word no term has) in `state`. */
  next(state: number, w: number): number {
    if (w === EMPTY) return 0;
    const edges = this.edges;
    const mask = edges.length / 4 - 1;
    for (;;) {
      if (state === 0) {
        const r = this.rootNext[w];
        return r === EMPTY ? 0 : r;
      }
      for (let slot = edgeSlot(state, w, this.eShift); edges[4 * slot] !== EMPTY; slot = (slot + 1) & mask) {
        if (edges[4 * slot] === state && edges[4 * slot + 1] === w) return edges[4 * slot + 2];
      }
      state = this.fail[state];
    }
  }

  /** Indexes of the terms found in `text` (whole words, after folding), each once, in order of first match end. */
  find(text: string): number[] {
    const t = new FoldedText();
    const n = t.scan(text);
    const found: number[] = [];
    const seen = new Set<number>();
    let state = 0;
    for (let i = 0; i < n; i++) {
      state = this.next(state, this.wordId(t, i));
      for (let s = this.report[state]; s !== EMPTY; s = this.dict[s]) {
        for (let k = this.outStart[s]; k < this.outStart[s + 1]; k++) {
          const term = this.outTerms[k];
          if (!seen.has(term)) {
            seen.add(term);
            found.push(term);
          }
        }
      }
    }
    return found;
  }
}

export function edgeSlot(state: number, w: number, shift: number): number {
  return Math.imul(Math.imul(state, 0x85ebca77) ^ w, 0x9e3779b1) >>> shift;
}

export function vocabularySlot(h: number, shift: number): number {
  return Math.imul(h, 0x9e3779b1) >>> shift;
}

export function filterBit(h: number, shift: number): number {
  return Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> shift;
}

function sameWordAt(chars: Uint16Array, from: number, to: number, vChars: Uint16Array, at: number, atEnd: number): boolean {
  if (to - from !== atEnd - at) return false;
  for (let q = 0; q < atEnd - at; q++) if (chars[from + q] !== vChars[at + q]) return false;
  return true;
}

/** Whether the folded characters chars[from..to) are vocabulary word w. */
export function sameWord(chars: Uint16Array, from: number, to: number, vChars: Uint16Array, vOffset: Int32Array, w: number): boolean {
  const at = vOffset[w];
  const len = vOffset[w + 1] - at;
  if (to - from !== len) return false;
  for (let q = 0; q < len; q++) if (chars[from + q] !== vChars[at + q]) return false;
  return true;
}
