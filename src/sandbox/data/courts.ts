/**
 * Per-court profile of the sandbox: órgãos julgadores (with their CNJ origin codes), the system and
 * the DataJud quirks that court's documents show (reference/upstream/datajud.md §7–§8):
 * - `dateStyle`: `dataAjuizamento` as `YYYYMMDDHHmmss` (eproc courts and TRTs, like the real TRF4
 *   documents) or ISO at midnight (`2018-10-29T00:00:00.000Z`, like the wiki's TRF1 example);
 * - `nestedAssuntos`: `assuntos` as an array of one-element arrays (TJDFT, wiki exemplo 2);
 * - `longIds`: `_id` as Tribunal_Classe_Grau_Orgao_Numero plus `_type: "_doc"` (PJe courts, like the
 *   wiki's TRF1 example) instead of `TRF4_G2_<num>`;
 * - `movementOrgao`: first-instance movements carry `orgaoJulgador` with a string `codigo` (always so
 *   on recourse instances, as in the real TRF4 G2 document);
 * - TRF1 JEF units have a 4-digit `codigoMunicipioIBGE` (5128 in the wiki example); some TJDFT
 *   órgão names come with the "EXECU??O" encoding glitch.
 * Sistema codes: 1 "Pje" and 4 "EPROC" are real [V]; the others are [I].
 */
import { COURTS, type Court } from '../../platform/courts/table.ts';
import type { Grau, UnitKind } from './families.ts';
import type { Orgao } from './model.ts';
import { personName } from './names.ts';
import { placeOf, type Place } from './places.ts';
import { Random } from './prng.ts';
import type { Code } from './tpu.ts';

export interface CourtProfile {
  court: Court;
  alias: string;
  /** DataJud `tribunal`: the sigla. */
  tribunal: string;
  dateStyle: 'compact' | 'iso';
  nestedAssuntos: boolean;
  longIds: boolean;
  movementOrgao: boolean;
  eproc: boolean;
  sistema: Code;
  /** [min, max] of the sequential part (NNNNNNN) of the court's electronic-era numbers. */
  sequence: readonly [number, number];
  /** First-instance units by kind, and the recourse/superior units by grau. */
  units: Partial<Record<UnitKind, Orgao[]>>;
  recourse: Partial<Record<Grau, Orgao[]>>;
}

const SISTEMAS: Record<string, Code> = {
  PJe: { codigo: 1, nome: 'Pje' },
  'PJe-JT': { codigo: 1, nome: 'Pje' },
  eproc: { codigo: 4, nome: 'EPROC' },
  'e-SAJ': { codigo: 3, nome: 'SAJ' },
  Projudi: { codigo: 2, nome: 'Projudi' },
};
const OTHER_SYSTEM: Code = { codigo: 8, nome: 'Outros' };

function sequenceRange(court: Court): readonly [number, number] {
  if (court.segmento === 'Eleitoral') return [600_000, 600_999];
  switch (court.sistemaAtual) {
    case 'eproc':
      return [5_000_000, 5_099_999];
    case 'e-SAJ':
      return [1_000_000, 1_099_999];
    case 'PJe':
      return court.segmento === 'Federal' ? [1_000_000, 1_099_999] : [800_000, 899_999];
    case 'PJe-JT':
      return [1_000_000, 1_049_999];
    default:
      return [1, 999_999];
  }
}

/** Hands out órgão codes unique over the whole data set. */
class OrgaoCodes {
  #next = 10_000;
  take(rng: Random): number {
    this.#next += rng.int(1, 37);
    return this.#next;
  }
}

interface UnitSpec {
  count: number;
  name: (n: number, place: Place) => string;
  origin: (n: number, placeIndex: number) => string;
  ibge?: (place: Place) => number;
}

const pad4 = (n: number) => String(n).padStart(4, '0');
const ordinal = (n: number) => `${n}ª`;

function buildUnits(rng: Random, codes: OrgaoCodes, places: Place[], spec: UnitSpec): Orgao[] {
  const units: Orgao[] = [];
  places.forEach((place, p) => {
    for (let n = 1; n <= spec.count; n++) {
      units.push({
        codigo: codes.take(rng),
        nome: spec.name(n, place),
        codigoMunicipioIBGE: spec.ibge ? spec.ibge(place) : place.ibge,
        origem: spec.origin(n, p),
        uf: place.uf,
      });
    }
  });
  return units;
}

