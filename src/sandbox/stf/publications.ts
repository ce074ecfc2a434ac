/**
 * The simulated STF gazette: fictitious publications of each day, generated on demand from the day
 * alone (the same day always gives the same items), naming the data set's parties and lawyers so that
 * a search for a sandbox party or OAB finds them. Items have the structure of the real API
 * (reference/upstream/real/stf-1.json, README §6; held so by parity.test.ts): the same 18 keys in the
 * same order; `divulgacao` a Brasília wall time without a zone and with 0–3 decimals
 * (`2026-08-13T20:32:00.645`, `…T20:30:03.6`, `…T20:30:03`); `publicacao` an ISO day, null until the
 * edition that publishes it is out (the next business day); a LibreOffice XHTML document in `texto`;
 * `envolvidos` with polo ATIVO, PASSIVO or INTERESSADO, lawyers on any side, the `Sem Representação nos
 * Autos` placeholder, and `identificacoes` in the real notations: none, `OAB 27882/PA`, zero-padded
 * `OAB 076166/RJ`, or a list `OAB's (…)` with the letter forms `29202-A/MA`, `35109 A/PB`, `A2372/AM`,
 * `23765A/AL`, `1520 - A/RN`. Business days have divulgações; some Saturdays have a few (plantão).
 * Where the capture shows only null or one value, what the simulator sends otherwise is marked [guess].
 */
import type { SandboxDataset } from '../data/dataset.ts';
import type { Lawyer, Person } from '../data/model.ts';
import { isNationalHoliday } from '../data/holidays.ts';
import { Random } from '../data/prng.ts';
import { isoDay } from '../djen/dates.ts';

export interface StfEnvolvido {
  nome: string;
  polo: 'ATIVO' | 'PASSIVO' | 'INTERESSADO';
  categoria: string;
  identificacoes: string[];
}

/** One item; its keys in the real API's order (JSON keeps it). */
export interface StfItem {
  id: number;
  processo: string;
  processoId: number;
  tipo: string;
  relator: string;
  divulgacao: string;
  publicacao: string | null;
  texto: string;
  envolvidos: StfEnvolvido[];
  codigo: string;
  observacao: null;
  responsavel: null;
  tipoConteudo: string;
  confidencialidade: string;
  colegiado: string | null;
  sessao: string | null;
  descricao: null;
  tipoPronunciamentoId: number | null;
}

interface Classe {
  sigla: string;
  nome: string;
  ativo: string[];
  passivo: string;
  /** ADI: the other side is INTERESSADO. */
  poloPassivo: 'PASSIVO' | 'INTERESSADO';
  range: [number, number];
}

const CLASSES: readonly Classe[] = [
  { sigla: 'Pet', nome: 'petição', ativo: ['REQUERENTE(S)'], passivo: 'REQUERIDO(A/S)', poloPassivo: 'PASSIVO', range: [10_000, 17_999] },
  {
    sigla: 'RHC',
    nome: 'recurso ordinário em habeas corpus',
    ativo: ['RECORRENTE(S)'],
    passivo: 'RECORRIDO(A/S)',
    poloPassivo: 'PASSIVO',
    range: [200_000, 279_999],
  },
  {
    sigla: 'HC',
    nome: 'habeas corpus',
    ativo: ['PACIENTE(S)', 'IMPETRANTE(S)'],
    passivo: 'COATOR(A/S)(ES)',
    poloPassivo: 'PASSIVO',
    range: [200_000, 269_999],
  },
  {
    sigla: 'ARE',
    nome: 'recurso extraordinário com agravo',
    ativo: ['RECORRENTE(S)'],
    passivo: 'RECORRIDO(A/S)',
    poloPassivo: 'PASSIVO',
    range: [1_400_000, 1_599_999],
  },
  { sigla: 'RE', nome: 'recurso extraordinário', ativo: ['RECORRENTE(S)'], passivo: 'RECORRIDO(A/S)', poloPassivo: 'PASSIVO', range: [1_300_000, 1_599_999] },
  { sigla: 'Rcl', nome: 'reclamação', ativo: ['RECLAMANTE(S)'], passivo: 'RECLAMADO(A/S)', poloPassivo: 'PASSIVO', range: [60_000, 89_999] },
  {
    sigla: 'ADI',
    nome: 'ação direta de inconstitucionalidade',
    ativo: ['REQUERENTE(S)'],
    passivo: 'INTERESSADO(A/S)',
    poloPassivo: 'INTERESSADO',
    range: [7_000, 7_999],
  },
];

