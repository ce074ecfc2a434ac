/**
 * Kinds of case the sandbox generates, per justice segment: which class the first and the appeal
 * instance get, the party roles, who sits on each side, the subjects and whether the case has a value.
 */
import { ASSUNTOS, CLASSES, type Code } from './tpu.ts';

/** Who a party is: the pools in people.ts draw one of these. */
export type PartyKind = 'person' | 'company' | 'bank' | 'publicEntity' | 'socialSecurity' | 'federalTreasury' | 'prosecutor' | 'politicalParty';

/** Which list of órgãos julgadores (courts.ts) the first instance is drawn from. */
export type UnitKind = 'civel' | 'fazenda' | 'criminal' | 'juizado' | 'federal' | 'jef' | 'trabalho' | 'zona' | 'auditoria' | 'superior';

export type Grau = 'G1' | 'G2' | 'JE' | 'TR' | 'SUP';

export interface CaseFamily {
  key: string;
  weight: number;
  firstGrau: 'G1' | 'JE' | 'SUP';
  firstClass: Code;
  unit: UnitKind;
  /** The recourse instance (G2 above G1, TR above JE) and how often cases reach it. */
  appeal?: { grau: 'G2' | 'TR'; classe: Code; probability: number };
  /**
   * Juizado cases that the juizado declines (e.g. value above its limit) and a vara takes over: the
   * number then has JE, G1 and maybe G2 documents, like the real 5005545-67.2020.4.03.6103 (G1/JE/TR).
   */
  declinedTo?: { unit: UnitKind; classe: Code; appeal: Code };
  roles: { ativo: string; passivo: string };
  ativo: readonly PartyKind[];
  passivo: readonly PartyKind[];
  assuntos: readonly Code[];
  /** false: criminal/electoral cases carry no valor da causa. */
  hasValue: boolean;
}

const AUTOR_REU = { ativo: 'AUTOR', passivo: 'RÉU' };
const EXECUCAO = { ativo: 'EXEQUENTE', passivo: 'EXECUTADO' };
const IMPETRACAO = { ativo: 'IMPETRANTE', passivo: 'IMPETRADO' };
const RECURSO = { ativo: 'RECORRENTE', passivo: 'RECORRIDO' };
const AGRAVO = { ativo: 'AGRAVANTE', passivo: 'AGRAVADO' };

const family = (f: CaseFamily): CaseFamily => Object.freeze(f);