/** Comarca-like origin codes per place: distinct, plausible 4-digit values. */
function originCodes(rng: Random, places: Place[], min: number, max: number): string[] {
  const used = new Set<string>();
  return places.map(() => {
    let code: string;
    do code = pad4(rng.int(min, max));
    while (used.has(code));
    used.add(code);
    return code;
  });
}

function firstInstanceUnits(court: Court, rng: Random, codes: OrgaoCodes, places: Place[]): Partial<Record<UnitKind, Orgao[]>> {
  const comarca = originCodes(rng, places, 1, 700);
  switch (court.segmento) {
    case 'Estadual': {
      const juizado = originCodes(rng, places, 701, 999);
      const fiscalName =
        court.sigla === 'TJDFT' ? () => 'VARA DE EXECU??O FISCAL DO DF' : (_n: number, pl: Place) => `Vara de Execução Fiscal de ${pl.capital}`;
      return {
        civel: buildUnits(rng, codes, places, {
          count: rng.int(3, 6),
          name: (n, pl) => `${ordinal(n)} Vara Cível de ${pl.capital}`,
          origin: (_n, p) => comarca[p],
        }),
        fazenda: [
          ...buildUnits(rng, codes, places, {
            count: rng.int(1, 2),
            name: (n, pl) => `${ordinal(n)} Vara da Fazenda Pública de ${pl.capital}`,
            origin: (_n, p) => comarca[p],
          }),
          ...buildUnits(rng, codes, places, { count: 1, name: fiscalName, origin: (_n, p) => comarca[p] }),
        ],
        criminal: buildUnits(rng, codes, places, {
          count: rng.int(1, 3),
          name: (n, pl) => `${ordinal(n)} Vara Criminal de ${pl.capital}`,
          origin: (_n, p) => comarca[p],
        }),
        juizado: buildUnits(rng, codes, places, {
          count: rng.int(2, 3),
          name: (n, pl) => `${n}º Juizado Especial Cível de ${pl.capital}`,
          origin: (_n, p) => juizado[p],
        }),
      };
    }
    case 'Federal': {
      const section = originCodes(rng, places, 30, 85).map((s) => s.slice(2));
      return {
        federal: buildUnits(rng, codes, places, {
          count: rng.int(3, 6),
          name: (n, pl) => `${ordinal(n)} Vara Federal de ${pl.capital}`,
          origin: (_n, p) => `${section[p]}00`,
        }),
        jef: buildUnits(rng, codes, places, {
          count: rng.int(1, 3),
          name: (n, pl) => (court.sigla === 'TRF1' ? `JEF Adj - ${pl.capital}` : `${ordinal(n)} Vara Federal de Juizado Especial Cível de ${pl.capital}`),
          origin: (n, p) => `${section[p]}${String(n).padStart(2, '0')}`,
          ibge: court.sigla === 'TRF1' ? (pl) => Math.floor(pl.ibge / 1000) : undefined,
        }),
      };
    }
    case 'Trabalho': {
      let vara = 0;
      return {
        trabalho: buildUnits(rng, codes, places, {
          count: rng.int(4, 10),
          name: (n, pl) => `${ordinal(n)} Vara do Trabalho de ${pl.capital}`,
          origin: () => pad4(++vara),
        }),
      };
    }
    case 'Eleitoral': {
      let zona = rng.int(0, 5);
      const origin = () => {
        zona += rng.int(1, 12);
        return pad4(zona);
      };
      return { zona: buildUnits(rng, codes, places, { count: rng.int(3, 8), name: (n, pl) => `${n}ª Zona Eleitoral de ${pl.capital}`, origin }) };
    }
    case 'Militar Estadual':
      return {
        auditoria: buildUnits(rng, codes, places, { count: rng.int(1, 3), name: (n) => `${ordinal(n)} Auditoria Militar do Estado`, origin: (n) => pad4(n) }),
      };
    default:
      return {};
  }
}

