import { Type } from 'typebox';
import { derived, integratorShape, same } from '../../platform/http/integrator-fields.ts';
import { PageQuery } from '../../platform/http/pagination.ts';

const OwnBalance = Type.Object({
  saldo: Type.Number({ description: 'Balance in BRL (12.5 = R$ 12,50).' }),
  saldoCentavos: Type.Integer({ description: 'The same balance in integer centavos.' }),
  moeda: Type.Literal('BRL'),
  conta: Type.Object({
    id: Type.String(),
    nome: Type.String(),
    plano: Type.String(),
    status: Type.Union([Type.Literal('active'), Type.Literal('inactive')]),
    sandbox: Type.Boolean(),
  }),
});

/** What integrators of the commercial service read and validate (conventions §4.1). */
export const BalanceShape = integratorShape('conta.saldo', OwnBalance, {
  credits: same('saldo'),
  currency: same('moeda'),
  accountStatus: derived(Type.Union([Type.Literal('ACTIVE'), Type.Literal('INACTIVE')], { description: '`conta.status` in upper-case English.' }), (v) =>
    v.conta.status === 'active' ? 'ACTIVE' : 'INACTIVE',
  ),
});

export const Balance = BalanceShape.schema;

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
