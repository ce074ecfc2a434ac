/**
 * Builds the sandbox data set from (seed, size): fictitious cases spread over the 91 DataJud aliases,
 * each with a valid CNJ number of its court, 1–3 instances with TPU classes, subjects and movements,
 * parties (pooled, so documents repeat across cases), lawyers, a value and public documents.
 * Every case draws from its own PRNG stream (seed, index), so a case does not depend on the ones
 * generated before it except through the shared pools and number uniqueness.
 */
import { cnjCheckDigits } from '../../platform/identifiers/cnj.ts';
import { buildCourtProfiles, courtWeight, type CourtProfile } from './courts.ts';
import { familiesOf, precatorioFamily, type CaseFamily, type Grau, type PartyKind } from './families.ts';
import type { Instance, Lawyer, Movement, Orgao, Party, Person, PublicDocument, SandboxCase } from './model.ts';
import type { Pools } from './people.ts';
import { Random } from './prng.ts';
import { appendFuture, cutOpen, placeInTime, TIME, writeScript, type DocumentKind, type Script } from './timeline.ts';
import { CLASSES, type Code } from './tpu.ts';

const YEAR = 365.25 * TIME.DAY;
const FORMATO_ELETRONICO: Code = Object.freeze({ codigo: 1, nome: 'Eletrônico' });
const FORMATO_FISICO: Code = Object.freeze({ codigo: 2, nome: 'Físico' });

export interface GenerationContext {
  seed: number;
  anchor: number;
  futureWindow: number;
  profiles: CourtProfile[];
  pools: Pools;
  numbers: Set<string>;
}

export function generationContext(seed: number, anchor: number, futureWindow: number, pools: Pools): GenerationContext {
  return { seed, anchor, futureWindow, profiles: buildCourtProfiles(seed), pools, numbers: new Set() };
}

/** The first 91 cases take one court each, so every alias has cases; the rest follow court volume. */
function courtFor(index: number, rng: Random, ctx: GenerationContext): CourtProfile {
  if (index < ctx.profiles.length) return ctx.profiles[index];
  return rng.weighted(ctx.profiles.map((p) => ({ weight: courtWeight(p.court), value: p })));
}

function familyFor(rng: Random, profile: CourtProfile): CaseFamily {
  const { segmento, sigla } = profile.court;
  const ownNumber = segmento === 'Superior' && (sigla !== 'STM' || rng.chance(0.3));
  return rng.weighted(familiesOf(segmento, sigla, ownNumber).map((f) => ({ weight: f.weight, value: f })));
}

/** Age of the case at the anchor: mostly recent, a tail back to 15 years. */
function ageOf(rng: Random): number {
  return rng.chance(0.7) ? rng.float() * 5 * YEAR : (5 + rng.float() * 10) * YEAR;
}

interface Timeline {
  script: Script;
  formato: Code;
  declined: boolean;
}

function planTimeline(rng: Random, ctx: GenerationContext, family: CaseFamily, future: boolean): Timeline {
  const age = ageOf(rng);
  const start = future ? ctx.anchor + rng.int(TIME.MINUTE, Math.floor(ctx.futureWindow * 0.8)) : ctx.anchor - age;
  const old = new Date(start).getUTCFullYear() < 2014;
  const conversion = old && rng.chance(0.5);
  const formato = old && !conversion && rng.chance(0.2) ? FORMATO_FISICO : FORMATO_ELETRONICO;
  const declined = !!family.declinedTo && !future && rng.chance(0.1);
  const hasAppeal = !!family.appeal && !future && rng.chance(family.appeal.probability);
  const finished = !future && rng.chance(Math.min(0.85, age / (6 * YEAR)));
  const script = writeScript(rng, {
    firstCount: Math.min(56, rng.triangular(5, 14, 60)),
    execution: family.key === 'execucao' || family.key === 'fiscal' || family.key === 'cumprimento',
    appeal: hasAppeal ? { count: rng.triangular(5, 10, 30) } : null,
    conversion,
    declined,
  });
  if (future) {
    script.steps.length = rng.int(5, 8); // a new case: distribuição and its first days
    placeInTime(script, start, Math.min(ctx.anchor + ctx.futureWindow, start + rng.int(TIME.HOUR, 3 * TIME.DAY)));
  } else if (finished) {
    placeInTime(script, start, start + age * (0.4 + rng.float() * 0.55));
  } else {
    cutOpen(rng, script);
    const recent = Math.min(age, rng.float() * 90 * TIME.DAY);
    placeInTime(script, start, ctx.anchor - recent);
    if (rng.chance(0.3)) appendFuture(rng, script, ctx.anchor, ctx.futureWindow);
  }
  return { script, formato, declined };
}

