import { Type } from 'typebox';
import { PageQuery } from '../../platform/http/pagination.ts';

export const Balance = Type.Object({
  saldo: Type.Number({ description: 'Balance in BRL (12.5 = R$ 12,50).' }),
  saldoCentavos: Type.Integer({ description: 'The same balance in integer centavos.' }),
  moeda: Type.Literal('BRL'),
  conta: Type.Object({
    id: Type.String(), nome: Type.String(), plano: Type.String(),
    status: Type.Union([Type.Literal('active'), Type.Literal('inactive')]), sandbox: Type.Boolean(),
  }),
  // What integrators of the commercial service read and validate (conventions §4.1).
  credits: Type.Number({ description: 'Same as `saldo`.' }),
  currency: Type.Literal('BRL'),
  accountStatus: Type.Union([Type.Literal('ACTIVE'), Type.Literal('INACTIVE')]),
});

export const StatementEntry = Type.Object({
  id: Type.String(),
  tipo: Type.Union([Type.Literal('debito'), Type.Literal('credito')]),
  valor: Type.Number({ description: 'Signed amount in BRL: negative for a debit.' }),
  valorCentavos: Type.Integer(),
  saldoApos: Type.Number(),
  saldoAposCentavos: Type.Integer(),
  tipoConsulta: Type.Union([Type.String(), Type.Null()]),
  requestId: Type.Union([Type.String(), Type.Null()], { description: 'The operation that was charged (its `meta.requestId`).' }),
  searchLogId: Type.Union([Type.String(), Type.Null()]),
  nota: Type.Union([Type.String(), Type.Null()]),
  criadoEm: Type.String({ format: 'date-time' }),
});

export const StatementQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });

export const PriceList = Type.Object({
  plano: Type.String(),
  moeda: Type.Literal('BRL'),
  cobranca: Type.String(),
  itens: Type.Array(Type.Object({ tipoConsulta: Type.String(), descricao: Type.String(), preco: Type.Number(), precoCentavos: Type.Integer() })),
});