const ESTADUAL: readonly CaseFamily[] = [
  family({
    key: 'civel',
    weight: 30,
    firstGrau: 'G1',
    firstClass: CLASSES.procedimentoComum,
    unit: 'civel',
    appeal: { grau: 'G2', classe: CLASSES.apelacaoCivel, probability: 0.3 },
    roles: AUTOR_REU,
    ativo: ['person', 'person', 'company'],
    passivo: ['company', 'bank', 'person'],
    assuntos: ASSUNTOS.civil,
    hasValue: true,
  }),
  family({
    key: 'monitoria',
    weight: 4,
    firstGrau: 'G1',
    firstClass: CLASSES.monitoria,
    unit: 'civel',
    appeal: { grau: 'G2', classe: CLASSES.apelacaoCivel, probability: 0.15 },
    roles: AUTOR_REU,
    ativo: ['company', 'bank'],
    passivo: ['person', 'company'],
    assuntos: ASSUNTOS.civil,
    hasValue: true,
  }),
  family({
    key: 'execucao',
    weight: 10,
    firstGrau: 'G1',
    firstClass: CLASSES.execucaoTitulo,
    unit: 'civel',
    appeal: { grau: 'G2', classe: CLASSES.agravoInstrumento, probability: 0.1 },
    roles: EXECUCAO,
    ativo: ['bank', 'company'],
    passivo: ['person', 'company'],
    assuntos: ASSUNTOS.civil,
    hasValue: true,
  }),
  family({
    key: 'cumprimento',
    weight: 5,
    firstGrau: 'G1',
    firstClass: CLASSES.cumprimentoSentenca,
    unit: 'civel',
    appeal: { grau: 'G2', classe: CLASSES.agravoInstrumento, probability: 0.1 },
    roles: EXECUCAO,
    ativo: ['person', 'company'],
    passivo: ['company', 'bank', 'person'],
    assuntos: ASSUNTOS.civil,
    hasValue: true,
  }),
  family({
    key: 'alienacao',
    weight: 5,
    firstGrau: 'G1',
    firstClass: CLASSES.buscaApreensaoFiduciaria,
    unit: 'civel',
    appeal: { grau: 'G2', classe: CLASSES.apelacaoCivel, probability: 0.1 },
    roles: AUTOR_REU,
    ativo: ['bank'],
    passivo: ['person'],
    assuntos: ASSUNTOS.civil,
    hasValue: true,
  }),
  family({
    key: 'mandado',
    weight: 3,
    firstGrau: 'G1',
    firstClass: CLASSES.mandadoSeguranca,
    unit: 'fazenda',
    appeal: { grau: 'G2', classe: CLASSES.apelacaoRemessa, probability: 0.35 },
    roles: IMPETRACAO,
    ativo: ['person', 'company'],
    passivo: ['publicEntity'],
    assuntos: ASSUNTOS.civil,
    hasValue: true,
  }),
  family({
    key: 'fiscal',
    weight: 10,
    firstGrau: 'G1',
    firstClass: CLASSES.execucaoFiscal,
    unit: 'fazenda',
    appeal: { grau: 'G2', classe: CLASSES.apelacaoCivel, probability: 0.08 },
    roles: EXECUCAO,
    ativo: ['publicEntity'],
    passivo: ['company', 'person'],
    assuntos: ASSUNTOS.fiscal,
    hasValue: true,
  }),
  family({
    key: 'juizado',
    weight: 20,
    firstGrau: 'JE',
    firstClass: CLASSES.juizadoCivel,
    unit: 'juizado',
    appeal: { grau: 'TR', classe: CLASSES.recursoInominado, probability: 0.3 },
    roles: AUTOR_REU,
    declinedTo: { unit: 'civel', classe: CLASSES.procedimentoComum, appeal: CLASSES.apelacaoCivel },
    ativo: ['person'],
    passivo: ['company', 'bank'],
    assuntos: ASSUNTOS.civil,
    hasValue: true,
  }),
  family({
    key: 'criminal',
    weight: 8,
    firstGrau: 'G1',
    firstClass: CLASSES.acaoPenal,
    unit: 'criminal',
    appeal: { grau: 'G2', classe: CLASSES.apelacaoCriminal, probability: 0.3 },
    roles: AUTOR_REU,
    ativo: ['prosecutor'],
    passivo: ['person'],
    assuntos: ASSUNTOS.penal,
    hasValue: false,
  }),
];

