/**
 * The TPU codes the sandbox uses (classes, assuntos, movimentos), with the names the CNJ tables give.
 * Provenance, so nobody mistakes a guess for the table:
 * - [V] reference/upstream/tpu.md (seen in real DataJud responses or verbatim CNJ lists);
 * - [R] a third-party verbatim copy of the TPU class table, or real DataJud fixtures in public repos;
 * - [I] TPU root subjects quoted from memory (DIREITO PENAL, DIREITO ELEITORAL): check them against
 *   the gateway (tpu.md §1.1) before relying on them outside the sandbox.
 */

export interface Code {
  codigo: number;
  nome: string;
}

export interface Complement {
  codigo: number;
  descricao: string;
  valor: number;
  nome: string;
}

export interface MovementType extends Code {
  complemento?: Complement;
}

const code = (codigo: number, nome: string): Code => Object.freeze({ codigo, nome });

export const CLASSES = Object.freeze({
  procedimentoComum: code(7, 'Procedimento Comum Cível'), // [V]
  precatorio: code(1265, 'Precatório'), // [V] wave2.md §G
  rpv: code(1266, 'Requisição de Pequeno Valor'), // [V] wave2.md §G
  monitoria: code(40, 'Monitória'), // [R]
  buscaApreensaoFiduciaria: code(81, 'Busca e Apreensão em Alienação Fiduciária'), // [R]
  mandadoSeguranca: code(120, 'Mandado de Segurança Cível'), // [R]
  cumprimentoSentenca: code(156, 'Cumprimento de sentença'), // [R]
  execucaoTitulo: code(12154, 'Execução de Título Extrajudicial'), // [V]
  execucaoFiscal: code(1116, 'Execução Fiscal'), // [V]
  juizadoCivel: code(436, 'Procedimento do Juizado Especial Cível'), // [V]
  recursoInominado: code(460, 'Recurso Inominado Cível'), // [R]
  apelacaoCivel: code(198, 'Apelação Cível'), // [V]
  apelacaoRemessa: code(1728, 'Apelação / Remessa Necessária'), // [V]
  agravoInstrumento: code(202, 'Agravo de Instrumento'), // [R]
  acaoPenal: code(283, 'Ação Penal - Procedimento Ordinário'), // [R]
  apelacaoCriminal: code(417, 'Apelação Criminal'), // [R]
  habeasCorpusCriminal: code(307, 'Habeas Corpus Criminal'), // [R]
  trabalhistaOrdinario: code(985, 'Ação Trabalhista - Rito Ordinário'), // [R]
  trabalhistaSumarissimo: code(1125, 'Ação Trabalhista - Rito Sumaríssimo'), // [R]
  recursoOrdinarioTrabalhista: code(1009, 'Recurso Ordinário Trabalhista'), // [R]
  recursoOrdinarioSumarissimo: code(11886, 'Recurso Ordinário - Rito Sumaríssimo'), // [R]
  recursoRevista: code(1008, 'Recurso de Revista'), // [R]
  agravoRecursoRevista: code(1002, 'Agravo de Instrumento em Recurso de Revista'), // [R]
  prestacaoContasEleitorais: code(12193, 'Prestação de Contas Eleitorais'), // [R]
  representacao: code(11541, 'Representação'), // [R]
  aije: code(11527, 'Ação de Investigação Judicial Eleitoral'), // [R]
  recursoEleitoral: code(11548, 'Recurso Eleitoral'), // [R]
  recursoEspecialEleitoral: code(11549, 'Recurso Especial Eleitoral'), // [R]
  agravoRecursoEspecialEleitoral: code(12626, 'Agravo em Recurso Especial Eleitoral'), // [R]
  acaoPenalMilitar: code(11037, 'Ação Penal Militar - Procedimento Ordinário'), // [R]
  agravoRecursoEspecial: code(11881, 'Agravo em Recurso Especial'), // [R]
  recursoEspecial: code(1032, 'Recurso Especial'), // [R]
  habeasCorpus: code(1720, 'Habeas Corpus'), // [R]
});

