/**
 * The simulated DJEN's communications: the generated table plus those published on demand, with the
 * lookups searches start from (case, lawyer, party) and lookups by id and hash. A reference ("ref")
 * is a table position (≥ 0) or a published communication (-1, -2, …).
 */
import type { SandboxDataset } from '../data/dataset.ts';
import type { Lawyer, Person } from '../data/model.ts';
import { hashOfId, idOfHash, idOfRank, rankOfId } from './ids.ts';
import type { Communication, Meio } from './model.ts';
import { resolveGenerated } from './records.ts';
import { hasWords, paddedWords as padded } from './render.ts';
import { CommunicationTable, flagKind } from './table.ts';

export type Ref = number;

/** What the cheap filters look at, without resolving the whole communication. */
export interface RefSummary {
  id: number;
  day: number;
  tribunal: string;
  meio: Meio;
  numero: string;
  orgaoId: number;
}

interface Indexed {
  words: string;
  cases: number[];
}

export class DjenStore {
  readonly dataset: SandboxDataset;
  readonly table: CommunicationTable;
  readonly #published: Communication[] = [];
  readonly #publishedByNumero = new Map<string, Ref[]>();
  readonly #lawyers = new Map<Lawyer, Indexed & { lawyer: Lawyer }>();
  #persons: Indexed[] | null = null;
  /** Bumped by each publication (cadernos cache by it). */
  version = 0;

  constructor(dataset: SandboxDataset) {
    this.dataset = dataset;
    this.table = new CommunicationTable(dataset);
    for (const c of dataset.cases) {
      for (const p of c.partes) {
        for (const lawyer of p.advogados) {
          let entry = this.#lawyers.get(lawyer);
          if (!entry) {
            entry = { lawyer, words: padded(lawyer.nome), cases: [] };
            this.#lawyers.set(lawyer, entry);
          }
          if (entry.cases[entry.cases.length - 1] !== c.index) entry.cases.push(c.index);
        }
      }
    }
  }

  get publishedCount(): number {
    return this.#published.length;
  }

  resolve(ref: Ref): Communication {
    return ref >= 0 ? resolveGenerated(this.dataset, this.table, ref) : this.#published[-ref - 1];
  }

  summary(ref: Ref): RefSummary {
    if (ref < 0) {
      const c = this.#published[-ref - 1];
      return { id: c.id, day: c.day, tribunal: c.tribunal, meio: c.meio, numero: c.numero, orgaoId: c.orgao.id };
    }
    const t = this.table;
    const c = this.dataset.cases[t.caseOf[ref]];
    return {
      id: idOfRank(t.rankOf[ref]),
      day: t.day[ref],
      tribunal: c.court.sigla,
      meio: flagKind(t.flags[ref]).meio,
      numero: c.numero,
      orgaoId: c.instances[t.inst[ref]].orgao.codigo,
    };
  }

  /** The communication with this id, if made available by `today`. */
  byId(id: number, today: number): Communication | null {
    const rank = rankOfId(id);
    if (rank === null) return null;
    const ref = rank < this.table.count ? this.table.posOf[rank] : -(rank - this.table.count) - 1;
    if (ref < 0 && -ref - 1 >= this.#published.length) return null;
    const c = this.resolve(ref);
    return c.day <= today ? c : null;
  }

  byHash(hash: string, today: number): Communication | null {
    const id = idOfHash(this.dataset.seed, hash);
    return id === null ? null : this.byId(id, today);
  }

  publishedRefs(): Ref[] {
    return this.#published.map((_, i) => -i - 1);
  }

  /** Table positions of these cases' communications. */
  refsOfCases(cases: Iterable<number>): Ref[] {
    const refs: Ref[] = [];
    for (const i of cases) for (let p = this.table.caseStart[i]; p < this.table.caseStart[i + 1]; p++) refs.push(p);
    return refs;
  }

  /** Cases with communications for this number: the sandbox case, if any. */
  casesOfNumero(numero: string): number[] {
    const c = this.dataset.getCase(numero);
    return c ? [c.index] : [];
  }

  /** Cases where a lawyer with this registration number (digits, any UF unless given) acts. */
  casesOfOab(digits: string, uf: string | null): Set<number> {
    const cases = new Set<number>();
    for (const { lawyer, cases: list } of this.#lawyers.values()) {
      if (lawyer.oab?.numero === digits && (uf === null || lawyer.oab.uf === uf)) for (const i of list) cases.add(i);
    }
    return cases;
  }

  /** Cases of lawyers whose name has every word. */
  casesOfLawyerName(words: readonly string[]): Set<number> {
    const cases = new Set<number>();
    for (const entry of this.#lawyers.values()) if (hasWords(entry.words, words)) for (const i of entry.cases) cases.add(i);
    return cases;
  }

  /** Cases of parties whose name has every word (the party index is built on first use). */
  casesOfPartyName(words: readonly string[]): Set<number> {
    this.#persons ??= this.#indexPersons();
    const cases = new Set<number>();
    for (const entry of this.#persons) if (hasWords(entry.words, words)) for (const i of entry.cases) cases.add(i);
    return cases;
  }

  #indexPersons(): Indexed[] {
    const persons = new Set<Person>();
    for (const c of this.dataset.cases) for (const p of c.partes) persons.add(p.person);
    return [...persons].map((p) => ({ words: padded(p.nome), cases: p.cases.map((c) => c.index) }));
  }

  /** Registered lawyers of the data set with their number of cases, busiest first. */
  lawyersByCases(): { lawyer: Lawyer; cases: number }[] {
    return [...this.#lawyers.values()]
      .filter((e) => e.lawyer.oab)
      .map((e) => ({ lawyer: e.lawyer, cases: e.cases.length }))
      .sort((a, b) => b.cases - a.cases);
  }

  /** Published refs of this case number. */
  publishedOf(numero: string): Ref[] {
    return this.#publishedByNumero.get(numero) ?? [];
  }

  /** The id the next published communication gets (ids keep growing after the generated ones). */
  nextId(): number {
    return idOfRank(this.table.count + this.#published.length);
  }

  /** Stores a communication built by publish.ts for `nextId()`; it is visible at once. */
  add(c: Communication): Communication {
    if (c.id !== this.nextId() || c.hash !== hashOfId(this.dataset.seed, c.id)) throw new Error('djen: a published communication must take nextId()');
    this.#published.push(c);
    const ref = -this.#published.length;
    const list = this.#publishedByNumero.get(c.numero);
    if (list) list.push(ref);
    else this.#publishedByNumero.set(c.numero, [ref]);
    this.version++;
    return c;
  }
}
