/** Request and response schemas of the lawyer endpoints (spec §4.4); they feed validation and OpenAPI. */
import { callbackFields } from '../../platform/http/callback-flag.ts';
import { Type } from 'typebox';
import { Nullable } from '../../platform/http/nullable.ts';
import { PageQuery } from '../../platform/http/pagination.ts';
import { OabFields } from '../../platform/http/oab-params.ts';

export const OabQuery = Type.Object({ ...OabFields }, { additionalProperties: false });
export const OabPageQuery = Type.Object(
  {
    ...OabFields,
    ...PageQuery,
    // Sent by integrators of the commercial service (conventions §4.8). DJEN prints no inscription type, so it filters nothing here.
    oab_tipo: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 20,
        description:
          'Inscription type (e.g. `PRINCIPAL`, `SUPLEMENTAR`), accepted for compatibility: gazettes do not print it, so ' +
          'every inscription of the number is listed.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const LawyerProcess = Type.Object({
  numeroCnj: Type.String({ description: 'Masked CNJ number.' }),
  tribunal: Type.String(),
  fontes: Type.Array(Type.String(), {
    description:
      "`DJEN` (gazette publications name the OAB), `PORTAL` (the case-details source lists the lawyer) and/or `CONSULTA` (the court's own OAB search lists " +
      'the case).',
  }),
  publicacoes: Type.Integer({ description: 'Gazette publications naming the OAB in this case.' }),
  ultimaPublicacao: Nullable(Type.String({ description: 'yyyy-mm-dd' })),
  classe: Nullable(Type.String({ description: 'From the case store when the case is stored.' })),
  // The summary shape integrators of the commercial service read (conventions §4.8); null for a case known only from gazettes.
  orgaoJulgador: Nullable(Type.String()),
  anoInicio: Nullable(Type.Integer()),
  poloAtivo: Nullable(Type.String({ description: 'The first party of the active side.' })),
  poloPassivo: Nullable(Type.String()),
  statusProcessual: Nullable(Type.String({ description: '`Ativo`, `Arquivado` or `Arquivado provisoriamente`, from the TPU code of the last movement.' })),
  classificacao: Type.String({ description: 'Where the lawyer was found: `DJEN`, `PORTAL`, `CONSULTA`, comma-separated.' }),
});

export const LawyerOfList = Type.Object({
  oab: Type.Object({ estado: Type.String(), numero: Type.String() }),
  nome: Nullable(Type.String({ description: 'The name the gazettes print most for this OAB.' })),
});

export const Coverage = Type.Object({
  parcial: Type.Boolean({ description: 'true: the counts are provisional and may grow (the OAB history is still being consolidated).' }),
  completa: Type.Boolean({ description: 'true: the counts are a complete snapshot of the consolidated history.' }),
  consolidacao: Type.String({ description: 'PENDENTE, EM_ANDAMENTO, CONCLUIDA or ERRO (tried again later).' }),
  consolidadoEm: Nullable(Type.String()),
});

export const LawyerSummary = Type.Object({
  oab: Type.Object({ estado: Type.String(), numero: Type.String(), oab: Type.String() }),
  quantidadeProcessos: Type.Integer({ description: 'Processes of this exact OAB, deduplicated by CNJ number.' }),
  quantidadeRecentes: Type.Integer({ description: 'Of those, processes with a publication in the last 90 days.' }),
  quantidadeHistoricos: Type.Integer({ description: 'The others: processes whose last publication is older (or known only from the case store).' }),
  quantidadeAtivosConfirmados: Type.Integer({
    description:
      'Processes the case store (DataJud) confirms active: a movement in the last 365 days that does not close the case. A ' +
      'recent publication alone does not prove that.',
  }),
  variantesNome: Type.Array(Type.Object({ nome: Type.String(), publicacoes: Type.Integer() }), { description: 'Names the gazettes print for this OAB.' }),
  coberturaOficial: Type.Object({
    fonte: Type.String(),
    tribunais: Type.Array(Type.Object({ tribunal: Type.String(), desde: Type.String(), ate: Type.String() })),
    historicoDesde: Type.String({ description: 'Earliest day the consolidation reads.' }),
    observacao: Type.String(),
  }),
  cobertura: Coverage,
});

export const OabSearchBody = Type.Object(
  {
    tribunal: Type.String({ minLength: 1, maxLength: 10, description: 'Court sigla as GET /v1/tribunais lists it, e.g. TJSP, TRF4, TRE-SP.' }),
    oab_estado: Type.String({ minLength: 1, maxLength: 4, description: 'UF of the OAB section.' }),
    oab_numero: Type.Union([Type.String({ minLength: 1, maxLength: 12 }), Type.Integer({ minimum: 1 })], { description: 'Registration number.' }),
    permitir_parcial: Type.Optional(
      Type.Boolean({ description: 'true: if DJEN fails midway, end SUCESSO with `parcial: true` and what was read, instead of ERRO.' }),
    ),
    ...callbackFields('the account webhook receives `resultado_busca_oab_async` when the search ends'),
  },
  { additionalProperties: false },
);

export const OabSearchParams = Type.Object(
  {
    id: Type.String({ pattern: '^[0-9]{1,15}$', description: 'The numeric id the POST answered.' }),
  },
  { additionalProperties: false },
);

export const FoundProcess = Type.Object({
  numeroCnj: Type.String(),
  numeroCnjFormatado: Type.String(),
  tribunal: Type.String(),
  publicacoes: Type.Integer(),
  primeiraPublicacao: Type.String(),
  ultimaPublicacao: Type.String(),
  tiposComunicacao: Type.Array(Type.String()),
});

export const OabSearch = Type.Object({
  id: Type.Integer(),
  status: Type.String({ description: 'PENDENTE, PROCESSANDO, then SUCESSO or ERRO (terminal: stop polling).' }),
  statusUrl: Type.String(),
  tribunal: Type.String(),
  oab: Type.Object({ estado: Type.String(), numero: Type.String(), oab: Type.String() }),
  permitirParcial: Type.Boolean(),
  enviarCallback: Type.Boolean(),
  progresso: Type.Object({ publicacoesLidas: Type.Integer(), requisicoes: Type.Integer() }),
  parcial: Type.Boolean(),
  quantidadeProcessos: Type.Integer(),
  resposta: Type.Array(Type.Object({ tribunal: Type.String(), oab: Type.String(), processos: Type.Array(FoundProcess) }), {
    description: 'Kept for compatibility (spec §9.3); filled at SUCESSO.',
  }),
  erro: Nullable(Type.Object({ code: Type.String(), message: Nullable(Type.String()) })),
  criadoEm: Type.String(),
  iniciadoEm: Nullable(Type.String()),
  concluidoEm: Nullable(Type.String()),
});
