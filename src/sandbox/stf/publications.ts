/**
 * The simulated STF gazette (DJe STF, reference/upstream/wave2.md §B): fictitious publications of each
 * business day, generated on demand from the day alone (the same day always gives the same items),
 * naming the data set's parties and lawyers so that a search for a sandbox party or OAB finds them.
 * Items have the 18 keys of the real API, dates as `DD/MM/YYYY`, HTML in `texto`; publication is the
 * business day after divulgação.
 */
import type { SandboxDataset } from '../data/dataset.ts';
import type { Lawyer, Person } from '../data/model.ts';
import { Random } from '../data/prng.ts';
import { brDay } from '../djen/dates.ts';

export interface StfEnvolvido {
  nome: string;
  polo: 'ATIVO' | 'PASSIVO' | null;
  categoria: string;
  identificacoes: string[];
}

export interface StfItem {
  id: number;
  processo: string;
  processoId: number;
  tipo: string;
  relator: string;
  divulgacao: string;
  publicacao: string;
  texto: string;
  envolvidos: StfEnvolvido[];
  codigo: string;
  observacao: string | null;
  responsavel: string;
  tipoConteudo: string;
  confidencialidade: string;
  colegiado: string | null;
  sessao: string | null;
  descricao: string;
  tipoPronunciamentoId: number;
}

const CLASSES = [
  { sigla: 'ARE', nome: 'Recurso Extraordinário com Agravo', partes: ['RECTE.(S)', 'RECDO.(A/S)'] },
  { sigla: 'RE', nome: 'Recurso Extraordinário', partes: ['RECTE.(S)', 'RECDO.(A/S)'] },
  { sigla: 'HC', nome: 'Habeas Corpus', partes: ['PACTE.(S)', 'COATOR(A/S)(ES)'] },
  { sigla: 'Rcl', nome: 'Reclamação', partes: ['RECLTE.(S)', 'RECLDO.(A/S)'] },
  { sigla: 'MS', nome: 'Mandado de Segurança', partes: ['IMPTE.(S)', 'IMPDO.(A/S)'] },
  { sigla: 'ADI', nome: 'Ação Direta de Inconstitucionalidade', partes: ['REQTE.(S)', 'INTDO.(A/S)'] },
] as const;
const TIPOS = [
  { tipo: 'Decisão monocrática', id: 1, colegiado: null },
  { tipo: 'Acórdão', id: 2, colegiado: 'Primeira Turma' },
  { tipo: 'Acórdão', id: 2, colegiado: 'Segunda Turma' },
  { tipo: 'Despacho', id: 3, colegiado: null },
] as const;
const RELATORES = ['Min. Alberto de Teste Fictício', 'Min. Beatriz de Teste Fictícia', 'Min. Carlos de Teste Fictício', 'Min. Denise de Teste Fictícia', 'Min. Eduardo de Teste Fictício'];
const DISPOSITIVOS = [
  'Nego seguimento ao recurso (art. 21, § 1º, do RISTF).',
  'Conheço do agravo e nego provimento ao recurso extraordinário.',
  'Concedo a ordem para determinar a soltura do paciente, se por outro motivo não estiver preso.',
  'Julgo procedente a reclamação para cassar o ato reclamado.',
  'Indefiro a liminar. Solicitem-se informações à autoridade coatora.',
  'Dê-se vista à Procuradoria-Geral da República.',
];

/** Business days only: Saturdays and Sundays have no divulgação. */
export function isBusinessDay(day: number): boolean {
  const weekday = new Date(day * 86_400_000).getUTCDay();
  return weekday !== 0 && weekday !== 6;
}

export function nextBusinessDay(day: number): number {
  let d = day + 1;
  while (!isBusinessDay(d)) d++;
  return d;
}

/** "OAB 12345/SP", as the real `identificacoes` print it. */
const oabText = (l: Lawyer) => (l.oab ? `OAB ${l.oab.numero}/${l.oab.uf}` : null);

export class StfGazette {
  readonly #dataset: SandboxDataset;
  readonly #perDay: number;
  readonly #people: readonly Person[];
  readonly #cache = new Map<number, StfItem[]>();

