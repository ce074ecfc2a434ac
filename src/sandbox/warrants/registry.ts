/**
 * The simulated warrants provider's data (reference/upstream/wave2.md §E.5): about one in six of the
 * data set's people with a CPF has one or two pending warrants, in cases of their own, each with a
 * 28-digit piece number (the case's CNJ number, type 01 "Mandado de Prisão", a sequence and two check
 * digits); everyone else has none. Deterministic from the seed; names and numbers plainly fictitious.
 * Knob `empty`: the provider answers a definitive "nothing" for everyone.
 */
import type { SandboxDataset } from '../data/dataset.ts';
import type { Person } from '../data/model.ts';
import { hash32, Random } from '../data/prng.ts';

export interface SandboxWarrant {
  numeroPeca: string;
  tipoPeca: string;
  status: string;
  numeroProcesso: string;
  orgao: string;
  dataExpedicao: string;
  nome: string;
  alcunha: string | null;
  cpf: string;
}

const TIPOS = [
  { codigo: '01', nome: 'Mandado de Prisão' },
  { codigo: '10', nome: 'Mandado de Internação' },
];

export class WarrantsRegistry {
  readonly #dataset: SandboxDataset;
  #byCpf: Map<string, SandboxWarrant[]> | null = null;
  #byPeca: Map<string, SandboxWarrant> | null = null;
  empty = false;

  constructor(dataset: SandboxDataset) {
    this.#dataset = dataset;
  }

  set(knobs: { empty?: unknown }): void {
    for (const k of Object.keys(knobs)) if (k !== 'empty') throw new RangeError(`mandados: unknown setting "${k}" (known: empty)`);
    if (knobs.empty !== undefined && typeof knobs.empty !== 'boolean') throw new RangeError('mandados: empty must be a boolean');
    this.empty = knobs.empty === true;
  }

  get(): { empty: boolean } {
    return { empty: this.empty };
  }

  reset(): void {
    this.empty = false;
  }

  byCpf(cpf: string): SandboxWarrant[] {
    return this.empty ? [] : (this.#index().byCpf.get(cpf) ?? []);
  }

  byPeca(numeroPeca: string): SandboxWarrant[] {
    const w = this.empty ? undefined : this.#index().byPeca.get(numeroPeca);
    return w ? [w] : [];
  }

  /** A CPF with warrants and one without, for the banner and the tests. */
  examples(): { comMandado: string | null; semMandado: string | null } {
    const { byCpf } = this.#index();
    const com = byCpf.keys().next().value ?? null;
    const sem = this.#dataset.people.find((p) => isCpf(p) && !byCpf.has(p.documento!))?.documento ?? null;
    return { comMandado: com, semMandado: sem };
  }

  #index(): { byCpf: Map<string, SandboxWarrant[]>; byPeca: Map<string, SandboxWarrant> } {
    if (!this.#byCpf || !this.#byPeca) {
      this.#byCpf = new Map();
      this.#byPeca = new Map();
      for (const p of this.#dataset.people) {
        if (!isCpf(p) || hash32(p.documento!, this.#dataset.seed) % 6 !== 0 || p.cases.length === 0) continue;
        const rng = new Random('mandados', this.#dataset.seed, p.documento!);
        const list = p.cases.slice(0, rng.int(1, 2)).map((c, i): SandboxWarrant => {
          const tipo = rng.pick(TIPOS);
          const expedicao = new Date(this.#dataset.anchor.getTime() - rng.int(10, 900) * 86_400_000).toISOString().slice(0, 10);
          return {
            numeroPeca: `${c.numero}${tipo.codigo}${String(i + 1).padStart(4, '0')}${rng.digits(2)}`,
            tipoPeca: tipo.nome,
            status: 'Pendente de Cumprimento',
            numeroProcesso: c.numero,
            orgao: `Vara Criminal Fictícia - ${c.court.sigla}`,
            dataExpedicao: expedicao,
            nome: p.nome.toUpperCase(),
            alcunha: rng.chance(0.3) ? 'APELIDO FICTÍCIO' : null,
            cpf: p.documento!,
          };
        });
        this.#byCpf.set(p.documento!, list);
        for (const w of list) this.#byPeca.set(w.numeroPeca, w);
      }
    }
    return { byCpf: this.#byCpf, byPeca: this.#byPeca };
  }
}

function isCpf(p: Person): boolean {
  return p.documento !== null && /^\d{11}$/.test(p.documento);
}
