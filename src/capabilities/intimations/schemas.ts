/** Request and response schemas of the intimação endpoints (spec §4.5); they feed validation and OpenAPI. */
import { Type } from 'typebox';
import { Nullable } from '../../platform/http/nullable.ts';
import { PageQuery } from '../../platform/http/pagination.ts';
import { CourtsField, MonitorStatus, PublicationMonitor, WebhookUrlField } from '../publications/monitor-schemas.ts';
import { OabFields } from '../publications/oab-params.ts';
import { Publication } from '../publications/schemas.ts';
import { MAX_OABS } from './input.ts';

const OabItem = Type.String({ minLength: 1, maxLength: 30 });
const Day = (description: string) => Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description }));

export const CreateIntimationBody = Type.Object({
  ...OabFields,
  oabs: Type.Optional(Type.Array(OabItem, { minItems: 1, maxItems: MAX_OABS, description: `Several OABs at once (at most ${MAX_OABS}): \`SP123456\`, \`123.456/SP\` or \`SP:123456\`.` })),
  webhook_url: WebhookUrlField,
  tribunais: CourtsField,
}, { additionalProperties: false });

export const UpdateIntimationBody = Type.Object({
  ...OabFields,
  webhook_url: WebhookUrlField,
  tribunais: CourtsField,
}, { additionalProperties: false });

export const OneOabQuery = Type.Object({ ...OabFields }, { additionalProperties: false });

/** The OAB in the query of a PUT, beside (or instead of) the body. */
export const OptionalOabQuery = Type.Object({ ...OabFields }, { additionalProperties: false });

export const ListIntimationMonitorsQuery = Type.Object({
  ...PageQuery,
  ...OabFields,
  status: Type.Optional(MonitorStatus('Only monitors in this status; absent: ATIVO and SUSPENSO (removed ones only when asked for).')),
}, { additionalProperties: false });

const OabQueryFields = {
  oab_estado: OabFields.oab_estado,
  oab_numero: OabFields.oab_numero,
  oab: Type.Optional(Type.Array(OabItem, { maxItems: MAX_OABS, description: 'An OAB (SP123456, 123.456/SP, SP:123456); repeat it, or separate several with commas.' })),
  oabs: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 3100 }), { maxItems: MAX_OABS, description: 'Comma-separated OABs, e.g. `SP:123456,RJ:98765`.' })),
  data_inicio: Day('First day (yyyy-mm-dd) of `dataDisponibilizacao`, inclusive.'),
  data_fim: Day('Last day (yyyy-mm-dd), inclusive; not before `data_inicio`.'),
};

export const IntimationsQuery = Type.Object({
  ...PageQuery,
  ...OabQueryFields,
  desde: Day('Same as `data_inicio` (the name integrators of the commercial service send).'),
  tipo_comunicacao: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only this DJEN `tipoComunicacao`, e.g. `Intimação`, `Edital`, `Lista de distribuição`.' })),
}, { additionalProperties: false });

export const HistoryQuery = Type.Object({
  ...PageQuery,
  oab_estado: OabQueryFields.oab_estado,
  oab_numero: OabQueryFields.oab_numero,
  oab: OabQueryFields.oab,
  oabs: OabQueryFields.oabs,
  data_inicio: OabQueryFields.data_inicio,
  data_fim: OabQueryFields.data_fim,
}, { additionalProperties: false });

export const PublicationParams = Type.Object({
  diarioId: Type.String({ minLength: 1, maxLength: 64, description: 'The publication id (`diarioId` / `intimacaoId` of GET /v1/intimacoes: DJEN\'s id).' }),
}, { additionalProperties: false });

export const OabPair = Type.Object({ estado: Type.String(), numero: Type.String() });

/** A publication monitor whose status, OAB and term have the shapes integrators read (conventions §4.12). */
export const IntimationMonitor = Type.Intersect([Type.Omit(PublicationMonitor, ['status', 'oab', 'termo']), Type.Object({
  status: Type.Union([Type.Literal('ACTIVE'), Type.Literal('INACTIVE')], { description: 'ACTIVE while checked and renewed; INACTIVE once suspended or removed (`situacao` says which).' }),
  situacao: MonitorStatus('ATIVO, SUSPENSO (a renewal could not be paid; POST again to reactivate) or REMOVIDO (DELETE; final, stays readable).'),
  oab: OabPair,
  termo: Type.String({ description: 'e.g. `OAB/SP 123456`.' }),
  oab_estado: Type.String(),
  oab_numero: Type.String(),
})]);

export const CreatedIntimationMonitors = Type.Object({
  monitoramentos: Type.Array(Type.Intersect([IntimationMonitor, Type.Object({
    estado: Type.String(), numero: Type.String(), callbackEnabled: Type.Boolean(),
    reused: Type.Boolean({ description: 'true: the account\'s live monitor of this OAB, returned free.' }),
  })])),
  cobranca: Type.Object({
    oabsCobradas: Type.Array(Type.String(), { description: 'OABs charged by this request (created or reactivated).' }),
    precoPorOab: Type.Number({ description: 'BRL per OAB and 30-day period (`intimacoes.monitor_oab`).' }),
    total: Type.Number({ description: 'BRL charged by this request (= meta.creditsCharged).' }),
  }),
  reutilizados: Type.Array(Type.String(), { description: 'OABs that already had a live monitor: not charged again.' }),
  billing: Type.Object({ billableOabs: Type.Integer(), pricePerNewOab: Type.Number(), creditsCharged: Type.Number() }, { description: 'The same charge in the names integrators read.' }),
  callback: Type.Object({ enabled: Type.Boolean(), mode: Nullable(Type.Union([Type.Literal('MONITOR'), Type.Literal('CONTA')])) }),
  oabs: Type.Array(OabPair),
});

export const Intimation = Type.Intersect([Publication, Type.Object({
  intimacaoId: Type.String({ description: 'Same as `id`.' }),
  diarioId: Type.String({ description: 'Same as `id`: GET /v1/intimacoes/publicacoes/{diarioId}.' }),
  oab: Nullable(OabPair),
  dataPublicacao: Type.String({ description: 'Same as `dataDisponibilizacao`.' }),
  diario: Type.Object({ nome: Type.String(), sigla: Type.String(), estado: Nullable(Type.String()) }),
  // `processo.titulo` is the case class as `classe` gives it ({codigo, nome}), which integrators read today.
  processo: Type.Object({ numeroCnj: Nullable(Type.String({ description: 'Masked.' })), titulo: Publication.properties.classe }),
  titulo: Nullable(Type.String()),
  conteudo: Type.String({ description: 'An excerpt of the text.' }),
  conteudoCompletoHtml: Type.String({ description: 'The text as the court published it (HTML or plain text).' }),
  pagina: Nullable(Type.Integer()),
  caderno: Nullable(Type.String()),
  link: Nullable(Type.String({ description: 'The court\'s page of the publication.' })),
})]);

export const IntimationMatch = Type.Object({
  monitoramentoId: Type.String(),
  oab: Type.String(),
  correspondidoEm: Type.String({ description: 'When the monitor matched it.' }),
  notificado: Type.Boolean({ description: 'true: it was news (dated from the monitor\'s `desde` on, not cancelled) and an event was emitted.' }),
  eventoId: Nullable(Type.String()),
  entrega: Nullable(Type.Object({ id: Type.String(), status: Type.String({ description: 'PENDENTE, ENTREGUE, FALHOU or DESCARTADA (GET /v1/conta/webhook/entregas/{id}).' }) }, { description: 'The webhook delivery, when a webhook was configured.' })),
  publicacao: Intimation,
});
