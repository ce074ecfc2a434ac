/** Account: balance (spec §4.1, free at any balance), ledger statement and price list. */
import type { FastifyInstance } from 'fastify';
import { statement } from '../../platform/billing/ledger.ts';
import { toBrl } from '../../platform/billing/prices.ts';
import { listSchema } from '../../platform/http/list.ts';
import { listPage } from '../../platform/http/listing.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { ApiError } from '../../platform/errors.ts';
import type { Services } from '../../platform/services.ts';
import { Balance, BalanceShape, PriceList, StatementEntry, StatementQuery } from './schemas.ts';

export function accountRoutes(app: FastifyInstance, s: Services): void {
  defineRoute(app, {
    method: 'GET',
    url: '/v1/conta/saldo',
    meta: {
      class: 'account',
      auth: true,
      tag: 'Conta',
      summary: 'Balance of prepaid credits',
      description: 'Free: creates no ledger entry and answers at zero balance.',
    },
    schema: { data: Balance },
    handler: async (req) => {
      const a = req.auth!.account;
      // Auth's account may be seconds old (platform/accounts/key-cache.ts): the balance is read as committed now.
      const balance = (await s.accounts.balance(a.id)) ?? 0;
      return {
        data: BalanceShape.present({
          saldo: toBrl(balance),
          saldoCentavos: balance,
          moeda: 'BRL',
          conta: { id: a.id, nome: a.name, plano: a.plan, status: a.status, sandbox: a.sandbox === 1 },
        }),
      };
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/v1/conta/extrato',
    meta: {
      class: 'account',
      auth: true,
      tag: 'Conta',
      summary: 'Statement of the credits ledger, newest first',
      description: 'One entry per debit and per top-up. Free.',
    },
    schema: { querystring: StatementQuery, data: listSchema('items', StatementEntry) },
    handler: async (req) => {
      const { data, pagination } = await listPage(req, s.config, {
        listing: 'extrato',
        keys: ['seq'],
        read: (limit, before?: { seq: number }) => {
          // A cursor this route made holds a whole number; any other is forged (and would be a database error).
          if (before && !Number.isSafeInteger(before.seq)) throw new ApiError('INVALID_CURSOR', undefined, { field: 'cursor', in: 'query' });
          return statement(s.db, req.auth!.account.id, limit, before?.seq);
        },
        position: (r) => ({ seq: r.seq }),
        name: 'items',
        view: (items) =>
          items.map((r) => ({
            id: r.id,
            tipo: r.kind === 'debit' ? 'debito' : 'credito',
            valor: toBrl(r.delta_centavos),
            valorCentavos: r.delta_centavos,
            saldoApos: toBrl(r.balance_after_centavos),
            saldoAposCentavos: r.balance_after_centavos,
            tipoConsulta: r.query_type,
            requestId: r.operation_id,
            searchLogId: r.search_log_id,
            nota: r.note,
            criadoEm: r.created_at,
          })),
      });
      return { data, meta: { pagination } };
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/v1/conta/precos',
    meta: {
      class: 'account',
      auth: true,
      tag: 'Conta',
      summary: "Prices of the account's plan, per query type",
      description: 'Free. To price one call before making it, send it with `Prefer: return=estimate`.',
    },
    schema: { data: PriceList },
    handler: async (req) => {
      const plan = req.auth!.account.plan;
      return {
        data: {
          plano: plan,
          moeda: 'BRL',
          cobranca: 'Charged once per successful operation; errors, not-found and source failures are free; a 202 is charged when it completes.',
          itens: s.prices
            .pricesOf(plan)
            .map((p) => ({ tipoConsulta: p.queryType, descricao: p.description, preco: toBrl(p.centavos), precoCentavos: p.centavos })),
        },
      };
    },
  });
}
