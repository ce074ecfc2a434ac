/**
 * Request and response schemas of the publication monitors (spec §4.8); they feed validation and
 * OpenAPI. The monitor as present.ts `monitorView` shows it, and the fields both create bodies share,
 * serve the intimação monitors too (same table).
 */
import { Type } from 'typebox';
import { Nullable } from '../../platform/http/nullable.ts';
import { OabFields } from '../../platform/http/oab-params.ts';
import { MonitorStatus, PriceField, ScheduleFields, STATUS_MEANING, webhookUrlField } from '../../platform/monitoring/schemas.ts';
import { MAX_TERM_LENGTH } from './input.ts';

export const WebhookUrlField = webhookUrlField(
  "HTTPS receiver of this monitor's events instead of the account webhook (spec §6, pattern 2; INVALID_WEBHOOK_URL otherwise); null removes it.",
);

/** A create's optional list of short values (courts, sources): absent, empty or null means every one. */
const ListFilterField = (itemMaxLength: number, options: { maxItems: number; description: string; examples?: string[][] }) =>
  Type.Optional(Nullable(Type.Array(Type.String({ minLength: 1, maxLength: itemMaxLength }), options)));

export const CourtsField = ListFilterField(20, {
  maxItems: 100,
  description:
    'Court siglas (GET /v1/tribunais, e.g. TJSP, TRF4, TRE-SP; 422 UNKNOWN_COURT otherwise): only their publications count. ' +
    'Absent on create, empty or null: every court.',
});

export const SourcesField = ListFilterField(10, {
  maxItems: 40,
  description:
    "Sources to watch (issue 16): `DJEN` (the national gazette), `STF` (the supreme court's DJe), `TSE` or `TRE-<UF>` (the electoral gazette of that " +
    'court); 400 INVALID_PARAMETER otherwise. Absent on create, empty or null: every source.',
  examples: [['DJEN', 'STF', 'TSE', 'TRE-SP']],
});

export const PublicationMonitor = Type.Object({
  id: Type.String(),
  origem: Type.Union([Type.Literal('INTIMACOES'), Type.Literal('PUBLICACOES')], {
    description: 'INTIMACOES: /v1/intimacoes/oab; PUBLICACOES: /v1/monitoramentos/publicacoes.',
  }),
  tipo: Type.Union([Type.Literal('OAB'), Type.Literal('TERMO'), Type.Literal('PROCESSO')]),
  termo: Type.String({ description: 'What it follows, as written (an OAB in canonical form, a masked CNJ number).' }),
  oab: Nullable(Type.String({ description: 'Canonical OAB (SP123456) when `tipo` is OAB.' })),
  numeroCnj: Nullable(Type.String({ description: 'Masked CNJ number when `tipo` is PROCESSO.' })),
  tribunais: Nullable(Type.Array(Type.String(), { description: 'null: every court.' })),
  fontes: Nullable(
    Type.Array(Type.String(), { description: 'Sources watched (DJEN, STF, TSE, TRE-<UF>); null: every source. Intimação monitors hear DJEN only.' }),
  ),
  webhookUrl: Nullable(Type.String()),
  evento: Type.String({
    description: 'The event each new matching publication emits: `diario_movimentacao_nova` (intimações, PROCESSO) or `publicacao_judicial_nova` (OAB, TERMO).',
  }),
  status: MonitorStatus(`${STATUS_MEANING}, stays readable).`),
  preco: PriceField,
  desde: Type.String({ description: 'yyyy-mm-dd: publications of this day on are news (events); older ones are history.' }),
  publicacoes: Type.Integer({ description: 'Publications it matched, news and history.' }),
  ...ScheduleFields,
  atualizadoEm: Type.String(),
  removidoEm: Nullable(Type.String()),
});

export const CreatePublicationMonitorBody = Type.Object(
  {
    tipo: Type.Optional(
      Type.Union([Type.Literal('TERMO'), Type.Literal('OAB'), Type.Literal('PROCESSO')], {
        description: 'What to follow; inferred from the field given when absent. With `tipo`, the value may also come in `termo`.',
      }),
    ),
    termo: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: MAX_TERM_LENGTH + 50,
        description: `A word or phrase (at least 3 letters or digits, at most ${MAX_TERM_LENGTH} characters; accents and case ignored), e.g. a party's name.`,
      }),
    ),
    ...OabFields,
    numero_cnj: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'A case number (masked or 20 digits): its gazette communications.' })),
    tribunais: CourtsField,
    fontes: SourcesField,
    webhook_url: WebhookUrlField,
  },
  { additionalProperties: false },
);

export const PublicationMonitorView = Type.Intersect([
  PublicationMonitor,
  Type.Object({
    reused: Type.Optional(Type.Boolean({ description: "On create: true when the account's live monitor of the same target was returned (free)." })),
  }),
]);
