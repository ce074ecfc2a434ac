/** Request and response schemas of the search endpoints (spec §4.2); they feed validation and OpenAPI. */
import { Type } from 'typebox';
import { PageQuery } from '../../platform/http/pagination.ts';
import { CaseSummary } from '../processes/parts.ts';

export const SearchQuery = Type.Object(
  {
    q: Type.Optional(
      Type.String({
        minLength: 2,
        maxLength: 200,
        description: 'The term: a CNJ number, a CPF/CNPJ, or words of party names, classes, subjects, court units.',
      }),
    ),
    termo: Type.Optional(Type.String({ minLength: 2, maxLength: 200, description: 'Same as `q` (accepted for compatibility).' })),
    ...PageQuery,
  },
  { additionalProperties: false },
);

export const SearchHit = Type.Intersect([
  CaseSummary,
  Type.Object({
    relevancia: Type.Number({ description: 'Rank score; higher is better. Comparable within one search only.' }),
    partes: Type.Array(Type.String()),
  }),
]);
