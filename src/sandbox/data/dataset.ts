/**
 * The sandbox data set: generated once from (seed, size), then read by both simulators through a
 * Clock. Time: the generation anchor is the start of the clock's current UTC day (so a restart on the
 * same day rebuilds the same data); about 1% of cases and some movements and documents are dated in
 * the `futureDays` after it. Anything dated after `clock.now()` is invisible to the servers, so as
 * time passes monitors see new movements and new cases appear.
 * Indexes: by number, by alias (DataJud documents), by party document and by name tokens.
 */
import { systemClock, type Clock } from '../../platform/clock.ts';
import type { CourtProfile } from './courts.ts';
import { generateCase, generatePrecatorioCase, generationContext, profilesByAlias } from './generate.ts';
import { isCaseVisible, type Instance, type Person, type SandboxCase } from './model.ts';
import { buildPools } from './people.ts';
import { documentKey, nameTokens } from './text.ts';
import { TIME } from './timeline.ts';

export interface DatasetOptions {
  cases: number;
  seed: number;
  clock?: Clock;
  /** Default: the start of the clock's current UTC day. */
  anchor?: Date;
  /** How far after the anchor future items go (default 7). */
  futureDays?: number;
  /** Called every 1000 cases and at the end. */
  onProgress?: (done: number, total: number) => void;
}

/** One DataJud document source: an instance of a case. */
export interface InstanceRef {
  c: SandboxCase;
  inst: Instance;
}

/** Lookups list at most this many case numbers (the portal protocol's cap). */
export const LOOKUP_CAP = 1000;

function startOfUtcDay(d: Date): number {
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
}

function newestFirst(a: SandboxCase, b: SandboxCase): number {
  return b.filedAt - a.filedAt || (a.numero < b.numero ? -1 : a.numero > b.numero ? 1 : 0);
}

export class SandboxDataset {
  readonly seed: number;
  readonly size: number;
  readonly anchor: Date;
  readonly clock: Clock;
  readonly cases: readonly SandboxCase[];
  readonly profiles: ReadonlyMap<string, CourtProfile>;
  /** Precatórios and RPVs (TPU 1265/1266) DataJud serves beside the cases (generatePrecatorioCase). */
  precatorios: readonly SandboxCase[] = [];
  /** Every party of the cases, each once, in generation order (the gazettes' simulators name them). */
  people: readonly Person[] = [];
  /** Wall time the generation took (ms). */
  readonly generationMs: number;
  readonly #byNumber = new Map<string, SandboxCase>();
  readonly #byAlias = new Map<string, InstanceRef[]>();
  readonly #byDocument = new Map<string, Person>();
  readonly #byToken = new Map<string, Person[]>();

  constructor(options: DatasetOptions) {
    const started = performance.now();
    if (!Number.isInteger(options.cases) || options.cases < 1) throw new RangeError(`sandbox: cases must be a positive integer, got ${options.cases}`);
    this.seed = options.seed;
    this.size = options.cases;
    this.clock = options.clock ?? systemClock;
    const anchor = options.anchor ? options.anchor.getTime() : startOfUtcDay(this.clock.now());
    this.anchor = new Date(anchor);
    const ctx = generationContext(options.seed, anchor, (options.futureDays ?? 7) * TIME.DAY, buildPools(options.seed, options.cases));
    this.profiles = profilesByAlias(ctx);
    const cases: SandboxCase[] = [];
    for (let i = 0; i < options.cases; i++) {
      cases.push(generateCase(i, ctx));
      if (options.onProgress && ((i + 1) % 1000 === 0 || i + 1 === options.cases)) options.onProgress(i + 1, options.cases);
    }
    this.cases = cases;
    this.#index(cases);
    // Precatórios and RPVs (classes 1265/1266), numbered after the regular cases: indexed for DataJud and
    // lookups by number only, so the regular cases, their parties and every example stay the same.
    this.precatorios = Array.from({ length: Math.max(24, Math.ceil(options.cases / 50)) }, (_, k) => generatePrecatorioCase(options.cases + k, ctx));
    for (const c of this.precatorios) this.#indexCase(c);
    this.generationMs = performance.now() - started;
  }

