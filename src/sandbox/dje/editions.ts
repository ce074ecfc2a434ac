/**
 * The simulated electoral gazettes (DJE eleitoral, reference/upstream/wave2.md §C): every business day
 * each court (TSE, TRE-<UF>) publishes one edition of fictitious matérias generated from the court and
 * the day alone (the same day always gives the same edition), naming the data set's parties and
 * lawyers with OAB, so searches and OAB monitors find them. Electoral CNJ numbers have J=6 and the
 * court's TR (00 for the TSE). Extra editions ("edição extra") can be published on demand, naming a
 * given party or OAB: how a newcomer sees a monitor fire.
 */
import { cnjCheckDigits, formatCnj } from '../../platform/identifiers/cnj.ts';
import { UFS } from '../../platform/identifiers/uf.ts';
import type { SandboxDataset } from '../data/dataset.ts';
import type { Lawyer, Person } from '../data/model.ts';
import { Random } from '../data/prng.ts';
import { brasiliaDayOf, brDay } from '../djen/dates.ts';
import { isBusinessDay } from '../stf/publications.ts';

export const DJE_COURTS: readonly string[] = ['TSE', ...UFS.map((uf) => `TRE-${uf}`)];

export interface DjeLawyer {
  nome: string;
  /** The registration, canonical (`SP123456`, `PA26585A`); the PDF prints it in the DJE's two notations (pdf.ts). */
  oab: string | null;
}

export interface DjeMateria {
  numeroCnj: string;
  /** Name and TPU code, `REGISTRO DE CANDIDATURA (11532)`. */
  classe: string;
  /** The class's abbreviation in the index of processes (`RCand`). */
  sigla: string;
  /** Where the process comes from, as `PROCESSO :` ends (`Belém - PA`). */
  origem: string;
  partes: { papel: string; nome: string; advogados: DjeLawyer[] }[];
  texto: string;
}

export interface DjeEdition {
  tribunal: string;
  numero: number;
  /** Epoch day. */
  day: number;
  extra: boolean;
  materias: DjeMateria[];
}

const CLASSES = [
  { nome: 'REGISTRO DE CANDIDATURA (11532)', sigla: 'RCand', papeis: ['REQUERENTE', 'IMPUGNANTE'] },
  { nome: 'PRESTAÇÃO DE CONTAS ELEITORAIS (12193)', sigla: 'PCE', papeis: ['PRESTADOR DE CONTAS', 'INTERESSADO(A)'] },
  { nome: 'REPRESENTAÇÃO (11541)', sigla: 'Rp', papeis: ['REPRESENTANTE', 'REPRESENTADO(A)'] },
  { nome: 'RECURSO ELEITORAL (11548)', sigla: 'REl', papeis: ['RECORRENTE', 'RECORRIDO'] },
  { nome: 'CUMPRIMENTO DE SENTENÇA (156)', sigla: 'CumSen', papeis: ['EXEQUENTE', 'EXECUTADO(A)'] },
] as const;
/** Each court's seat, as `PROCESSO : … (Belém - PA)` ends. */
const CAPITALS: Record<string, string> = {
  AC: 'Rio Branco',
  AL: 'Maceió',
  AP: 'Macapá',
  AM: 'Manaus',
  BA: 'Salvador',
  CE: 'Fortaleza',
  DF: 'Brasília',
  ES: 'Vitória',
  GO: 'Goiânia',
  MA: 'São Luís',
  MT: 'Cuiabá',
  MS: 'Campo Grande',
  MG: 'Belo Horizonte',
  PA: 'Belém',
  PB: 'João Pessoa',
  PR: 'Curitiba',
  PE: 'Recife',
  PI: 'Teresina',
  RJ: 'Rio de Janeiro',
  RN: 'Natal',
  RS: 'Porto Alegre',
  RO: 'Porto Velho',
  RR: 'Boa Vista',
  SC: 'Florianópolis',
  SP: 'São Paulo',
  SE: 'Aracaju',
  TO: 'Palmas',
};
const seatOf = (tribunal: string) => (tribunal === 'TSE' ? 'Brasília - DF' : `${CAPITALS[tribunal.slice(4)]} - ${tribunal.slice(4)}`);
const DECISOES = [
  'Ante o exposto, DEFIRO o pedido de registro de candidatura.',
  'Julgo APROVADAS as contas, com ressalvas, nos termos do art. 74, II, da Res.-TSE nº 23.607/2019.',
  'NEGO PROVIMENTO ao recurso e mantenho a sentença por seus próprios fundamentos.',
  'Intime-se o representado para apresentar defesa no prazo de 2 (dois) dias.',
  'Julgo IMPROCEDENTE a representação, por ausência de propaganda irregular.',
  'Intimem-se as partes. Após o trânsito em julgado, arquivem-se os autos.',
];
/** Extra editions start far from the ordinary ones' numbers, so the two never collide. */
const EXTRA_BASE = 900_000;
/** Epoch day of 2020-01-01: ordinary editions are numbered by days since. */
const NUMBERING_EPOCH = 18_262;

function trOf(tribunal: string): string {
  return tribunal === 'TSE' ? '00' : String(UFS.indexOf(tribunal.slice(4) as (typeof UFS)[number]) + 1).padStart(2, '0');
}

/** A fictitious electoral CNJ number (J=6, the court's TR, 00 for the TSE), 20 digits with valid check digits. */
export function electoralCnj(rng: Random, tribunal: string): string {
  const seq = `060${rng.digits(4)}`;
  const year = String(rng.int(2022, 2026));
  const origin = tribunal === 'TSE' ? '0000' : String(rng.int(1, 420)).padStart(4, '0');
  const tr = trOf(tribunal);
  return `${seq}${cnjCheckDigits(seq, year, '6', tr, origin)}${year}6${tr}${origin}`;
}