  constructor(dataset: SandboxDataset, perDay = 30) {
    this.#dataset = dataset;
    this.#perDay = perDay;
    this.#people = dataset.people;
  }

  /** The publications divulged on `day` (an epoch day number). */
  day(day: number): StfItem[] {
    if (!isBusinessDay(day) || this.#people.length === 0) return [];
    let items = this.#cache.get(day);
    if (!items) {
      items = this.#generate(day);
      if (this.#cache.size > 400) this.#cache.delete(this.#cache.keys().next().value!);
      this.#cache.set(day, items);
    }
    return items;
  }

  #generate(day: number): StfItem[] {
    const rng = new Random('stf', this.#dataset.seed, day);
    const count = rng.int(Math.ceil(this.#perDay * 0.6), this.#perDay);
    return Array.from({ length: count }, (_, i) => this.#item(rng, day, i));
  }

  #item(rng: Random, day: number, i: number): StfItem {
    const classe = rng.pick(CLASSES);
    const tipo = rng.pick(TIPOS);
    const numero = rng.int(100_000, 1_599_999);
    const processo = `${classe.sigla} ${numero.toLocaleString('pt-BR')}`;
    const active = this.#people[rng.skewedIndex(this.#people.length, 2)];
    const passive = this.#people[rng.skewedIndex(this.#people.length, 2)];
    const lawyer = (l: Lawyer, polo: 'ATIVO' | 'PASSIVO'): StfEnvolvido => ({ nome: l.nome.toUpperCase(), polo, categoria: 'ADV.(A/S)', identificacoes: oabText(l) ? [oabText(l)!] : [] });
    const envolvidos: StfEnvolvido[] = [
      { nome: active.nome.toUpperCase(), polo: 'ATIVO', categoria: classe.partes[0], identificacoes: [] },
      ...active.lawyers.slice(0, 2).map((l) => lawyer(l, 'ATIVO')),
      { nome: passive.nome.toUpperCase(), polo: 'PASSIVO', categoria: classe.partes[1], identificacoes: [] },
      ...passive.lawyers.slice(0, 1).map((l) => lawyer(l, 'PASSIVO')),
    ];
    const relator = rng.pick(RELATORES);
    const dispositivo = rng.pick(DISPOSITIVOS);
    const parties = envolvidos.map((e) => `<p><b>${e.categoria}</b> : ${e.nome}${e.identificacoes.length ? ` (${e.identificacoes.join(', ')})` : ''}</p>`).join('');
    const texto = `<div class="publicacao"><p><b>${classe.nome.toUpperCase()} ${numero.toLocaleString('pt-BR')}</b></p><p>ORIGEM : ${rng.pick(['SP', 'RJ', 'MG', 'RS', 'DF', 'PR'])}</p>`
      + `<p>RELATOR : ${relator.toUpperCase()}</p>${parties}<p><b>${tipo.tipo.toUpperCase()}</b></p>`
      + `<p>Trata-se de ${classe.nome.toLowerCase()} interposto por ${active.nome} contra ${passive.nome}. ${dispositivo}</p>`
      + `<p>Publique-se. Brasília, ${brDay(day)}.</p><p>${relator}<br>Relator</p><p><i>Documento fictício do sandbox do Tramita.</i></p></div>`;
    return {
      id: day * 10_000 + i + 1, processo, processoId: numero * 10 + rng.int(0, 9), tipo: tipo.tipo, relator,
      divulgacao: brDay(day), publicacao: brDay(nextBusinessDay(day)), texto, envolvidos,
      codigo: `${classe.sigla}${numero}`, observacao: null, responsavel: 'Secretaria Judiciária (fictícia)', tipoConteudo: 'TEXTO',
      confidencialidade: 'PUBLICO', colegiado: tipo.colegiado, sessao: tipo.colegiado ? `Sessão Virtual de ${brDay(day - 7)} a ${brDay(day - 1)}` : null,
      descricao: `${tipo.tipo} - ${processo}`, tipoPronunciamentoId: tipo.id,
    };
  }
}
