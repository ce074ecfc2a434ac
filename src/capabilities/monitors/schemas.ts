/** Request and response schemas of the case monitors (spec §4.8); they feed validation and OpenAPI. */
import { Type } from 'typebox';
import { CNJ_TWINS, integratorShape, same } from '../../platform/http/integrator-fields.ts';
import { Nullable } from '../../platform/http/nullable.ts';
import { PAID_MONITOR_TWINS } from '../../platform/monitoring/paid-monitor-twins.ts';
import { CheckedMonitorFields, MonitorFrequency, webhookUrlField } from '../../platform/monitoring/schemas.ts';
const CnjField = (name: string) =>
  Type.String({ minLength: 1, maxLength: 40, description: `CNJ number, masked or 20 digits (\`${name}\`; send this or its twin).` });

export const CreateMonitorBody = Type.Object(
  {
    numero_cnj: Type.Optional(CnjField('numero_cnj')),
    numeroCnj: Type.Optional(CnjField('numeroCnj')),
    webhook_url: webhookUrlField(),
    frequencia: Type.Optional(MonitorFrequency('How often the case is checked; default DIARIA.')),
    tribunal: Type.Optional(
      Nullable(
        Type.String({
          minLength: 2,
          maxLength: 10,
          description:
            'Court sigla (what integrators of the commercial service send). It must be the court of the number: DataJud indexes a case under its own court, ' +
            'with every instance of it.',
        }),
      ),
    ),
  },
  { additionalProperties: false },
);

const OwnMonitor = Type.Object({
  id: Type.String(),
  numeroCnj: Type.String({ description: 'Masked CNJ number.' }),
  tribunal: Type.String(),
  ...CheckedMonitorFields({
    frequencia: MonitorFrequency(),
    verificacoes: 'Completed checks.',
    novidades: 'New movements its checks brought in, in total.',
  }),
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
