/** Request and response schemas of the case monitors (spec §4.8); they feed validation and OpenAPI. */
import { FREQUENCIES } from '../../platform/monitoring/frequency.ts';
import { Type } from 'typebox';
import { CNJ_TWINS, integratorShape, same } from '../../platform/http/integrator-fields.ts';
import { Nullable } from '../../platform/http/nullable.ts';
import { PAID_MONITOR_TWINS } from '../../platform/monitoring/paid-monitor-twins.ts';
import { PageQuery } from '../../platform/http/pagination.ts';
import { MAX_WEBHOOK_URL_LENGTH } from '../../platform/webhooks/url-guard.ts';

const described = (description?: string) => (description ? { description } : {});
const Frequency = (description?: string) => Type.Union(FREQUENCIES.map((f) => Type.Literal(f)), described(description));
const Status = (description?: string) => Type.Union([Type.Literal('ATIVO'), Type.Literal('SUSPENSO'), Type.Literal('REMOVIDO')], described(description));
const CnjField = (name: string) => Type.String({ minLength: 1, maxLength: 40, description: `CNJ number, masked or 20 digits (\`${name}\`; send this or its twin).` });

export const CreateMonitorBody = Type.Object({
  numero_cnj: Type.Optional(CnjField('numero_cnj')),
  numeroCnj: Type.Optional(CnjField('numeroCnj')),
  webhook_url: Type.Optional(Nullable(Type.String({
    maxLength: MAX_WEBHOOK_URL_LENGTH,
    description: 'HTTPS receiver of this monitor\'s events (spec §6, pattern 2); null or absent: the account webhook.',
  }))),
  frequencia: Type.Optional(Frequency('How often the case is checked; default DIARIA.')),
  tribunal: Type.Optional(Nullable(Type.String({ minLength: 2, maxLength: 10, description: 'Court sigla (what integrators of the commercial service send). It must be the court of the number: DataJud indexes a case under its own court, with every instance of it.' }))),
}, { additionalProperties: false });

export const MonitorParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64, description: 'The monitor\'s `id`.' }),
}, { additionalProperties: false });

export const ListMonitorsQuery = Type.Object({
  ...PageQuery,
  status: Type.Optional(Status('Only monitors in this status; absent: ATIVO and SUSPENSO (removed ones only when asked for).')),
}, { additionalProperties: false });

const OwnMonitor = Type.Object({
  id: Type.String(),
  numeroCnj: Type.String({ description: 'Masked CNJ number.' }),
  tribunal: Type.String(),
  frequencia: Frequency(),
  webhookUrl: Nullable(Type.String()),
  status: Status('ATIVO (checked and renewed), SUSPENSO (a renewal could not be paid; POST again to reactivate), REMOVIDO (DELETE; final).'),
  situacao: Type.Union([Type.Literal('PENDENTE'), Type.Literal('ENCONTRADO'), Type.Literal('NAO_ENCONTRADO')], { description: 'PENDENTE until the first completed check.' }),
  preco: Type.Number({ description: 'BRL charged at creation and at each 30-day renewal.' }),
  verificacoes: Type.Integer({ description: 'Completed checks.' }),
  novidades: Type.Integer({ description: 'New movements its checks brought in, in total.' }),
  ultimaVerificacaoEm: Nullable(Type.String()),
  proximaVerificacaoEm: Nullable(Type.String({ description: 'null unless ATIVO.' })),
  proximaCobrancaEm: Nullable(Type.String({ description: 'null unless ATIVO.' })),
  ultimoErro: Nullable(Type.String()),
  criadoEm: Type.String(),
  removidoEm: Nullable(Type.String()),
  atualizadoEm: Type.String(),
});

/** The names integrators of the commercial service read (conventions §4.13). */
export const MonitorShape = integratorShape('monitoramento.processo', OwnMonitor, {
  ...CNJ_TWINS,
  ...PAID_MONITOR_TWINS,
  desativadoEm: same('removidoEm'),
});

export const Monitor = MonitorShape.schema;
