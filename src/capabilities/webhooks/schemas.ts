/** Request and response schemas of the account webhook (spec §2.4, §6). */
import { Type } from 'typebox';
import type { DeliveryStatus } from '../../platform/db/schema.ts';
import { Nullable } from '../../platform/http/nullable.ts';
import { EVENT_NAMES } from '../../platform/events/kinds.ts';
import { PageQuery } from '../../platform/http/pagination.ts';

/** Every status of a delivery (platform/db/schema.ts DeliveryStatus), in the order the console lists them. */
export const DELIVERY_STATUSES = ['PENDENTE', 'ENTREGUE', 'FALHOU', 'DESCARTADA', 'RETIDA'] as const satisfies readonly DeliveryStatus[];

const Format = Type.Union([Type.Literal('NORMALIZED'), Type.Literal('RAW'), Type.Literal('BOTH')]);
const EventName = Type.String({ minLength: 1, maxLength: 64, description: `One of: ${EVENT_NAMES.join(', ')}.` });

export const WebhookConfig = Type.Object({
  url: Nullable(Type.String()),
  formato: Format,
  ativo: Type.Boolean(),
  eventos: Nullable(Type.Array(Type.String())),
  eventosDisponiveis: Type.Array(Type.String()),
  nomesLegados: Type.Boolean(),
  tokenConfigurado: Type.Boolean(),
  segredoPrefixo: Type.String({ description: 'The first characters of the current secret, to tell secrets apart.' }),
  segredo: Nullable(Type.String({ description: 'The secret itself: only in the response that created it (first use, or POST …/segredo).' })),
  atualizadoEm: Type.String(),
});

export const WebhookConfigBody = Type.Object(
  {
    url: Type.Optional(Nullable(Type.String({ maxLength: 2048, description: 'HTTPS URL of the receiver; null removes it.' }))),
    token: Type.Optional(
      Nullable(
        Type.String({
          minLength: 1,
          maxLength: 512,
          pattern: '^[\\x21-\\x7E]+$',
          description: 'Sent as `Authorization: Bearer <token>`; null removes it. Never shown back.',
        }),
      ),
    ),
    formato: Type.Optional(Format),
    ativo: Type.Optional(Type.Boolean()),
    eventos: Type.Optional(Nullable(Type.Array(EventName, { maxItems: 64, uniqueItems: true, description: 'Kinds to send; null = all.' }))),
    nomes_legados: Type.Optional(
      Type.Boolean({ description: 'Also send the legacy `atualizacao_concluida` next to `atualizacao_processo_concluida` (spec §9.4).' }),
    ),
  },
  { additionalProperties: false },
);

export const Secret = Type.Object({ segredo: Type.String(), segredoPrefixo: Type.String() });

export const Attempt = Type.Object({
  tentativa: Type.Integer(),
  url: Nullable(Type.String()),
  iniciadaEm: Type.String(),
  statusHttp: Nullable(Type.Integer()),
  latenciaMs: Type.Integer(),
  erro: Nullable(Type.String()),
  respostaTrecho: Nullable(Type.String({ description: "The first bytes of the receiver's answer (at most 1 KiB)." })),
  proximaTentativaEm: Nullable(Type.String()),
});

export const Delivery = Type.Object({
  id: Type.String({ description: 'X-Service-Delivery-Id.' }),
  eventoId: Type.String({ description: 'The payload `id` and `webhook-id`: the same across retries and resends.' }),
  evento: Type.String(),
  status: Type.Union(
    DELIVERY_STATUSES.map((s) => Type.Literal(s)),
    {
      description: 'RETIDA: kept, not attempted, while its endpoint is disabled (GET /v1/conta/webhook/destinos).',
    },
  ),
  destino: Type.Union([Type.Literal('conta'), Type.Literal('monitor')]),
  monitor: Nullable(Type.Object({ tipo: Type.String(), id: Type.String() })),
  url: Nullable(Type.String({ description: "The monitor's URL; null = the account URL at each attempt." })),
  tentativas: Type.Integer(),
  maxTentativas: Type.Integer(),
  ultimoStatusHttp: Nullable(Type.Integer()),
  ultimoErro: Nullable(Type.String()),
  proximaTentativaEm: Nullable(Type.String()),
  reenvioDe: Nullable(Type.String()),
  criadaEm: Type.String(),
  entregueEm: Nullable(Type.String()),
  historico: Type.Array(Attempt),
});

export const DeliveryQuery = Type.Object(
  {
    ...PageQuery,
    status: Type.Optional(Type.Union(DELIVERY_STATUSES.map((s) => Type.Literal(s)))),
    evento: Type.Optional(EventName),
  },
  { additionalProperties: false },
);

export const DeliveryParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });

export const TestResult = Type.Object({
  entregue: Type.Boolean(),
  entrega: Delivery,
});

export const Endpoint = Type.Object({
  url: Type.String({ description: "The account URL or a monitor's `webhook_url`." }),
  destino: Type.Union([Type.Literal('conta'), Type.Literal('monitor')], { description: '`conta` when it is the account URL now.' }),
  situacao: Type.Union([Type.Literal('FALHANDO'), Type.Literal('DESATIVADO')], {
    description: 'FALHANDO: every attempt since `falhandoDesde` failed; DESATIVADO: disabled, its deliveries kept (RETIDA) until re-enabled.',
  }),
  falhandoDesde: Type.String({ description: 'The first failed attempt since the last success.' }),
  ultimaFalhaEm: Type.String(),
  ultimoErro: Nullable(Type.String()),
  desativadoEm: Nullable(Type.String()),
  desativarEm: Nullable(Type.String({ description: 'When a FALHANDO endpoint is disabled if no attempt succeeds before; null when it never is.' })),
  entregasRetidas: Type.Integer({ minimum: 0 }),
});

export const Endpoints = Type.Object({ destinos: Type.Array(Endpoint) });

export const ReenableBody = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 2048, description: 'The disabled endpoint, as GET /v1/conta/webhook/destinos lists it.' }),
    reenviar: Type.Optional(
      Type.Boolean({
        description: 'true: the deliveries kept while it was disabled are sent again (full retry ladder); false (default): they end DESCARTADA.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const Reenabled = Type.Object({
  url: Type.String(),
  reativado: Type.Boolean({ description: 'false when the endpoint was not disabled (nothing changed).' }),
  reenviadas: Type.Integer({ minimum: 0 }),
  descartadas: Type.Integer({ minimum: 0 }),
});
