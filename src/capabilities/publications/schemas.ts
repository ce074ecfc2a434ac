/** The publication as every endpoint shows it (present.ts `publicationView`), for validation and OpenAPI. */
import { Type } from 'typebox';
import { Nullable } from '../../platform/http/nullable.ts';

export const Publication = Type.Object({
  id: Type.String({ description: 'DJEN id: the `diarioId` of GET /v1/intimacoes/publicacoes/{diarioId}.' }),
  numeroCnj: Nullable(Type.String({ description: "20 digits; null when DJEN's number is not a valid CNJ number." })),
  numeroCnjFormatado: Nullable(Type.String()),
  tribunal: Type.String(),
  dataDisponibilizacao: Type.String({ description: 'yyyy-mm-dd (deadlines count from publication, the next working day).' }),
  tipoComunicacao: Type.String(),
  tipoDocumento: Nullable(Type.String()),
  orgao: Nullable(Type.Object({ id: Nullable(Type.String()), nome: Type.String() })),
  classe: Nullable(Type.Object({ codigo: Type.String(), nome: Type.String() })),
  meio: Type.String({ description: 'D: Diário (DJEN); E: Edital.' }),
  numeroComunicacao: Nullable(Type.String()),
  ativo: Type.Boolean({ description: 'false: DJEN cancelled it (see `cancelamento`).' }),
  cancelamento: Nullable(Type.Object({ data: Nullable(Type.String()), motivo: Nullable(Type.String()) })),
  destinatarios: Type.Array(Type.Object({ nome: Type.String(), polo: Type.String() })),
  advogados: Type.Array(
    Type.Object({ nome: Type.String(), oab: Nullable(Type.String({ description: 'Canonical, e.g. SP123456, whatever spelling the court printed.' })) }),
  ),
  texto: Type.String({ description: 'The full text as plain text.' }),
  link_publicacao_tribunal: Nullable(Type.String({ description: "The act in the court's own system; opens in a browser; null when the court gives none." })),
  certidao: Nullable(Type.String({ description: "DJEN's public certidão de publicação (PDF)." })),
  link_api: Type.String({ description: 'This publication in this API (needs the API key).' }),
});