interface Tipo {
  tipo: string;
  weight: number;
  /** null: a monocratic act. */
  colegiado: string | null;
}

/** The `Tipo` aggregation's names (stf-1.json); colegiado and codigo of acórdãos are [guess]. */
const TIPOS: readonly Tipo[] = [
  { tipo: 'Decisão Final', weight: 38, colegiado: null },
  { tipo: 'Presidência Distribuição', weight: 25, colegiado: null },
  { tipo: 'Despacho', weight: 18, colegiado: null },
  { tipo: 'Acórdãos Acórdãos 2ª Turma', weight: 5, colegiado: 'Segunda Turma' },
  { tipo: 'Acórdãos Acórdãos Plenário', weight: 4, colegiado: 'Plenário' },
  { tipo: 'Decisão Interlocutória', weight: 3, colegiado: null },
  { tipo: 'Decisão Liminar', weight: 2, colegiado: null },
];
const PLANTAO: Tipo = { tipo: 'Decisão Liminar', weight: 1, colegiado: null };
const PRESIDENTE = 'MINISTRO PRESIDENTE';
const RELATORES = [
  'MIN. ALBERTO DE TESTE FICTÍCIO',
  'MIN. BEATRIZ DE TESTE FICTÍCIA',
  'MIN. CARLOS DE TESTE FICTÍCIO',
  'MIN. DENISE DE TESTE FICTÍCIA',
  'MIN. EDUARDO DE TESTE FICTÍCIO',
];
const DISPOSITIVOS = [
  'Nego seguimento ao recurso (art. 21, § 1º, do RISTF).',
  'Conheço do agravo e nego provimento ao recurso extraordinário.',
  'Concedo a ordem para determinar a soltura do paciente, se por outro motivo não estiver preso.',
  'Julgo procedente a reclamação para cassar o ato reclamado.',
  'Indefiro a liminar. Solicitem-se informações à autoridade coatora.',
  'Dê-se vista à Procuradoria-Geral da República.',
];
const NO_LAWYER = 'Sem Representação nos Autos';
const UFS = ['SP', 'RJ', 'MG', 'RS', 'DF', 'PR', 'BA', 'PE', 'GO', 'MA', 'PB', 'AM', 'AL', 'RN', 'PA', 'ES'];
/** The letter notations of an `OAB's (…)` list (stf-1.json and README §6). */
const LETTER_FORMS: readonly ((n: number, uf: string) => string)[] = [
  (n, uf) => `${n}-A/${uf}`,
  (n, uf) => `${n} A/${uf}`,
  (n, uf) => `A${n}/${uf}`,
  (n, uf) => `${n}A/${uf}`,
  (n, uf) => `${n} - A/${uf}`,
];

/** Monday to Friday, national holidays excepted (Saturdays may still have a few divulgações: plantão; Sundays none). */
export function isBusinessDay(day: number): boolean {
  const weekday = new Date(day * 86_400_000).getUTCDay();
  return weekday !== 0 && weekday !== 6 && !isNationalHoliday(day);
}

export function nextBusinessDay(day: number): number {
  let d = day + 1;
  while (!isBusinessDay(d)) d++;
  return d;
}

/** A Brasília wall time as the real API prints it (Java's ISO_LOCAL_DATE_TIME): milliseconds without their trailing zeros, none when zero. */
export function localTimestamp(day: number, msOfDay: number): string {
  const [seconds, ms] = new Date(day * 86_400_000 + msOfDay).toISOString().slice(0, 23).split('.');
  const fraction = ms.replace(/0+$/, '');
  return fraction ? `${seconds}.${fraction}` : seconds;
}

/** How the STF lists one lawyer's registrations, fixed per lawyer (its registry does not change between items). */
function identificacoes(seed: number, lawyer: Lawyer): string[] {
  if (!lawyer.oab) return [];
  const { uf, numero } = lawyer.oab;
  const rng = new Random('stf-oab', seed, uf, numero);
  const roll = rng.float();
  if (roll < 0.3) {
    const others = rng.shuffle(UFS.filter((u) => u !== uf)).slice(0, rng.int(1, 3));
    const extra = others.map((u) => (rng.chance(0.5) ? rng.pick(LETTER_FORMS) : (n: number, x: string) => `${n}/${x}`)(rng.int(1_000, 699_999), u));
    return [`OAB's (${[`${numero}/${uf}`, ...extra].join(', ')})`];
  }
  if (roll < 0.4 && numero.length < 6) return [`OAB ${numero.padStart(6, '0')}/${uf}`];
  return [`OAB ${numero}/${uf}`];
}