function sequentialPart(rng: Random, profile: CourtProfile, old: boolean): number {
  const [min, max] = old ? [1, 99_999] : profile.sequence;
  return rng.int(min, max);
}

/** NNNNNNN-DD.AAAA.J.TR.OOOO with MOD 97-10 check digits; drawn again on the rare collision. */
function caseNumber(rng: Random, ctx: GenerationContext, profile: CourtProfile, unit: Orgao, year: number): string {
  const j = profile.court.j;
  const tr = unit.tr ?? profile.court.tr;
  const aaaa = String(year);
  for (;;) {
    const n7 = String(sequentialPart(rng, profile, year < 2010)).padStart(7, '0');
    const numero = `${n7}${cnjCheckDigits(n7, aaaa, j, tr, unit.origem)}${aaaa}${j}${tr}${unit.origem}`;
    if (!ctx.numbers.has(numero)) {
      ctx.numbers.add(numero);
      return numero;
    }
  }
}

function instanceId(profile: CourtProfile, grau: Grau, classe: Code, orgao: Orgao, numero: string): string {
  return profile.longIds ? `${profile.tribunal}_${classe.codigo}_${grau}_${orgao.codigo}_${numero}` : `${profile.tribunal}_${grau}_${numero}`;
}

/** DataJud's listing order of an instance's movements: newest first or shuffled, with some exact duplicates. */
function listingOrder(rng: Random, count: number): number[] {
  const order = Array.from({ length: count }, (_, i) => i);
  if (rng.chance(0.5)) order.reverse();
  else rng.shuffle(order);
  if (rng.chance(0.06)) {
    for (let d = rng.int(1, 3); d > 0; d--) {
      const at = rng.int(0, order.length - 1);
      order.splice(at, 0, order[at]);
    }
  }
  return order;
}

function pickSubjects(rng: Random, family: CaseFamily): Code[] {
  const n = Math.min(family.assuntos.length, rng.chance(0.6) ? 1 : 2);
  return rng.shuffle([...family.assuntos]).slice(0, n);
}

/** dataAjuizamento: the distribuição itself, or up to 36 h earlier where courts send the date only (ISO style). */
function ajuizamento(rng: Random, profile: CourtProfile, distribuicao: number): number {
  return profile.dateStyle === 'iso' ? distribuicao - rng.int(0, 36 * TIME.HOUR) : distribuicao;
}

interface InstanceRole {
  grau: Grau;
  classe: Code;
  orgao: Orgao;
}

/** Grau, class and órgão of instance 0, 1, 2 of the case (declined juizado cases: JE, G1, G2). */
function instanceRoles(rng: Random, profile: CourtProfile, family: CaseFamily, unit: Orgao, declined: boolean): InstanceRole[] {
  const recourse = (grau: Grau) => rng.pick(profile.recourse[grau] ?? profile.recourse.G2!);
  const first = { grau: family.firstGrau, classe: family.firstClass, orgao: unit };
  if (declined && family.declinedTo) {
    const varas = profile.units[family.declinedTo.unit]!;
    const local = varas.filter((v) => v.uf === unit.uf);
    return [
      first,
      { grau: 'G1', classe: family.declinedTo.classe, orgao: rng.pick(local.length ? local : varas) },
      { grau: 'G2', classe: family.declinedTo.appeal, orgao: recourse('G2') },
    ];
  }
  return family.appeal ? [first, { grau: family.appeal.grau, classe: family.appeal.classe, orgao: recourse(family.appeal.grau) }] : [first];
}

