/** Request and response schemas of the intimação endpoints (spec §4.5); they feed validation and OpenAPI. */
import { Type } from 'typebox';
import { Nullable } from '../../platform/http/nullable.ts';
import { PageQuery } from '../../platform/http/pagination.ts';
import { MonitorStatus, STATUS_FILTER } from '../../platform/monitoring/schemas.ts';
import { OabFields } from '../../platform/http/oab-params.ts';
import { CourtsField, WebhookUrlField } from '../publication-monitors/parts.ts';
import { MAX_OABS } from './input.ts';
import { CreatedIntimationMonitorShape, CreationChargeShape, IntimationMonitorShape, IntimationShape, OabPair } from './present.ts';

const OabItem = Type.String({ minLength: 1, maxLength: 30 });
const Day = (description: string) => Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description }));

export const CreateIntimationBody = Type.Object(
  {
    ...OabFields,
    oabs: Type.Optional(
      Type.Array(OabItem, {
        minItems: 1,
        maxItems: MAX_OABS,
        description: `Several OABs at once (at most ${MAX_OABS}): \`SP123456\`, \`123.456/SP\` or \`SP:123456\`.`,
      }),
    ),
    webhook_url: WebhookUrlField,
    tribunais: CourtsField,
  },
  { additionalProperties: false },
);

export const UpdateIntimationBody = Type.Object(
  {
    ...OabFields,
    webhook_url: WebhookUrlField,
    tribunais: CourtsField,
  },
  { additionalProperties: false },
);

export const OneOabQuery = Type.Object({ ...OabFields }, { additionalProperties: false });

/** The OAB in the query of a PUT, beside (or instead of) the body. */
export const OptionalOabQuery = Type.Object({ ...OabFields }, { additionalProperties: false });

export const ListIntimationMonitorsQuery = Type.Object(
  {
    ...PageQuery,
    ...OabFields,
    status: Type.Optional(MonitorStatus(STATUS_FILTER)),
  },
  { additionalProperties: false },
);

const OabQueryFields = {
  oab_estado: OabFields.oab_estado,
  oab_numero: OabFields.oab_numero,
  oab: Type.Optional(
    Type.Array(OabItem, { maxItems: MAX_OABS, description: 'An OAB (SP123456, 123.456/SP, SP:123456); repeat it, or separate several with commas.' }),
  ),
  oabs: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 3100 }), { maxItems: MAX_OABS, description: 'Comma-separated OABs, e.g. `SP:123456,RJ:98765`.' }),
  ),
  data_inicio: Day('First day (yyyy-mm-dd) of `dataDisponibilizacao`, inclusive.'),
  data_fim: Day('Last day (yyyy-mm-dd), inclusive; not before `data_inicio`.'),
};

export const IntimationsQuery = Type.Object(
  {
    ...PageQuery,
    ...OabQueryFields,
    desde: Day('Same as `data_inicio` (the name integrators of the commercial service send).'),
    tipo_comunicacao: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'Only this DJEN `tipoComunicacao`, e.g. `Intimação`, `Edital`, `Lista de distribuição`.' }),
    ),
  },
  { additionalProperties: false },
);

export const HistoryQuery = Type.Object(
  {
    ...PageQuery,
    oab_estado: OabQueryFields.oab_estado,
    oab_numero: OabQueryFields.oab_numero,
    oab: OabQueryFields.oab,
    oabs: OabQueryFields.oabs,
    data_inicio: OabQueryFields.data_inicio,
    data_fim: OabQueryFields.data_fim,
  },
  { additionalProperties: false },
);

export const PublicationParams = Type.Object(
  {
    diarioId: Type.String({ minLength: 1, maxLength: 64, description: "The publication id (`diarioId` / `intimacaoId` of GET /v1/intimacoes: DJEN's id)." }),
  },
  { additionalProperties: false },
);

export { OabPair };

export const IntimationMonitor = IntimationMonitorShape.schema;

export const CreatedIntimationMonitors = Type.Object({
  monitoramentos: Type.Array(CreatedIntimationMonitorShape.schema),
  ...CreationChargeShape.schema.properties,
  reutilizados: Type.Array(Type.String(), { description: 'OABs that already had a live monitor: not charged again.' }),
  callback: Type.Object({ enabled: Type.Boolean(), mode: Nullable(Type.Union([Type.Literal('MONITOR'), Type.Literal('CONTA')])) }),
  oabs: Type.Array(OabPair),
});

export const Intimation = IntimationShape.schema;

export const IntimationMatch = Type.Object({
  monitoramentoId: Type.String(),
  oab: Type.String(),
  correspondidoEm: Type.String({ description: 'When the monitor matched it.' }),
  notificado: Type.Boolean({ description: "true: it was news (dated from the monitor's `desde` on, not cancelled) and an event was emitted." }),
  eventoId: Nullable(Type.String()),
  entrega: Nullable(
    Type.Object(
      { id: Type.String(), status: Type.String({ description: 'PENDENTE, ENTREGUE, FALHOU or DESCARTADA (GET /v1/conta/webhook/entregas/{id}).' }) },
      { description: 'The webhook delivery, when a webhook was configured.' },
    ),
  ),
  publicacao: Intimation,
});
