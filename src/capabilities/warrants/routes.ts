/**
 * Arrest warrants (spec §4.7) through the operator's provider (ports/warrants.ts). The three warrant
 * rules: at least one warrant is CONSTA; a definitive empty answer is NADA_CONSTA, and it is charged
 * like any result; a failure, timeout or refusal of the provider is an uncharged error, never
 * NADA_CONSTA (the port throws; nothing here turns an error into an empty list). No provider: 503
 * SOURCE_NOT_CONFIGURED. Warrant data is personal: it is not stored (only the response itself, kept
 * as every response is by the 202 and Idempotency-Key stores, for their documented retention) and
 * never logged (request lines carry the route, never the query).
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { iso } from '../../platform/clock.ts';
import { ApiError } from '../../platform/errors.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { Nullable } from '../../platform/http/nullable.ts';
import { formatCnj } from '../../platform/identifiers/cnj.ts';
import { parseCpf } from '../../platform/identifiers/cpf-cnpj.ts';
import { formatNumeroPeca, parseNumeroPeca } from '../../platform/identifiers/peca.ts';
import type { WarrantQuery, WarrantRecord, WarrantsSource } from '../../platform/ports/warrants.ts';
import { configuredProvider } from '../../platform/ports/provider.ts';
import type { Services } from '../../platform/services.ts';

/** Spec §1 rule 6, said to the person who reads the answer. */
export const WARRANT_NOTICE =
  'Resultado com os registros disponíveis na fonte no instante da consulta (consultadoEm); não substitui certidão oficial. ' +
  'Homônimos são possíveis: confira o número da peça e o processo. Mandados sigilosos não aparecem em consultas públicas.';

const Warrant = Type.Object({
  numeroPeca: Nullable(Type.String({ description: 'Masked: NNNNNNN-DD.AAAA.J.TR.OOOO.TT.SSSS-DV.' })),
  tipoPeca: Nullable(Type.String({ description: 'e.g. Mandado de Prisão.' })),
  status: Nullable(Type.String({ description: 'e.g. Pendente de Cumprimento.' })),
  numeroProcesso: Nullable(Type.String({ description: 'Masked CNJ number.' })),
  orgao: Nullable(Type.String({ description: 'The issuing court unit.' })),
  dataExpedicao: Nullable(Type.String({ description: 'yyyy-mm-dd' })),
  nome: Nullable(Type.String()),
  alcunha: Nullable(Type.String()),
});

const WarrantAnswer = Type.Object({
  status: Type.Union([Type.Literal('CONSTA'), Type.Literal('NADA_CONSTA')], {
    description: 'CONSTA: the source returned at least one warrant; NADA_CONSTA: it answered, definitively, none (spec §4.7).',
  }),
  consultadoEm: Type.String({ description: 'The instant of the query (ISO-8601).' }),
  consulta: Type.Object({ tipo: Type.Union([Type.Literal('CPF'), Type.Literal('NUMERO_PECA')]), valor: Type.String({ description: 'As asked, masked.' }) }),
  quantidade: Type.Integer({ minimum: 0 }),
  mandados: Type.Array(Warrant),
  fonte: Type.Object({ nome: Type.String(), sandbox: Type.Boolean({ description: "true: the sandbox's fictitious provider." }) }),
  aviso: Type.String({ description: 'Spec rule 6: this is not an official certificate.' }),
});

function provider(s: Services): WarrantsSource {
  return configuredProvider(s.sources.warrants, {
    source: 'mandados',
    setting: 'TRAMITA_WARRANTS_PROVIDER_URL',
    message:
      "Warrants come from a provider the operator configures (TRAMITA_WARRANTS_PROVIDER_URL, docs/providers.md): BNMP's portal sits behind a captcha Tramita " +
      'never solves. None is configured, so there is no answer, and never a NADA_CONSTA.',
  });
}

function warrantView(w: WarrantRecord) {
  return {
    numeroPeca: w.numeroPeca ? formatNumeroPeca(w.numeroPeca) : null,
    tipoPeca: w.tipoPeca,
    status: w.status,
    numeroProcesso: w.numeroProcesso ? formatCnj(w.numeroProcesso) : null,
    orgao: w.orgao,
    dataExpedicao: w.dataExpedicao,
    nome: w.nome,
    alcunha: w.alcunha,
  };
}

export function warrantRoutes(app: FastifyInstance, s: Services): void {
  defineRoute(app, {
    method: 'GET',
    url: '/v1/mandados',
    meta: {
      class: 'lookup',
      auth: true,
      charge: 'mandados.consulta',
      async: true,
      tag: 'Mandados',
      summary: 'Arrest warrants by CPF or piece number',
      description:
        'Exactly one of `cpf` (400 INVALID_CPF_CNPJ) or `numero_peca` (28 digits, 400 INVALID_NUMERO_PECA). `data.status` is CONSTA when the source returned ' +
        'at least one warrant, NADA_CONSTA when it answered none: both are results and are charged (spec §4.7). ' +
        'A failure, timeout or unavailability of the source is 503 SOURCE_UNAVAILABLE / 504 SOURCE_TIMEOUT, never NADA_CONSTA, never charged; no provider ' +
        'configured is 503 SOURCE_NOT_CONFIGURED; a provider that cannot search this way is 422 QUERY_NOT_SUPPORTED. ' +
        'The answer carries the instant of the query and a notice: it does not replace an official certificate.',
    },
    schema: {
      querystring: Type.Object(
        {
          cpf: Type.Optional(Type.String({ minLength: 1, maxLength: 20, description: 'CPF, bare or masked.' })),
          numero_peca: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: "The piece's number, bare or masked." })),
        },
        { additionalProperties: false },
      ),
      data: WarrantAnswer,
    },
    handler: async (req) => {
      const { cpf, numero_peca: peca } = req.query;
      if (cpf === undefined && peca === undefined) throw new ApiError('MISSING_PARAMETER', 'Send `cpf` or `numero_peca`.', { field: 'cpf', in: 'query' });
      if (cpf !== undefined && peca !== undefined)
        throw new ApiError('INVALID_PARAMETER', 'Send `cpf` or `numero_peca`, not both: one query is one charge.', { field: 'numero_peca', in: 'query' });
      const parsedCpf = cpf === undefined ? null : parseCpf(cpf, 'cpf');
      const parsedPeca = peca === undefined ? null : parseNumeroPeca(peca, 'numero_peca');
      const source = provider(s);
      const kind = parsedCpf ? 'cpf' : 'numeroPeca';
      if (!source.supports.includes(kind))
        throw new ApiError('QUERY_NOT_SUPPORTED', `The configured warrants provider does not search by ${parsedCpf ? 'CPF' : 'piece number'}.`, {
          field: parsedCpf ? 'cpf' : 'numero_peca',
          in: 'query',
        });
      const query: WarrantQuery = parsedCpf ? { cpf: parsedCpf.value } : { numeroPeca: parsedPeca!.digits };
      const consultadoEm = iso(s.clock.now());
      const found = await source.query(query);
      return {
        data: {
          status: found.length > 0 ? 'CONSTA' : 'NADA_CONSTA',
          consultadoEm,
          consulta: parsedCpf ? { tipo: 'CPF', valor: parsedCpf.masked } : { tipo: 'NUMERO_PECA', valor: parsedPeca!.masked },
          quantidade: found.length,
          mandados: found.map(warrantView),
          fonte: { nome: source.info.name, sandbox: source.info.sandbox },
          aviso: WARRANT_NOTICE,
        },
      };
    },
  });
}