function buildInstances(
  rng: Random,
  profile: CourtProfile,
  family: CaseFamily,
  unit: Orgao,
  tl: Timeline,
  numero: string,
  firstAjuizamento: number,
): Instance[] {
  const movements: Movement[][] = [];
  for (const st of tl.script.steps) {
    movements[st.inst] ??= [];
    movements[st.inst].push({ type: st.type, at: st.at });
  }
  const assuntos = pickSubjects(rng, family);
  const roles = instanceRoles(rng, profile, family, unit, tl.declined);
  return movements.map((list, i) => {
    const { grau, classe, orgao } = roles[i];
    const ajuizadoAt = i === 0 ? firstAjuizamento : ajuizamento(rng, profile, list[0].at);
    const sistema = i > 0 && profile.eproc && rng.chance(0.5) ? { codigo: 4, nome: 'Projudi' } : profile.sistema; // the TRF4 oddity, datajud.md §7
    return {
      grau,
      id: instanceId(profile, grau, classe, orgao, numero),
      classe,
      assuntos,
      orgao,
      sistema,
      formato: tl.formato,
      ajuizadoAt,
      movements: list,
      listing: listingOrder(rng, list.length),
      nanos: rng.digits(6),
    };
  });
}

function personFor(rng: Random, kind: PartyKind, pools: Pools, uf: string): Person {
  switch (kind) {
    case 'person':
      return pools.persons[rng.skewedIndex(pools.persons.length, 1.6)];
    case 'company':
      return pools.companies[rng.skewedIndex(pools.companies.length, 2.2)];
    case 'bank':
      return pools.banks[rng.skewedIndex(pools.banks.length, 1.8)];
    case 'politicalParty':
      return pools.politicalParties[rng.skewedIndex(pools.politicalParties.length, 1.5)];
    case 'publicEntity':
      return rng.pick(pools.publicEntities.get(uf)!);
    case 'prosecutor':
      return pools.prosecutors.get(uf)!;
    case 'socialSecurity':
      return pools.socialSecurity;
    case 'federalTreasury':
      return pools.federalTreasury;
  }
}

function lawyersFor(rng: Random, person: Person, pools: Pools, uf: string, juizado: boolean): Lawyer[] {
  if (person.lawyers.length > 0) return rng.shuffle([...person.lawyers]).slice(0, rng.int(1, Math.min(2, person.lawyers.length)));
  if (person.tipoPessoa === 'JURIDICA' || (juizado && rng.chance(0.4))) return [];
  const local = pools.lawyersByUf.get(uf)!;
  const pick = () => (rng.chance(0.8) ? local[rng.skewedIndex(local.length, 1.5)] : pools.lawyers[rng.skewedIndex(pools.lawyers.length, 2)]);
  const first = pick();
  const second = rng.chance(0.15) ? pick() : first;
  return second === first ? [first] : [first, second];
}

function buildParties(rng: Random, family: CaseFamily, pools: Pools, uf: string): Party[] {
  const used = new Set<Person>();
  const juizado = family.firstGrau === 'JE';
  const parties: Party[] = [];
  /** A party not yet in the case (a few draws; pools are large, single entities may repeat). */
  const add = (polo: Party['polo'], tipo: string, kinds: readonly PartyKind[]) => {
    for (let tries = 0; tries < 8; tries++) {
      const person = personFor(rng, rng.pick(kinds), pools, uf);
      if (used.has(person)) continue;
      used.add(person);
      parties.push({ polo, tipo, person, advogados: lawyersFor(rng, person, pools, uf, juizado) });
      return;
    }
  };
  const ativos = rng.chance(0.8) ? 1 : 2;
  const passivos = rng.chance(0.75) ? 1 : 2;
  for (let i = 0; i < ativos; i++) add('ATIVO', family.roles.ativo, family.ativo);
  for (let i = 0; i < passivos; i++) add('PASSIVO', family.roles.passivo, i === 0 ? family.passivo : [...family.passivo, 'person']);
  if (rng.chance(0.05)) add('OUTROS', 'TERCEIRO INTERESSADO', ['person']);
  return parties;
}

/** Log-uniform from R$ 1.000,00 to R$ 5.000.000,00, in centavos; most values in whole reais. */
function valorCausa(rng: Random, family: CaseFamily): number | null {
  if (!family.hasValue || rng.chance(0.08)) return null;
  const centavos = Math.round(Math.exp(Math.log(1e5) + rng.float() * (Math.log(5e8) - Math.log(1e5))));
  return rng.chance(0.6) ? Math.round(centavos / 100) * 100 : centavos;
}

