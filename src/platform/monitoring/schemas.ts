/** The schema pieces every paid-monitor kind shares (spec §4.8), written once: validation and OpenAPI. */
import { Type } from 'typebox';
import { Nullable } from '../http/nullable.ts';
import { PageQuery } from '../http/pagination.ts';
import { MAX_WEBHOOK_URL_LENGTH } from '../webhooks/url-guard.ts';
import { FREQUENCIES } from './frequency.ts';
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

/** A view's check outcome, on the monitors checked at a frequency (case and administrative). */
export const SituationField = Type.Union([Type.Literal('PENDENTE'), Type.Literal('ENCONTRADO'), Type.Literal('NAO_ENCONTRADO')], {
  description: 'PENDENTE until the first completed check.',
});
