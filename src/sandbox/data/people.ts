/**
 * The pools of parties and lawyers cases draw from. Draws are skewed (Random.skewedIndex), so a few
 * banks, companies, people and lawyers appear in many cases: a CPF/CNPJ or OAB lookup finds several.
 * CPF and CNPJ check digits come from the platform's own functions; ~5% of companies get an
 * alphanumeric CNPJ (IN RFB 2.229/2024).
 */
import { cnpjCheckDigits, cpfCheckDigits } from '../../platform/identifiers/cpf-cnpj.ts';
import { UFS } from '../../platform/identifiers/uf.ts';
import type { Lawyer, Person, TipoPessoa } from './model.ts';
import {
  bankName,
  companyName,
  FEDERAL_TREASURY_NAME,
  municipalityName,
  personName,
  politicalPartyName,
  prosecutorName,
  SOCIAL_SECURITY_NAME,
  stateTreasuryName,
} from './names.ts';
import { placeOf } from './places.ts';
import { Random } from './prng.ts';

export interface Pools {
  persons: Person[];
  companies: Person[];
  banks: Person[];
  politicalParties: Person[];
  /** Per UF: the state treasury and the capital's municipality. */
  publicEntities: Map<string, Person[]>;
  prosecutors: Map<string, Person>;
  socialSecurity: Person;
  federalTreasury: Person;
  lawyers: Lawyer[];
  lawyersByUf: Map<string, Lawyer[]>;
}

/** Hands out CPFs and CNPJs with valid check digits, never the same twice. */
class Documents {
  readonly #used = new Set<string>();
  readonly rng: Random;
  constructor(rng: Random) {
    this.rng = rng;
  }

  #unique(make: () => string): string {
    let value: string;
    do value = make();
    while (this.#used.has(value));
    this.#used.add(value);
    return value;
  }

  cpf(): string {
    return this.#unique(() => {
      let base: string;
      do base = this.rng.digits(9);
      while (/^(\d)\1{8}$/.test(base));
      return base + cpfCheckDigits(base);
    });
  }

  cnpj(alphanumeric: boolean): string {
    const ALNUM = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
    return this.#unique(() => {
      let root = alphanumeric ? Array.from({ length: 8 }, () => this.rng.pick([...ALNUM])).join('') : this.rng.digits(8);
      if (alphanumeric && !/[A-Z]/.test(root)) root = `A${root.slice(1)}`;
      if (/^0+$/.test(root)) root = `1${root.slice(1)}`;
      const base = `${root}0001`;
      return base + cnpjCheckDigits(base);
    });
  }
}

const LAWYER_UF_WEIGHTS: Record<string, number> = { SP: 8, RJ: 4, MG: 4, RS: 3, PR: 3, BA: 2, SC: 2, GO: 2, PE: 2, DF: 2 };

function buildLawyers(rng: Random, count: number): { lawyers: Lawyer[]; byUf: Map<string, Lawyer[]> } {
  const ufs = UFS.map((uf) => ({ weight: LAWYER_UF_WEIGHTS[uf] ?? 1, value: uf as string }));
  const numbers = new Set<string>();
  const byUf = new Map<string, Lawyer[]>(UFS.map((uf) => [uf, []]));
  const lawyers: Lawyer[] = [];
  // Every UF gets at least two lawyers so local cases always find local counsel.
  const plan = [...UFS, ...UFS, ...Array.from({ length: Math.max(0, count - 2 * UFS.length) }, () => rng.weighted(ufs))];
  for (const uf of plan) {
    let numero: string;
    do numero = String(rng.int(1_000, 699_999));
    while (numbers.has(uf + numero));
    numbers.add(uf + numero);
    const lawyer: Lawyer = Object.freeze({ nome: personName(rng), oab: rng.chance(0.01) ? null : Object.freeze({ uf, numero }) });
    lawyers.push(lawyer);
    byUf.get(uf)!.push(lawyer);
  }
  return { lawyers, byUf };
}

function person(nome: string, tipoPessoa: TipoPessoa, documento: string | null, lawyers: readonly Lawyer[]): Person {
  return { nome, tipoPessoa, documento, lawyers, cases: [] };
}

/** A firm of 1–3 lawyers, drawn with the same skew as everything else. */
function firm(rng: Random, lawyers: readonly Lawyer[]): Lawyer[] {
  const n = Math.min(rng.int(1, 3), lawyers.length);
  const picked = new Set<Lawyer>();
  while (picked.size < n) picked.add(lawyers[rng.skewedIndex(lawyers.length, 2)]);
  return [...picked];
}

export function buildPools(seed: number, size: number): Pools {
  const rng = new Random(seed, 'pools');
  const docs = new Documents(rng);
  const { lawyers, byUf } = buildLawyers(rng, Math.max(80, Math.round(size * 0.04)));

  const persons = Array.from({ length: Math.max(300, Math.round(size * 0.6)) }, () =>
    person(personName(rng), 'FISICA', rng.chance(0.01) ? null : docs.cpf(), []),
  );
  const companies = Array.from({ length: Math.max(60, Math.round(size * 0.05)) }, () =>
    person(companyName(rng), 'JURIDICA', docs.cnpj(rng.chance(0.05)), firm(rng, lawyers)),
  );
  const banks = Array.from({ length: 12 }, (_, i) => person(bankName(i), 'JURIDICA', docs.cnpj(false), firm(rng, lawyers)));
  const politicalParties = Array.from({ length: 24 }, (_, i) => person(politicalPartyName(i), 'JURIDICA', docs.cnpj(false), firm(rng, lawyers)));

  const publicEntities = new Map<string, Person[]>();
  const prosecutors = new Map<string, Person>();
  for (const uf of UFS) {
    const place = placeOf(uf);
    const procuradores = firm(rng, byUf.get(uf)!);
    publicEntities.set(uf, [
      person(stateTreasuryName(place), 'JURIDICA', docs.cnpj(false), procuradores),
      person(municipalityName(place), 'JURIDICA', docs.cnpj(false), firm(rng, byUf.get(uf)!)),
    ]);
    prosecutors.set(uf, person(prosecutorName(place), 'JURIDICA', null, []));
  }
  return {
    persons,
    companies,
    banks,
    politicalParties,
    publicEntities,
    prosecutors,
    socialSecurity: person(SOCIAL_SECURITY_NAME, 'JURIDICA', docs.cnpj(false), firm(rng, lawyers)),
    federalTreasury: person(FEDERAL_TREASURY_NAME, 'JURIDICA', docs.cnpj(false), firm(rng, lawyers)),
    lawyers,
    lawyersByUf: byUf,
  };
}