/** STM: the 12 CJMs (TR 01..12, cnj-number.md §3) are its first instance; numbers filed there carry the CJM's TR. */
function stmAuditorias(rng: Random, codes: OrgaoCodes): Orgao[] {
  const units: Orgao[] = [];
  for (let cjm = 1; cjm <= 12; cjm++) {
    for (let n = 1; n <= rng.int(1, 2); n++) {
      units.push({
        codigo: codes.take(rng),
        nome: `${ordinal(n)} Auditoria da ${ordinal(cjm)} CJM`,
        codigoMunicipioIBGE: placeOf('DF').ibge,
        origem: pad4(n),
        tr: String(cjm).padStart(2, '0'),
        uf: 'DF',
      });
    }
  }
  return units;
}

function judges(rng: Random, codes: OrgaoCodes, seat: Place, count: number, title: (n: number, name: string) => string): Orgao[] {
  return Array.from({ length: count }, (_, i) => ({
    codigo: codes.take(rng),
    nome: title(i + 1 + rng.int(0, 3) * 10, personName(rng)),
    codigoMunicipioIBGE: seat.ibge,
    origem: '0000',
    uf: seat.uf,
  }));
}

function recourseUnits(court: Court, rng: Random, codes: OrgaoCodes, places: Place[]): Partial<Record<Grau, Orgao[]>> {
  const seat = places[0];
  if (court.segmento === 'Superior') {
    const gab = judges(rng, codes, seat, rng.int(5, 8), (_n, name) => `Gabinete do Ministro ${name}`);
    return { SUP: gab, G2: gab };
  }
  const g2Title =
    court.segmento === 'Federal' ? (n: number, name: string) => `GAB ${n} Des Federal ${name}` : (_n: number, name: string) => `Gabinete Des. ${name}`;
  const recourse: Partial<Record<Grau, Orgao[]>> = { G2: judges(rng, codes, seat, rng.int(4, 8), g2Title) };
  if (court.segmento === 'Estadual' || court.segmento === 'Federal') {
    recourse.TR = buildUnits(rng, codes, places.slice(0, 1), {
      count: rng.int(1, 3),
      name: (n, pl) => `${ordinal(n)} Turma Recursal de ${pl.capital}`,
      origin: () => '0000',
    });
  }
  return recourse;
}

function profileOf(court: Court, seed: number, codes: OrgaoCodes): CourtProfile {
  const rng = new Random(seed, 'court', court.sigla);
  const places = court.ufs.map(placeOf);
  const eproc = court.sistemaAtual === 'eproc';
  const pje = court.sistemaAtual === 'PJe' || court.sistemaAtual === 'PJe-JT';
  const units = court.sigla === 'STM' ? { auditoria: stmAuditorias(rng, codes) } : firstInstanceUnits(court, rng, codes, places);
  return {
    court,
    alias: court.datajudAlias!,
    tribunal: court.sigla,
    dateStyle: eproc || court.segmento === 'Trabalho' ? 'compact' : 'iso',
    nestedAssuntos: court.sigla === 'TJDFT',
    longIds: pje,
    movementOrgao: pje,
    eproc,
    sistema: SISTEMAS[court.sistemaAtual] ?? OTHER_SYSTEM,
    sequence: sequenceRange(court),
    units,
    recourse: recourseUnits(court, rng, codes, places),
  };
}

/** One profile per court with a DataJud alias (91: every court but STF), in COURTS order. */
export function buildCourtProfiles(seed: number): CourtProfile[] {
  const codes = new OrgaoCodes();
  return COURTS.filter((c) => c.datajudAlias !== null).map((c) => profileOf(c, seed, codes));
}

/** Relative case volume per court: big state courts dominate, as in reality. */
export function courtWeight(court: Court): number {
  const big: Record<string, number> = {
    TJSP: 12,
    TJRJ: 6,
    TJMG: 6,
    TJRS: 5,
    TJPR: 4,
    TRF3: 4,
    TRF1: 4,
    TRF4: 4,
    TRT2: 3,
    TRT15: 3,
    TJBA: 3,
    TJSC: 3,
    TJGO: 3,
    TJPE: 3,
  };
  if (big[court.sigla]) return big[court.sigla];
  switch (court.segmento) {
    case 'Estadual':
      return 1.5;
    case 'Federal':
      return 2;
    case 'Trabalho':
      return 1;
    case 'Eleitoral':
      return 0.25;
    case 'Militar Estadual':
      return 0.2;
    default:
      return 0.5; // superior courts
  }
}