  #indexCase(c: SandboxCase): void {
    this.#byNumber.set(c.numero, c);
    let refs = this.#byAlias.get(c.alias);
    if (!refs) {
      refs = [];
      this.#byAlias.set(c.alias, refs);
    }
    for (const inst of c.instances) refs.push({ c, inst });
  }

  #index(cases: readonly SandboxCase[]): void {
    const persons = new Set<Person>();
    for (const c of cases) {
      this.#indexCase(c);
      for (const p of c.partes) persons.add(p.person);
    }
    this.people = [...persons];
    for (const person of persons) {
      if (person.documento) this.#byDocument.set(documentKey(person.documento), person);
      for (const token of nameTokens(person.nome)) {
        let list = this.#byToken.get(token);
        if (!list) {
          list = [];
          this.#byToken.set(token, list);
        }
        list.push(person);
      }
    }
  }

  now(): number {
    return this.clock.now().getTime();
  }

  /** The case, visible or not (tests and the CLI); servers use `visibleCase`. */
  getCase(numero: string): SandboxCase | undefined {
    return this.#byNumber.get(numero);
  }

  visibleCase(numero: string, now = this.now()): SandboxCase | undefined {
    const c = this.#byNumber.get(numero);
    return c && isCaseVisible(c, now) ? c : undefined;
  }

  /** Every instance of the alias (visible or not), in generation order; undefined for an unknown alias. */
  instancesOf(alias: string): readonly InstanceRef[] | undefined {
    return this.#byAlias.get(alias);
  }

  aliases(): string[] {
    return [...this.profiles.keys()];
  }

  profileOf(alias: string): CourtProfile | undefined {
    return this.profiles.get(alias);
  }

  /** Visible cases where a party has this CPF/CNPJ (punctuation ignored), newest first, at most LOOKUP_CAP. */
  casesByDocument(documento: string, now = this.now()): SandboxCase[] {
    const person = this.#byDocument.get(documentKey(documento));
    return person ? this.#visibleNewestFirst(person.cases, now) : [];
  }

  /** Visible cases where one party's name has every word of `nome` (accent/case-insensitive), newest first. */
  casesByName(nome: string, now = this.now()): SandboxCase[] {
    const tokens = nameTokens(nome);
    if (tokens.length === 0) return [];
    const lists = tokens.map((t) => this.#byToken.get(t) ?? []).sort((a, b) => a.length - b.length);
    let persons: Person[] = lists[0];
    for (const list of lists.slice(1)) {
      const set = new Set(list);
      persons = persons.filter((p) => set.has(p));
    }
    const cases = new Set<SandboxCase>();
    for (const p of persons) for (const c of p.cases) cases.add(c);
    return this.#visibleNewestFirst([...cases], now);
  }

  #visibleNewestFirst(cases: readonly SandboxCase[], now: number): SandboxCase[] {
    return cases
      .filter((c) => isCaseVisible(c, now))
      .sort(newestFirst)
      .slice(0, LOOKUP_CAP);
  }

  /** Handy examples for the CLI and tests: one visible number per justice segment, a busy party. */
  examples(now = this.now()): { numbers: Record<string, string>; document: string | null; name: string | null } {
    const numbers: Record<string, string> = {};
    for (const c of this.cases) {
      if (isCaseVisible(c, now) && !numbers[c.court.segmento]) numbers[c.court.segmento] = c.numero;
    }
    let busiest: Person | null = null;
    for (const person of this.#byDocument.values()) {
      if (person.tipoPessoa === 'FISICA' && (!busiest || person.cases.length > busiest.cases.length)) busiest = person;
    }
    return { numbers, document: busiest?.documento ?? null, name: busiest?.nome ?? null };
  }
}

export function generateDataset(options: DatasetOptions): SandboxDataset {
  return new SandboxDataset(options);
}
