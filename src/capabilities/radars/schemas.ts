/** Request and response schemas of the new-case radars (spec §4.8); they feed validation and OpenAPI. */
import { Type } from 'typebox';
import { Nullable } from '../../platform/http/nullable.ts';
import { MonitorFrequency, webhookUrlField } from '../../platform/monitoring/schemas.ts';
import { PageQuery } from '../../platform/http/pagination.ts';

export const MAX_VARIATIONS = 20;
export const MAX_ARCHIVE_IDS = 500;
export const QUALIFICATIONS = ['RELEVANTE', 'IRRELEVANTE', 'EM_ANALISE'] as const;

const Frequency = MonitorFrequency('HORARIA, DIARIA (default), SEMANAL or MENSAL.');
const Words = (max: number, description: string) => Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: max, description });

/** The filters a radar can be created with and refined by PATCH (everything but the term). */
const filters = {
  variacoes: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
      maxItems: MAX_VARIATIONS,
      description: `Other spellings of the name (name radars only), at most ${MAX_VARIATIONS}; each is searched too.`,
    }),
  ),
  tribunais: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 20 }), {
      maxItems: 100,
      description: 'Court siglas (GET /v1/tribunais); only cases of these courts are reported. Empty: every court.',
    }),
  ),
  classes: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
      maxItems: 50,
      description: 'Case classes, by name (accents and case ignored) or TPU code; empty: every class.',
    }),
  ),
  termos_obrigatorios: Type.Optional(Words(20, "Every one must appear (whole words, accents and case ignored) in the case's parties, classes or subjects.")),
  termos_proibidos: Type.Optional(Words(20, "None may appear in the case's parties, classes or subjects.")),
  webhook_url: webhookUrlField("HTTPS endpoint that receives this radar's events instead of the account URL (spec §6)."),
  frequencia: Type.Optional(Frequency),
};

export const CreateRadarBody = Type.Object(
  {
    termo: Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'A CPF or CNPJ (masked or bare; alphanumeric CNPJ too), or a party name of at least 2 words and 5 letters.',
    }),
    ...filters,
  },
  { additionalProperties: false },
);

export const PatchRadarBody = Type.Object(
  {
    termo: Type.Optional(Type.Unknown({ description: 'Immutable: sending it is 400 INVALID_PARAMETER (create another radar instead).' })),
    ...filters,
  },
  { additionalProperties: false },
);

export const RadarParams = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 64, description: 'The radar id (`rad_…`).' }),
  },
  { additionalProperties: false },
);

export const ResultParams = Type.Object(
  {
    id: RadarParams.properties.id,
    numeroCnj: Type.String({ minLength: 1, maxLength: 40, description: 'CNJ number of the result, masked or 20 digits.' }),
  },
  { additionalProperties: false },
);

export const RadarListQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });

const Archived = Type.Optional(Type.Boolean({ description: '`true`: only archived results; `false`: only the others; absent: both.' }));

export const ResultsQuery = Type.Object(
  {
    ...PageQuery,
    arquivados: Archived,
    qualificacao: Type.Optional(
      Type.Union(
        [...QUALIFICATIONS, 'SEM_QUALIFICACAO'].map((q) => Type.Literal(q)),
        { description: 'Only results with this qualification; `SEM_QUALIFICACAO` for those never qualified.' },
      ),
    ),
    sincronizar: Type.Optional(Type.Boolean({ description: 'Check the radar first (may query the provider; at most once per 60 s per radar).' })),
  },
  { additionalProperties: false },
);

export const DayQuery = Type.Object(
  {
    ...PageQuery,
    dia: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'UTC day the results were found, YYYY-MM-DD (default: today).' })),
    arquivados: Archived,
  },
  { additionalProperties: false },
);

export const QualifyBody = Type.Object(
  {
    qualificacao: Type.Union(QUALIFICATIONS.map((q) => Type.Literal(q))),
    nota: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
  },
  { additionalProperties: false },
);

export const ArchiveBody = Type.Object(
  {
    ids: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
      minItems: 1,
      maxItems: MAX_ARCHIVE_IDS,
      description: `Result ids (\`rrs_…\`), 1 to ${MAX_ARCHIVE_IDS}.`,
    }),
  },
  { additionalProperties: false },
);

export const ArchiveOutcome = Type.Object({
  alterados: Type.Integer({ description: 'Results whose state changed.' }),
  naoEncontrados: Type.Integer({ description: 'Ids that are not results of this account (ignored).' }),
});

export const Radar = Type.Object({
  id: Type.String(),
  termo: Type.String({ description: 'The name as given, or the CPF/CNPJ masked.' }),
  tipo: Type.Union([Type.Literal('NOME'), Type.Literal('CPF'), Type.Literal('CNPJ')]),
  variacoes: Type.Array(Type.String()),
  tribunais: Type.Array(Type.String()),
  classes: Type.Array(Type.String()),
  termosObrigatorios: Type.Array(Type.String()),
  termosProibidos: Type.Array(Type.String()),
  webhookUrl: Nullable(Type.String()),
  frequencia: Frequency,
  status: Type.Union([Type.Literal('ATIVO'), Type.Literal('SUSPENSO'), Type.Literal('DESATIVADO')]),
  preco: Type.Number({ description: 'BRL charged per period of 30 days.' }),
  resultadosTotal: Type.Integer(),
  ultimaVerificacaoEm: Nullable(Type.String({ description: 'Last successful check under the current filters; null while the baseline is pending.' })),
  proximaVerificacaoEm: Nullable(Type.String()),
  proximaCobrancaEm: Nullable(Type.String()),
  ultimaSincronizacaoEm: Nullable(Type.String()),
  ultimoErro: Nullable(Type.String()),
  criadoEm: Type.String(),
  desativadoEm: Nullable(Type.String()),
});

export const Correspondence = Type.Object({
  nome: Type.String(),
  documento: Nullable(Type.String()),
  polo: Type.String(),
  tipo: Type.String(),
});

export const RadarResult = Type.Object({
  id: Type.String(),
  radarId: Type.String(),
  numeroCnj: Type.String(),
  tribunal: Type.String(),
  classe: Nullable(Type.String()),
  dataAjuizamento: Nullable(Type.String()),
  correspondencias: Type.Array(Correspondence, { description: 'The parties whose document or name matched.' }),
  linhaDeBase: Type.Boolean({ description: 'Already there when the radar was created (or its filters widened): no event was sent.' }),
  encontradoEm: Type.String(),
  dia: Type.String(),
  qualificacao: Nullable(Type.Union(QUALIFICATIONS.map((q) => Type.Literal(q)))),
  qualificacaoNota: Nullable(Type.String()),
  qualificadoEm: Nullable(Type.String()),
  arquivado: Type.Boolean(),
  arquivadoEm: Nullable(Type.String()),
});