/** Some registrations carry a letter (`PA26585A`), as in the real edition (one in five here, by number). */
const oabOf = (l: Lawyer): string | null => (l.oab ? `${l.oab.uf}${Number(l.oab.numero)}${Number(l.oab.numero) % 5 === 0 ? 'A' : ''}` : null);

export class DjeGazette {
  readonly #dataset: SandboxDataset;
  readonly #cache = new Map<string, DjeEdition[]>();
  /** Editions published on demand, by `tribunal:day`. */
  readonly #extras = new Map<string, DjeEdition[]>();
  /** Days without editions (the "holiday" knob), as epoch days. */
  holidays = new Set<number>();

  constructor(dataset: SandboxDataset) {
    this.#dataset = dataset;
  }

  /** The editions `tribunal` published on `day`: the ordinary one (business days), then any extra. */
  editions(tribunal: string, day: number): DjeEdition[] {
    if (!DJE_COURTS.includes(tribunal)) return [];
    const key = `${tribunal}:${day}`;
    const extras = this.#extras.get(key) ?? [];
    if (!isBusinessDay(day) || this.holidays.has(day) || this.#dataset.people.length === 0 || day > brasiliaDayOf(this.#dataset.now())) return extras;
    let ordinary = this.#cache.get(key);
    if (!ordinary) {
      ordinary = [this.#generate(tribunal, day)];
      if (this.#cache.size > 2_000) this.#cache.delete(this.#cache.keys().next().value!);
      this.#cache.set(key, ordinary);
    }
    return [...ordinary, ...extras];
  }

  edition(tribunal: string, numero: number): DjeEdition | null {
    const day = numero >= EXTRA_BASE ? this.#extraDay(tribunal, numero) : numero + NUMBERING_EPOCH;
    return day === null ? null : (this.editions(tribunal, day).find((e) => e.numero === numero) ?? null);
  }

  /** Publishes an extra edition today with one matéria naming `parte` and a lawyer with `oab` (`{uf, numero}`). */
  publishExtra(tribunal: string, o: { parte?: string; advogado?: string; oab?: { uf: string; numero: string; suffix?: string } }): DjeEdition {
    if (!DJE_COURTS.includes(tribunal)) throw new RangeError(`dje: unknown tribunal "${tribunal}" (TSE or TRE-<UF>)`);
    // Today as the gazette dates it: the day in Brasília.
    const day = brasiliaDayOf(this.#dataset.now());
    const key = `${tribunal}:${day}`;
    const list = this.#extras.get(key) ?? [];
    const numero = EXTRA_BASE + (day - NUMBERING_EPOCH) * 10 + list.length;
    const rng = new Random('dje-extra', this.#dataset.seed, tribunal, day, list.length);
    const lawyer = { nome: o.advogado ?? 'ADVOGADA DE TESTE FICTÍCIA', oab: o.oab ? `${o.oab.uf}${Number(o.oab.numero)}${o.oab.suffix ?? ''}` : null };
    const materia = this.#materia(rng, tribunal, day, { nome: o.parte ?? 'PARTE DE TESTE FICTÍCIA', lawyers: [lawyer] });
    const edition: DjeEdition = { tribunal, numero, day, extra: true, materias: [materia] };
    list.push(edition);
    this.#extras.set(key, list);
    return edition;
  }

  #extraDay(tribunal: string, numero: number): number | null {
    const day = Math.floor((numero - EXTRA_BASE) / 10) + NUMBERING_EPOCH;
    return this.#extras.has(`${tribunal}:${day}`) ? day : null;
  }

  #generate(tribunal: string, day: number): DjeEdition {
    const rng = new Random('dje', this.#dataset.seed, tribunal, day);
    const people = this.#dataset.people;
    const materias = Array.from({ length: rng.int(3, 8) }, () => {
      const p = people[rng.skewedIndex(people.length, 2)];
      return this.#materia(
        rng,
        tribunal,
        day,
        { nome: p.nome.toUpperCase(), lawyers: p.lawyers.slice(0, 2).map((l) => ({ nome: l.nome.toUpperCase(), oab: oabOf(l) })) },
        people[rng.skewedIndex(people.length, 2)],
      );
    });
    return { tribunal, numero: day - NUMBERING_EPOCH, day, extra: false, materias };
  }

  #materia(rng: Random, tribunal: string, day: number, first: { nome: string; lawyers: DjeLawyer[] }, other?: Person): DjeMateria {
    const classe = rng.pick(CLASSES);
    const partes: DjeMateria['partes'] = [{ papel: classe.papeis[0], nome: first.nome, advogados: first.lawyers }];
    if (other)
      partes.push({
        papel: classe.papeis[1],
        nome: other.nome.toUpperCase(),
        advogados: other.lawyers.slice(0, 1).map((l) => ({ nome: l.nome.toUpperCase(), oab: oabOf(l) })),
      });
    const texto =
      `${rng.pick(DECISOES)} Publique-se. ${tribunal === 'TSE' ? 'Brasília' : tribunal.slice(4)}, ${brDay(day)}. ` +
      `Documento fictício do sandbox do Tramita.`;
    return { numeroCnj: formatCnj(electoralCnj(rng, tribunal)), classe: classe.nome, sigla: classe.sigla, origem: seatOf(tribunal), partes, texto };
  }
}
