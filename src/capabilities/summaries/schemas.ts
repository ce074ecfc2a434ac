/** Request and response schemas of the AI-summary endpoints (spec §4.3); they feed validation and OpenAPI. */
import { callbackFields } from '../../platform/http/callback-flag.ts';
import { Type } from 'typebox';
import { Nullable } from '../../platform/http/nullable.ts';

export const RequestIdQuery = Type.Object(
  {
    request_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'The `providerRequestId` of one execution; omitted: the latest.' })),
  },
  { additionalProperties: false },
);

export const SummaryRequestBody = Type.Object(
  {
    ...callbackFields('when the execution ends (FINALIZADO or ERRO), the account webhook receives `resumo_ia_concluido`'),
  },
  { additionalProperties: false },
);

const SummaryError = Nullable(Type.Object({ codigo: Type.String(), mensagem: Nullable(Type.String()) }));

export const SummaryExecution = Type.Object({
  providerRequestId: Type.String({ description: 'Identifies this execution: `request_id` of the status and of the summary.' }),
  numeroCnj: Type.String(),
  status: Type.Union(
    ['PENDENTE', 'PROCESSANDO', 'FINALIZADO', 'ERRO'].map((s) => Type.Literal(s)),
    { description: 'Stop polling at FINALIZADO or ERRO.' },
  ),
  etapa: Type.Union(
    ['na_fila', 'atualizando_processo', 'escrevendo', 'concluido'].map((s) => Type.Literal(s)),
    { description: 'What a running execution is doing.' },
  ),
  metodo: Nullable(Type.String({ description: '`modelo` (a language model) or `extrativo-v1` (written by code, without a model).' })),
  modelo: Nullable(Type.String()),
  enviarCallback: Type.Boolean(),
  criadoEm: Type.String({ format: 'date-time' }),
  iniciadoEm: Nullable(Type.String({ format: 'date-time' })),
  concluidoEm: Nullable(Type.String({ format: 'date-time' })),
  erro: SummaryError,
  preco: Type.Number({ description: 'BRL charged when it ends FINALIZADO (ERRO is free).' }),
  statusUrl: Type.String(),
  resumoUrl: Type.String(),
});

export const Summary = Type.Object({
  numeroCnj: Type.String(),
  conteudo: Nullable(
    Type.String({
      description: 'The summary in Markdown, ending with the informational-only notice and the method or model that wrote it; null when there is none.',
    }),
  ),
  atualizadoEm: Nullable(Type.String({ format: 'date-time', description: 'When the summary was written.' })),
  cached: Type.Boolean({ description: 'true when `conteudo` is a stored summary (always, when there is one).' }),
  state: Type.Union(
    ['success', 'processing', 'error', 'none'].map((s) => Type.Literal(s)),
    { description: '`success`: `conteudo` is there; `processing`: one is being written; `error`: the execution asked for failed; `none`: never requested.' },
  ),
  providerRequestId: Nullable(Type.String()),
  status: Nullable(Type.String()),
  metodo: Nullable(Type.String()),
  modelo: Nullable(Type.String()),
  desatualizado: Type.Boolean({ description: 'The case changed (movements, parties, documents, publications) since the summary was written.' }),
  aviso: Nullable(Type.String({ description: 'Something to know about how it was written (e.g. the model read only part of the prompt).' })),
  avisoLegal: Type.String({ description: 'Spec §1 rule 5.' }),
  erro: SummaryError,
  proximaAcao: Nullable(
    Type.Object(
      { method: Type.String(), path: Type.String(), motivo: Type.String() },
      { description: 'What to call to get a (new) summary, when there is none or it is outdated.' },
    ),
  ),
  emAndamento: Nullable(Type.Object({ providerRequestId: Type.String(), statusUrl: Type.String() })),
});