const FEDERAL: readonly CaseFamily[] = [
  family({
    key: 'previdenciario',
    weight: 25,
    firstGrau: 'G1',
    firstClass: CLASSES.procedimentoComum,
    unit: 'federal',
    appeal: { grau: 'G2', classe: CLASSES.apelacaoRemessa, probability: 0.35 },
    roles: AUTOR_REU,
    ativo: ['person'],
    passivo: ['socialSecurity'],
    assuntos: ASSUNTOS.previdenciario,
    hasValue: true,
  }),
  family({
    key: 'jef',
    weight: 30,
    firstGrau: 'JE',
    firstClass: CLASSES.juizadoCivel,
    unit: 'jef',
    appeal: { grau: 'TR', classe: CLASSES.recursoInominado, probability: 0.35 },
    roles: AUTOR_REU,
    declinedTo: { unit: 'federal', classe: CLASSES.procedimentoComum, appeal: CLASSES.apelacaoRemessa },
    ativo: ['person'],
    passivo: ['socialSecurity', 'federalTreasury'],
    assuntos: ASSUNTOS.previdenciario,
    hasValue: true,
  }),
  family({
    key: 'fiscal',
    weight: 20,
    firstGrau: 'G1',
    firstClass: CLASSES.execucaoFiscal,
    unit: 'federal',
    appeal: { grau: 'G2', classe: CLASSES.apelacaoCivel, probability: 0.1 },
    roles: EXECUCAO,
    ativo: ['federalTreasury'],
    passivo: ['company', 'person'],
    assuntos: ASSUNTOS.fiscal,
    hasValue: true,
  }),
  family({
    key: 'mandado',
    weight: 8,
    firstGrau: 'G1',
    firstClass: CLASSES.mandadoSeguranca,
    unit: 'federal',
    appeal: { grau: 'G2', classe: CLASSES.apelacaoRemessa, probability: 0.4 },
    roles: IMPETRACAO,
    ativo: ['company', 'person'],
    passivo: ['federalTreasury'],
    assuntos: ASSUNTOS.civil,
    hasValue: true,
  }),
  family({
    key: 'criminal',
    weight: 5,
    firstGrau: 'G1',
    firstClass: CLASSES.acaoPenal,
    unit: 'federal',
    appeal: { grau: 'G2', classe: CLASSES.apelacaoCriminal, probability: 0.3 },
    roles: AUTOR_REU,
    ativo: ['prosecutor'],
    passivo: ['person'],
    assuntos: ASSUNTOS.penal,
    hasValue: false,
  }),
];

const TRABALHO: readonly CaseFamily[] = [
  family({
    key: 'ordinario',
    weight: 4,
    firstGrau: 'G1',
    firstClass: CLASSES.trabalhistaOrdinario,
    unit: 'trabalho',
    appeal: { grau: 'G2', classe: CLASSES.recursoOrdinarioTrabalhista, probability: 0.35 },
    roles: { ativo: 'RECLAMANTE', passivo: 'RECLAMADO' },
    ativo: ['person'],
    passivo: ['company', 'company', 'bank'],
    assuntos: ASSUNTOS.trabalho,
    hasValue: true,
  }),
  family({
    key: 'sumarissimo',
    weight: 1,
    firstGrau: 'G1',
    firstClass: CLASSES.trabalhistaSumarissimo,
    unit: 'trabalho',
    appeal: { grau: 'G2', classe: CLASSES.recursoOrdinarioSumarissimo, probability: 0.25 },
    roles: { ativo: 'RECLAMANTE', passivo: 'RECLAMADO' },
    ativo: ['person'],
    passivo: ['company'],
    assuntos: ASSUNTOS.trabalho,
    hasValue: true,
  }),
];

const ELEITORAL: readonly CaseFamily[] = [
  family({
    key: 'contas',
    weight: 3,
    firstGrau: 'G1',
    firstClass: CLASSES.prestacaoContasEleitorais,
    unit: 'zona',
    appeal: { grau: 'G2', classe: CLASSES.recursoEleitoral, probability: 0.2 },
    roles: { ativo: 'REQUERENTE', passivo: 'INTERESSADO' },
    ativo: ['person'],
    passivo: ['politicalParty'],
    assuntos: ASSUNTOS.eleitoral,
    hasValue: false,
  }),
  family({
    key: 'representacao',
    weight: 2,
    firstGrau: 'G1',
    firstClass: CLASSES.representacao,
    unit: 'zona',
    appeal: { grau: 'G2', classe: CLASSES.recursoEleitoral, probability: 0.3 },
    roles: { ativo: 'REPRESENTANTE', passivo: 'REPRESENTADO' },
    ativo: ['politicalParty', 'prosecutor'],
    passivo: ['person'],
    assuntos: ASSUNTOS.eleitoral,
    hasValue: false,
  }),
  family({
    key: 'aije',
    weight: 1,
    firstGrau: 'G1',
    firstClass: CLASSES.aije,
    unit: 'zona',
    appeal: { grau: 'G2', classe: CLASSES.recursoEleitoral, probability: 0.4 },
    roles: { ativo: 'INVESTIGANTE', passivo: 'INVESTIGADO' },
    ativo: ['politicalParty'],
    passivo: ['person'],
    assuntos: ASSUNTOS.eleitoral,
    hasValue: false,
  }),
];

