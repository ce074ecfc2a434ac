/** Request and response schemas of the case endpoints (spec §4.2, §4.3); they feed validation and OpenAPI. */
import { Type } from 'typebox';
import { Nullable } from '../../platform/http/nullable.ts';
import { PageQuery } from '../../platform/http/pagination.ts';

const CodeName = Type.Object({ codigo: Type.String(), nome: Type.String() });

export const CnjParams = Type.Object({
  cnj: Type.String({ minLength: 1, maxLength: 40, description: 'CNJ number, masked (`NNNNNNN-DD.AAAA.J.TR.OOOO`) or 20 digits.' }),
}, { additionalProperties: false });

export const DocumentParams = Type.Object({
  cnj: CnjParams.properties.cnj,
  documentId: Type.String({ minLength: 1, maxLength: 200 }),
}, { additionalProperties: false });

export const Movement = Type.Object({
  id: Type.String({ description: 'Stable id of the movement (DataJud gives none: a hash of its fields).' }),
  dataHora: Type.String({ format: 'date-time' }),
  codigo: Type.String({ description: 'TPU movement code.' }),
  nome: Type.String(),
  grau: Type.String(),
  complementos: Type.Array(Type.Object({ codigo: Type.String(), nome: Type.String(), valor: Type.String(), descricao: Type.String() })),
  orgaoJulgador: Nullable(CodeName),
});

export const Party = Type.Object({
  polo: Type.String(), tipo: Type.String(), nome: Type.String(), tipoPessoa: Type.String(), documento: Nullable(Type.String()),
  advogados: Type.Array(Type.Object({ nome: Type.String(), oab: Nullable(Type.String()), oabUf: Nullable(Type.String()), oabNumero: Nullable(Type.String()) })),
});

export const CaseSummary = Type.Object({
  numeroCnj: Type.String(),
  tribunal: Type.String(),
  segmento: Nullable(Type.String()),
  ufs: Type.Array(Type.String()),
  classe: Nullable(CodeName),
  orgaoJulgador: Nullable(Type.Object({ codigo: Type.String(), nome: Type.String(), codigoMunicipioIBGE: Nullable(Type.String()) })),
  grau: Nullable(Type.String()),
  dataAjuizamento: Nullable(Type.String()),
  ultimaAtualizacao: Nullable(Type.String()),
  valor_causa: Nullable(Type.Number({ description: 'Case value in BRL; null until the case-details provider gave it.' })),
}, { additionalProperties: true });

export const Cover = Type.Intersect([CaseSummary, Type.Object({
  numeroCnjDigitos: Type.String(),
  valorCausaCentavos: Nullable(Type.Integer()),
  assuntos: Type.Array(CodeName),
  partes: Nullable(Type.Array(Party)),
  instancias: Type.Array(Type.Object({ grau: Type.String(), quantidadeMovimentacoes: Type.Integer() }, { additionalProperties: true })),
  quantidadeMovimentacoes: Type.Integer(),
  ultimaMovimentacao: Nullable(Movement),
  documentosPublicosDisponiveis: Type.Boolean(),
  enriquecimento: Type.Object({ status: Type.Union([Type.Literal('CONCLUIDO'), Type.Literal('AGENDADO'), Type.Literal('INDISPONIVEL')]), concluidoEm: Nullable(Type.String()) }),
  fontes: Type.Array(Type.Object({
    nome: Type.String(), sandbox: Type.Boolean(), consultadoEm: Type.String(),
    capa: Type.Object({ valor_causa: Nullable(Type.Number()) }, { additionalProperties: true }),
  })),
})]);

export const MovementsQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });

export const Refresh = Type.Object({
  id: Type.String(),
  numeroCnj: Type.String(),
  status: Type.Union([Type.Literal('PENDENTE'), Type.Literal('PROCESSANDO'), Type.Literal('CONCLUIDA'), Type.Literal('ERRO')]),
  solicitadoEm: Type.String(),
  iniciadoEm: Nullable(Type.String()),
  concluidoEm: Nullable(Type.String()),
  novasMovimentacoes: Nullable(Type.Integer()),
  erro: Nullable(Type.Object({ code: Type.String(), message: Nullable(Type.String()) })),
  preco: Type.Number({ description: 'BRL charged once, when the refresh completes.' }),
  statusUrl: Type.String(),
});

export const PublicDocument = Type.Object({
  id: Type.String(), titulo: Type.String(), tipo: Type.String(), dataJuntada: Type.String(),
  mimeType: Type.String(), tamanhoBytes: Type.Integer(), downloadUrl: Type.String(),
  // The names integrators of the commercial service read (conventions §4.4).
  descricao: Nullable(Type.String()),
  data: Type.String({ description: '`dataJuntada` as `yyyy-mm-dd HH:MM:SS`, Brasília time, no zone.' }),
  extensaoArquivo: Nullable(Type.String({ description: 'e.g. `pdf`.' })),
  quantidadePaginas: Nullable(Type.Integer()),
});

export const DocumentsQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });

export const PartyQuery = Type.Object({
  cpf_cnpj: Type.String({ minLength: 1, maxLength: 30, description: 'CPF or CNPJ (numeric or alphanumeric), with or without punctuation.' }),
  ...PageQuery,
}, { additionalProperties: false });

export const PartySummaryQuery = Type.Object({
  cpf_cnpj: Type.Optional(Type.String({ minLength: 1, maxLength: 30, description: 'CPF or CNPJ. Give this or `nome`.' })),
  nome: Type.Optional(Type.String({ minLength: 3, maxLength: 200, description: 'Party name (all words must match, accents and case ignored). Give this or `cpf_cnpj`.' })),
}, { additionalProperties: false });

export const SearchQuery = Type.Object({
  q: Type.Optional(Type.String({ minLength: 2, maxLength: 200, description: 'The term: a CNJ number, a CPF/CNPJ, or words of party names, classes, subjects, court units.' })),
  termo: Type.Optional(Type.String({ minLength: 2, maxLength: 200, description: 'Same as `q` (accepted for compatibility).' })),
  ...PageQuery,
}, { additionalProperties: false });

export const PartyCase = Type.Intersect([CaseSummary, Type.Object({
  envolvimento: Nullable(Type.Object({ polo: Type.String(), tipo: Type.String(), nome: Type.String() })),
})]);

export const SearchHit = Type.Intersect([CaseSummary, Type.Object({
  relevancia: Type.Number({ description: 'Rank score; higher is better. Comparable within one search only.' }),
  partes: Type.Array(Type.String()),
})]);

const Count = Type.Array(Type.Object({ chave: Type.String(), quantidade: Type.Integer() }));

export const PartySummary = Type.Object({
  consulta: Type.Object({ cpf_cnpj: Nullable(Type.String()), nome: Nullable(Type.String()) }),
  quantidadeProcessos: Type.Integer(),
  nomes: Type.Array(Type.String({ description: 'Spellings of the party\'s name found in the cases.' })),
  porTribunal: Count,
  porClasse: Count,
  porPolo: Count,
  porAno: Count,
  primeiroAjuizamento: Nullable(Type.String()),
  ultimoAjuizamento: Nullable(Type.String()),
  valorCausaTotal: Nullable(Type.Number()),
  processosConsiderados: Type.Integer({ description: 'Cases counted (at most 500 per summary).' }),
});
