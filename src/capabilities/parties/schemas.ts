/** Request and response schemas of the party endpoints (spec §4.2); they feed validation and OpenAPI. */
import { Type } from 'typebox';
import { Nullable } from '../../platform/http/nullable.ts';
import { PageQuery } from '../../platform/http/pagination.ts';
import { CaseShape } from '../processes/parts.ts';

export const PartyQuery = Type.Object(
  {
    cpf_cnpj: Type.String({ minLength: 1, maxLength: 30, description: 'CPF or CNPJ (numeric or alphanumeric), with or without punctuation.' }),
    ...PageQuery,
  },
  { additionalProperties: false },
);

export const PartySummaryQuery = Type.Object(
  {
    cpf_cnpj: Type.Optional(Type.String({ minLength: 1, maxLength: 30, description: 'CPF or CNPJ. Give this or `nome`.' })),
    nome: Type.Optional(
      Type.String({ minLength: 3, maxLength: 200, description: 'Party name (all words must match, accents and case ignored). Give this or `cpf_cnpj`.' }),
    ),
  },
  { additionalProperties: false },
);

export const PartyCase = Type.Intersect([
  CaseShape.schema,
  Type.Object({
    envolvimento: Nullable(Type.Object({ polo: Type.String(), tipo: Nullable(Type.String()), nome: Type.String() })),
  }),
]);

const Count = Type.Array(Type.Object({ chave: Type.String(), quantidade: Type.Integer() }));

export const PartySummary = Type.Object({
  consulta: Type.Object({ cpf_cnpj: Nullable(Type.String()), nome: Nullable(Type.String()) }),
  quantidadeProcessos: Type.Integer(),
  nomes: Type.Array(Type.String({ description: "Spellings of the party's name found in the cases." })),
  porTribunal: Count,
  porClasse: Count,
  porPolo: Count,
  porAno: Count,
  primeiroAjuizamento: Nullable(Type.String()),
  ultimoAjuizamento: Nullable(Type.String()),
  valorCausaTotal: Nullable(Type.Number()),
  processosConsiderados: Type.Integer({ description: 'Cases counted (at most 500 per summary).' }),
});
