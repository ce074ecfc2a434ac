/** The schema pieces every paid-monitor kind shares (spec §4.8), written once: validation and OpenAPI. */
import { Type, type TSchema } from 'typebox';
import { Nullable } from '../http/nullable.ts';
import { PageQuery } from '../http/pagination.ts';
import { MAX_WEBHOOK_URL_LENGTH } from '../webhooks/url-guard.ts';
import { FREQUENCIES } from './frequency.ts';
import { toBrl } from '../billing/prices.ts';
import type { MonitorFrequency as Frequency } from '../db/schema.ts';
import type { PaidMonitorRow } from './tables.ts';

const described = (description?: string) => (description ? { description } : {});

export const MonitorFrequency = (description?: string) =>
  Type.Union(
    FREQUENCIES.map((f) => Type.Literal(f)),
    described(description),
  );
export const MonitorStatus = (description?: string) =>
  Type.Union([Type.Literal('ATIVO'), Type.Literal('SUSPENSO'), Type.Literal('REMOVIDO')], described(description));

/** What a monitor's `status` means, in its view. */
export const STATUS_MEANING = 'ATIVO (checked and renewed), SUSPENSO (a renewal could not be paid; POST again to reactivate), REMOVIDO (DELETE; final';

/** A create (or change) body's `webhook_url`. */
export const webhookUrlField = (description = "HTTPS receiver of this monitor's events (spec §6, pattern 2); null or absent: the account webhook.") =>
  Type.Optional(
    Nullable(
      Type.String({
        maxLength: MAX_WEBHOOK_URL_LENGTH,
        description,
      }),
    ),
  );

export const MonitorIdParams = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 64, description: "The monitor's `id`." }),
  },
  { additionalProperties: false },
);

export const STATUS_FILTER = 'Only monitors in this status; absent: ATIVO and SUSPENSO (removed ones only when asked for).';

/** A listing's query: a page and, optionally, one status. */
export const MonitorListQuery = (statusDescription?: string) =>
  Type.Object(
    {
      ...PageQuery,
      status: Type.Optional(MonitorStatus(statusDescription)),
    },
    { additionalProperties: false },
  );

/** A view's price. */
export const PriceField = Type.Number({ description: 'BRL charged at creation and at each 30-day renewal.' });

/** A view's schedule, last error and creation, after its own counters. */
export const ScheduleFields = {
  ultimaVerificacaoEm: Nullable(Type.String()),
  proximaVerificacaoEm: Nullable(Type.String({ description: 'null unless ATIVO.' })),
  proximaCobrancaEm: Nullable(Type.String({ description: 'null unless ATIVO.' })),
  ultimoErro: Nullable(Type.String()),
  criadoEm: Type.String(),
};

/** The values of ScheduleFields for one monitor: the next check and charge only while it is ATIVO. */
export function scheduleFieldsOf(
  m: Pick<PaidMonitorRow, 'status' | 'proxima_verificacao_em' | 'proxima_cobranca_em' | 'ultimo_erro'> & {
    ultima_verificacao_em: string | null;
    criado_em: string;
  },
) {
  const active = m.status === 'ATIVO';
  return {
    ultimaVerificacaoEm: m.ultima_verificacao_em,
    proximaVerificacaoEm: active ? m.proxima_verificacao_em : null,
    proximaCobrancaEm: active ? m.proxima_cobranca_em : null,
    ultimoErro: m.ultimo_erro,
    criadoEm: m.criado_em,
  };
}

/**
 * The view's fields of the kinds checked at a frequency (case and administrative monitors), what
 * checkedMonitorFieldsOf fills: the kind gives its frequency's schema and what its counters count.
 */
export const CheckedMonitorFields = <F extends TSchema>(own: { frequencia: F; verificacoes?: string; novidades: string }) => ({
  frequencia: own.frequencia,
  webhookUrl: Nullable(Type.String()),
  status: MonitorStatus(`${STATUS_MEANING}).`),
  situacao: SituationField,
  preco: PriceField,
  verificacoes: Type.Integer(own.verificacoes === undefined ? {} : { description: own.verificacoes }),
  novidades: Type.Integer({ description: own.novidades }),
  ...ScheduleFields,
});

type ScheduledRow = Parameters<typeof scheduleFieldsOf>[0];

/**
 * The values the kinds checked at a frequency (case and administrative monitors) show alike, in their
 * views' order: frequency, webhook, status, what the last check found, price, counters, schedule.
 */
export function checkedMonitorFieldsOf<
  R extends ScheduledRow & {
    frequencia: Frequency;
    situacao: string;
    preco_centavos: number;
    webhook_url: string | null;
    verificacoes: number;
    novidades: number;
  },
>(m: R) {
  return {
    frequencia: m.frequencia,
    webhookUrl: m.webhook_url,
    status: m.status as R['status'],
    situacao: m.situacao as R['situacao'],
    preco: toBrl(m.preco_centavos),
    verificacoes: m.verificacoes,
    novidades: m.novidades,
    ...scheduleFieldsOf(m),
  };
}

/** A view's check outcome, on the monitors checked at a frequency (case and administrative). */
export const SituationField = Type.Union([Type.Literal('PENDENTE'), Type.Literal('ENCONTRADO'), Type.Literal('NAO_ENCONTRADO')], {
  description: 'PENDENTE until the first completed check.',
});