/** The whole LibreOffice XHTML document the STF publishes as `texto` (its skeleton as in stf-1.json). */
function xhtml(paragraphs: string[], relator: string): string {
  const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const body = paragraphs.map((p) => `  <p class="P2">${escapeText(p)}</p>\n  <p class="P2">&nbsp;</p>`).join('\n');
  const [first, ...rest] = relator
    .replace(/^MIN\. /, '')
    .toLowerCase()
    .split(' ')
    .map((w) => (w.length > 2 ? w[0].toUpperCase() + w.slice(1) : w));
  return (
    '<!--?xml version="1.0" encoding="UTF-8"?-->\n' +
    '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1 plus MathML 2.0//EN" "http://www.w3.org/Math/DTD/mathml2/xhtml-math11-f.dtd">\n' +
    '<html xmlns="http://www.w3.org/1999/xhtml" lang="en-US">\n' +
    ' <!--This file was converted to xhtml by LibreOffice - see https://cgit.freedesktop.org/libreoffice/core/tree/filter/source/xslt for the code.-->\n' +
    ' <head profile="http://dublincore.org/documents/dcmi-terms/">\n  <meta charset="UTF-8">\n  <title xml:lang="en-US">- no title specified</title>\n' +
    "  <style>\n    .P2 { font-size:13pt; line-height:110%; text-align:justify ! important; font-family:'Palatino Linotype', serif; text-indent:1cm; }\n" +
    "    .P5 { font-size:13pt; line-height:110%; text-align:center ! important; font-family:'Palatino Linotype', serif; }\n" +
    '    .T2 { font-weight:bold; }\n</style>\n </head>\n' +
    ' <body dir="ltr" style="max-width:21.001cm;margin-top:3.401cm; margin-bottom:2cm; margin-left:4.001cm; margin-right:2cm; ">\n' +
    `${body}\n  <p class="P5">Ministro <span class="T2">${escapeText([first, ...rest].join(' '))}</span></p>\n  <p class="P5">Relator</p>\n </body>\n</html>`
  );
}

interface Generated {
  item: StfItem;
  /** The epoch day of the edition that publishes it. */
  published: number;
}

export class StfGazette {
  readonly #dataset: SandboxDataset;
  readonly #perDay: number;
  readonly #people: readonly Person[];
  readonly #cache = new Map<number, Generated[]>();

  constructor(dataset: SandboxDataset, perDay = 30) {
    this.#dataset = dataset;
    this.#perDay = perDay;
    this.#people = dataset.people;
  }