const DOCUMENT_TEXT: Record<DocumentKind, { titulo: string; tipo: string }> = {
  inicial: { titulo: 'Petição inicial', tipo: 'Petição' },
  despacho: { titulo: 'Despacho de mero expediente', tipo: 'Despacho' },
  decisao: { titulo: 'Decisão interlocutória', tipo: 'Decisão' },
  sentenca: { titulo: 'Sentença', tipo: 'Sentença' },
  acordao: { titulo: 'Acórdão', tipo: 'Acórdão' },
  certidao: { titulo: 'Certidão', tipo: 'Certidão' },
};

/** 0–4 public documents, each joined at the time of the movement that produced it. */
function buildDocuments(rng: Random, script: Script): PublicDocument[] {
  const candidates = script.steps.filter((st) => st.doc);
  const count = Math.min(
    candidates.length,
    rng.weighted([
      { weight: 15, value: 0 },
      { weight: 30, value: 1 },
      { weight: 25, value: 2 },
      { weight: 18, value: 3 },
      { weight: 12, value: 4 },
    ]),
  );
  const ids = new Set<string>();
  return rng
    .shuffle([...candidates])
    .slice(0, count)
    .sort((a, b) => a.at - b.at)
    .map((st) => {
      let id: string;
      do id = String(rng.int(10_000_000, 99_999_999));
      while (ids.has(id));
      ids.add(id);
      return { id, ...DOCUMENT_TEXT[st.doc!], juntadaAt: st.at, mimeType: 'application/pdf' as const };
    });
}

export function generateCase(index: number, ctx: GenerationContext): SandboxCase {
  const rng = new Random(ctx.seed, 'case', index);
  const profile = courtFor(index, rng, ctx);
  const family = familyFor(rng, profile);
  const c = buildCase(index, rng, ctx, profile, family);
  for (const p of c.partes) p.person.cases.push(c);
  return c;
}

/**
 * A precatório or RPV (TPU classes 1265/1266) at a state or federal court: what DataJud's precatório
 * harvest finds (issue 17). Its parties are drawn from the pools but it is not added to their case
 * lists, so the regular data set's lookups (by party, by lawyer) and examples stay exactly as they were.
 */
export function generatePrecatorioCase(index: number, ctx: GenerationContext): SandboxCase {
  const rng = new Random(ctx.seed, 'precatorio', index);
  const profile = rng.pick(
    ctx.profiles.filter((p) => (p.court.segmento === 'Estadual' && p.units.fazenda?.length) || (p.court.segmento === 'Federal' && p.units.federal?.length)),
  );
  return buildCase(index, rng, ctx, profile, precatorioFamily(rng.chance(0.6) ? CLASSES.precatorio : CLASSES.rpv, profile.court.segmento === 'Federal'));
}

function buildCase(index: number, rng: Random, ctx: GenerationContext, profile: CourtProfile, family: CaseFamily): SandboxCase {
  const units = family.firstGrau === 'SUP' ? profile.recourse.SUP! : profile.units[family.unit]!;
  const unit = rng.pick(units);
  const tl = planTimeline(rng, ctx, family, rng.chance(0.01));
  const firstAjuizamento = ajuizamento(rng, profile, tl.script.steps[0].at);
  const numero = caseNumber(rng, ctx, profile, unit, new Date(firstAjuizamento).getUTCFullYear());
  const instances = buildInstances(rng, profile, family, unit, tl, numero, firstAjuizamento);
  return {
    index,
    numero,
    court: profile.court,
    alias: profile.alias,
    familyKey: family.key,
    filedAt: instances[0].movements[0].at,
    instances,
    valorCausaCentavos: valorCausa(rng, family),
    partes: buildParties(rng, family, ctx.pools, unit.uf),
    documentos: buildDocuments(rng, tl.script),
  };
}

/** The profile of every alias, for the DataJud renderer's quirks. */
export function profilesByAlias(ctx: GenerationContext): Map<string, CourtProfile> {
  return new Map(ctx.profiles.map((p) => [p.alias, p]));
}