const MILITAR: readonly CaseFamily[] = [
  family({
    key: 'penal-militar',
    weight: 1,
    firstGrau: 'G1',
    firstClass: CLASSES.acaoPenalMilitar,
    unit: 'auditoria',
    appeal: { grau: 'G2', classe: CLASSES.apelacaoCriminal, probability: 0.25 },
    roles: AUTOR_REU,
    ativo: ['prosecutor'],
    passivo: ['person'],
    assuntos: ASSUNTOS.penal,
    hasValue: false,
  }),
];

/** Cases that start at a superior court (its own numbers, J.TR = x.00): one SUP instance. */
const superior = (
  key: string,
  weight: number,
  firstClass: Code,
  roles: CaseFamily['roles'],
  assuntos: readonly Code[],
  ativo: readonly PartyKind[],
  passivo: readonly PartyKind[],
  hasValue = true,
) => family({ key, weight, firstGrau: 'SUP', firstClass, unit: 'superior', roles, ativo, passivo, assuntos, hasValue });

const SUPERIOR: Readonly<Record<string, readonly CaseFamily[]>> = {
  STJ: [
    superior('aresp', 3, CLASSES.agravoRecursoEspecial, AGRAVO, ASSUNTOS.civil, ['person', 'company'], ['company', 'bank']),
    superior('resp', 2, CLASSES.recursoEspecial, RECURSO, ASSUNTOS.civil, ['company', 'bank', 'person'], ['person', 'company']),
    superior('hc', 1, CLASSES.habeasCorpus, IMPETRACAO, ASSUNTOS.penal, ['person'], ['prosecutor'], false),
  ],
  TST: [
    superior('rr', 2, CLASSES.recursoRevista, RECURSO, ASSUNTOS.trabalho, ['company', 'bank'], ['person']),
    superior('airr', 3, CLASSES.agravoRecursoRevista, AGRAVO, ASSUNTOS.trabalho, ['company', 'person'], ['person', 'company']),
  ],
  TSE: [
    superior('respe', 2, CLASSES.recursoEspecialEleitoral, RECURSO, ASSUNTOS.eleitoral, ['person', 'politicalParty'], ['prosecutor', 'politicalParty'], false),
    superior('aresp', 1, CLASSES.agravoRecursoEspecialEleitoral, AGRAVO, ASSUNTOS.eleitoral, ['person'], ['prosecutor'], false),
  ],
  STM: [superior('hc', 1, CLASSES.habeasCorpusCriminal, IMPETRACAO, ASSUNTOS.penal, ['person'], ['prosecutor'], false)],
};

/** The families a court draws from; `ownNumber` is true for superior courts' own (x.00.0000) cases. */
/** A precatório or RPV (never drawn by weight: generatePrecatorioCase asks for it). */
export function precatorioFamily(classe: Code, federal: boolean): CaseFamily {
  return family({
    key: 'precatorio',
    weight: 0,
    firstGrau: 'G1',
    firstClass: classe,
    unit: federal ? 'federal' : 'fazenda',
    roles: { ativo: 'REQUERENTE', passivo: 'REQUERIDO' },
    ativo: ['person'],
    passivo: [federal ? 'federalTreasury' : 'publicEntity'],
    assuntos: ASSUNTOS.civil,
    hasValue: true,
  });
}

export function familiesOf(segmento: string, sigla: string, ownNumber: boolean): readonly CaseFamily[] {
  if (segmento === 'Superior') return ownNumber ? SUPERIOR[sigla] : MILITAR; // STM below TR 00: the CJMs
  switch (segmento) {
    case 'Estadual':
      return ESTADUAL;
    case 'Federal':
      return FEDERAL;
    case 'Trabalho':
      return TRABALHO;
    case 'Eleitoral':
      return ELEITORAL;
    case 'Militar Estadual':
      return MILITAR;
    default:
      throw new Error(`sandbox: no case families for segment ${segmento}`);
  }
}