  /**
   * The publications divulged on `day` (an epoch day number); with `asOf` (today, Brasília), those whose
   * edition comes after it carry `publicacao: null`, as the real API does for divulged, unpublished items.
   */
  day(day: number, asOf?: number): StfItem[] {
    let items = this.#cache.get(day);
    if (!items) {
      items = this.#generate(day);
      if (this.#cache.size > 400) this.#cache.delete(this.#cache.keys().next().value!);
      this.#cache.set(day, items);
    }
    return items.map((g) => (asOf === undefined || g.published <= asOf ? g.item : { ...g.item, publicacao: null }));
  }

  #generate(day: number): Generated[] {
    if (this.#people.length === 0) return [];
    const rng = new Random('stf', this.#dataset.seed, day);
    const saturday = new Date(day * 86_400_000).getUTCDay() === 6;
    if (!isBusinessDay(day) && !(saturday && rng.chance(0.5))) return [];
    const count = saturday ? rng.int(1, 3) : rng.int(Math.ceil(this.#perDay * 0.6), this.#perDay);
    // Divulged through the day, the last ones around 20:30 as in stf-1.json: newest (highest id) first.
    // Milliseconds print with 0–3 decimals (`.645`, `.6`, none): each length occurs.
    const times = Array.from(
      { length: count },
      () => rng.int(8 * 3_600, 21 * 3_600) * 1000 + rng.pick([0, 100 * rng.int(1, 9), 10 * rng.int(1, 99), rng.int(1, 999)]),
    ).sort((a, b) => b - a);
    return times.map((ms, i) => this.#item(rng, day, count - i, ms, saturday));
  }

  #item(rng: Random, day: number, n: number, msOfDay: number, plantao: boolean): Generated {
    const classe = plantao ? CLASSES[2] : rng.pick(CLASSES);
    const tipo = plantao ? PLANTAO : rng.weighted(TIPOS.map((t) => ({ weight: t.weight, value: t })));
    const numero = rng.int(...classe.range);
    const processo = `${classe.sigla} ${numero}`;
    const active = this.#people[rng.skewedIndex(this.#people.length, 2)];
    const passive = this.#people[rng.skewedIndex(this.#people.length, 2)];
    const seed = this.#dataset.seed;
    const lawyers = (p: Person, polo: StfEnvolvido['polo'], max: number): StfEnvolvido[] =>
      p.lawyers.slice(0, max).map((l, i) => ({
        // "e Outro(a/s)" when the STF folds several lawyers into one line (stf-1.json).
        nome: i === 0 && rng.chance(0.1) ? `${l.nome} e Outro(a/s)` : l.nome,
        polo,
        categoria: 'ADVOGADO(A/S)',
        identificacoes: identificacoes(seed, l),
      }));
    const secret = (classe.sigla === 'HC' || classe.sigla === 'RHC') && rng.chance(0.2);
    const initials = (nome: string) =>
      `${nome
        .split(' ')
        .filter((w) => w.length > 2)
        .map((w) => w[0].toUpperCase())
        .join('.')}.`;
    const envolvidos: StfEnvolvido[] = [
      { nome: secret ? initials(active.nome) : active.nome, polo: 'ATIVO', categoria: classe.ativo[0], identificacoes: [] },
      ...lawyers(active, 'ATIVO', 2),
      { nome: passive.nome, polo: classe.poloPassivo, categoria: classe.passivo, identificacoes: [] },
      ...(passive.lawyers.length > 0 && rng.chance(0.7)
        ? lawyers(passive, classe.poloPassivo, 1)
        : [{ nome: NO_LAWYER, polo: classe.poloPassivo, categoria: 'ADVOGADO(A/S)', identificacoes: [] }]),
    ];
    if (classe.poloPassivo === 'PASSIVO' && rng.chance(0.15)) {
      const third = this.#people[rng.skewedIndex(this.#people.length, 2)];
      envolvidos.push({ nome: third.nome, polo: 'INTERESSADO', categoria: 'INTERESSADO(A/S)', identificacoes: [] }, ...lawyers(third, 'INTERESSADO', 1));
    }
    if (classe.sigla === 'HC' || classe.sigla === 'RHC')
      envolvidos.push({ nome: 'Procurador-geral da República', polo: 'PASSIVO', categoria: 'PROCURADOR(ES)', identificacoes: [] });
    const relator = tipo.tipo === 'Presidência Distribuição' ? PRESIDENTE : rng.pick(RELATORES);
    const texto = xhtml(
      [
        `Trata-se de ${classe.nome} ajuizada por ${active.nome} em face de ${passive.nome}.`,
        rng.pick(DISPOSITIVOS),
        'Publique-se.',
        `Brasília, ${isoDay(day).split('-').reverse().join('/')}.`,
      ],
      relator === PRESIDENTE ? RELATORES[0] : relator,
    );
    const colegiado = tipo.colegiado;
    const item: StfItem = {
      id: day * 10_000 + n,
      processo,
      processoId: 7_000_000 + (numero % 1_000_000),
      tipo: tipo.tipo,
      relator,
      divulgacao: localTimestamp(day, msOfDay),
      publicacao: isoDay(nextBusinessDay(day)),
      texto,
      envolvidos,
      codigo: `${colegiado ? 'acordaos' : 'decisoes-monocraticas'}:${rng.int(500_000, 699_999)}`,
      observacao: null,
      responsavel: null,
      tipoConteudo: colegiado ? 'Publicação Colegiada' : 'Publicação Monocrática',
      confidencialidade: 'Público',
      colegiado,
      sessao: colegiado ? `${rng.int(1, 40)}-${isoDay(day).slice(0, 4)}` : null,
      descricao: null,
      tipoPronunciamentoId: tipo.tipo === 'Presidência Distribuição' ? null : rng.int(1_200, 2_100),
    };
    return { item, published: nextBusinessDay(day) };
  }
}