export const ASSUNTOS = Object.freeze({
  civil: [
    code(10433, 'Indenização por Dano Moral'),
    code(7681, 'Obrigações'),
    code(899, 'DIREITO CIVIL'),
    code(8826, 'DIREITO PROCESSUAL CIVIL E DO TRABALHO'),
  ], // [R] 10433, [V] rest
  fiscal: [code(6017, 'Dívida Ativa (Execução Fiscal)'), code(10394, 'Dívida Ativa não-tributária')], // [V]
  previdenciario: [
    code(6177, 'Concessão'),
    code(6104, 'Pensão por Morte (Art. 74/9)'),
    code(6118, 'Aposentadoria por Tempo de Contribuição (Art. 55/6)'),
    code(6182, 'Averbação/Cômputo/Conversão de tempo de serviço especial'),
  ], // [V]
  trabalho: [code(2086, 'Horas Extras'), code(2546, 'Adicional de Insalubridade'), code(8826, 'DIREITO PROCESSUAL CIVIL E DO TRABALHO')], // [R] [R] [V]
  penal: [code(287, 'DIREITO PENAL')], // [I]
  eleitoral: [code(11428, 'DIREITO ELEITORAL')], // [I]
} satisfies Record<string, readonly Code[]>);

const complement = (codigo: number, descricao: string, valor: number, nome: string): Complement => Object.freeze({ codigo, descricao, valor, nome });

const movement = (codigo: number, nome: string, c?: Complement): MovementType => Object.freeze(c ? { codigo, nome, complemento: c } : { codigo, nome });

/** All [V] (tpu.md §2), complements as real DataJud documents carry them. */
export const MOVEMENTS = Object.freeze({
  distribuicaoSorteio: movement(26, 'Distribuição', complement(2, 'tipo_de_distribuicao_redistribuicao', 2, 'sorteio')),
  distribuicaoExclusiva: movement(26, 'Distribuição', complement(2, 'tipo_de_distribuicao_redistribuicao', 1, 'competência exclusiva')),
  redistribuicao: movement(36, 'Redistribuição'),
  conclusaoDespacho: movement(51, 'Conclusão', complement(3, 'tipo_de_conclusao', 5, 'para despacho')),
  conclusaoJulgamento: movement(51, 'Conclusão', complement(3, 'tipo_de_conclusao', 36, 'para julgamento')),
  peticao: movement(85, 'Petição', complement(19, 'tipo_de_peticao', 57, 'Petição (outras)')),
  publicacao: movement(92, 'Publicação'),
  remessaRecurso: movement(123, 'Remessa', complement(18, 'motivo_da_remessa', 38, 'em grau de recurso')),
  remessa: movement(123, 'Remessa'),
  recebimento: movement(132, 'Recebimento'),
  certidao: movement(581, 'Documento', complement(4, 'tipo_de_documento', 107, 'Certidão')),
  outrosDocumentos: movement(581, 'Documento', complement(4, 'tipo_de_documento', 80, 'Outros documentos')),
  disponibilizacao: movement(1061, 'Disponibilização no Diário da Justiça Eletrônico'),
  decursoPrazo: movement(1051, 'Decurso de Prazo'),
  meroExpediente: movement(11010, 'Mero expediente'),
  bloqueio: movement(11382, 'Bloqueio/penhora on line'),
  atoOrdinatorio: movement(11383, 'Ato ordinatório'),
  inclusaoPauta: movement(12104, 'Inclusão em pauta'),
  outrasDecisoes: movement(12164, 'Outras Decisões'),
  expedida: movement(12265, 'Expedida/certificada'),
  confirmada: movement(12266, 'Confirmada'),
  conversao: movement(14732, 'Conversão de Autos Físicos em Eletrônicos'),
  procedencia: movement(219, 'Procedência'),
  improcedencia: movement(220, 'Improcedência'),
  procedenciaEmParte: movement(221, 'Procedência em Parte'),
  provimento: movement(237, 'Provimento'),
  naoProvimento: movement(239, 'Não-Provimento'),
  naoConhecimento: movement(235, 'Não Conhecimento de recurso'),
  transitoJulgado: movement(848, 'Trânsito em julgado'),
  baixaDefinitiva: movement(22, 'Baixa Definitiva'),
  arquivamentoDefinitivo: movement(246, 'Definitivo'),
  arquivamentoProvisorio: movement(245, 'Provisório'),
});

export type MovementKey = keyof typeof MOVEMENTS;
