/** Request and response schemas of administrative processes and their monitors (spec §4.7, §4.8); they feed validation and OpenAPI. */
import { callbackFields } from '../../platform/http/callback-flag.ts';
import { Type } from 'typebox';
import { DAY_TWINS, integratorShape } from '../../platform/http/integrator-fields.ts';
import { Nullable } from '../../platform/http/nullable.ts';
import { PAID_MONITOR_TWINS } from '../../platform/monitoring/paid-monitor-twins.ts';
import { CheckedMonitorFields, MonitorFrequency, webhookUrlField } from '../../platform/monitoring/schemas.ts';

const NupText = (description: string) => Type.String({ minLength: 1, maxLength: 40, description });

export const NupParams = Type.Object({ nup: NupText('NUP, masked (`00000.000000/0000-00`) or 17 digits.') }, { additionalProperties: false });

export const LookupBody = Type.Object(
  {
    orgao: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 20,
        description:
          "The body to ask (sigla or protocol-unit code, as GET /v1/orgaos-administrativos lists it). It must be the NUP's own body: 422 INVALID_PARAMETER " +
          'otherwise.',
      }),
    ),
    origem: Type.Optional(Type.String({ minLength: 1, maxLength: 20, description: "Alias of `orgao` (the commercial service's name)." })),
    fonte: Type.Optional(Type.Literal('PROTOCOLO_INTEGRADO', { description: 'The source to ask; the only one today.' })),
    dias_ultima_atualizacao: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 3650,
        description: 'Maximum age, in days, of a stored copy to answer with; 0 always asks the source. Absent: TRAMITA_ADMINISTRATIVE_FRESH_MINUTES.',
      }),
    ),
    ...callbackFields('the account webhook receives `resultado_processo_async` when the lookup ends, SUCESSO or ERRO'),
  },
  { additionalProperties: false },
);

const OwnMovement = Type.Object({
  id: Type.String({ description: 'Stable key of the tramitação.' }),
  dataHora: Type.String({ description: 'ISO-8601 (UTC).' }),
  operacao: Type.String(),
  unidadeOrigem: Nullable(Type.String()),
  unidadeDestino: Nullable(Type.String()),
});

/** A tramitação with the day as a case movement gives it to integrators (`data`, conventions §4.3). */
export const TramitacaoShape = integratorShape('tramitacao', OwnMovement, { ...DAY_TWINS });

const Movement = TramitacaoShape.schema;

const BodyRef = Type.Object({
  sigla: Type.String(),
  nome: Type.String(),
  esfera: Type.String(),
  unidadeProtocolizadora: Type.String({ description: "The NUP's first five digits." }),
});

export const AdministrativeProcess = Type.Object({
  nup: Type.String({ description: 'Masked.' }),
  nupDigitos: Type.String(),
  orgao: BodyRef,
  tipo: Nullable(Type.String()),
  assunto: Nullable(Type.String()),
  interessados: Type.Array(Type.Object({ nome: Type.String() }), { description: 'As published.' }),
  orgaoOrigem: Nullable(Type.String()),
  dataAutuacao: Nullable(Type.String({ description: 'yyyy-mm-dd' })),
  quantidadeTramitacoes: Type.Integer(),
  ultimaTramitacao: Nullable(Movement),
  tramitacoes: Type.Array(Movement, { description: 'Newest first.' }),
  fonte: Type.Object({
    nome: Type.String(),
    url: Nullable(Type.String({ description: 'The official public page; null for sandbox data.' })),
    coletadoEm: Type.String({ description: 'When the source was read.' }),
    sandbox: Type.Boolean(),
  }),
});

export const BodiesList = Type.Object({
  fonte: Type.String({ description: 'Where the list comes from.' }),
  fonteUrl: Nullable(Type.String()),
  data: Type.String({ description: 'yyyy-mm-dd: when it was compiled.' }),
  quantidade: Type.Integer(),
  orgaos: Type.Array(
    Type.Object({
      codigo: Type.String({ description: 'The first protocol-unit code of the body.' }),
      codigos: Type.Array(Type.String(), { description: 'Every protocol-unit code (NUP prefix) of the body.' }),
      sigla: Type.String(),
      nome: Type.String(),
      esfera: Type.String(),
      natureza: Type.String(),
      fonte: Type.String({ description: 'Where its processes are read (PROTOCOLO_INTEGRADO).' }),
      recursos: Type.Object({
        consulta: Type.Boolean(),
        tramitacoes: Type.Boolean(),
        monitoramento: Type.Boolean(),
        documentos: Type.Boolean({ description: 'false: Protocolo Integrado publishes metadata, never the documents.' }),
      }),
    }),
  ),
});

const Frequency = MonitorFrequency('How often the NUP is checked; default DIARIA.');

export const CreateAdminMonitorBody = Type.Object(
  {
    nup: NupText('NUP of the process, masked or 17 digits.'),
    webhook_url: webhookUrlField(),
    frequencia: Type.Optional(Frequency),
  },
  { additionalProperties: false },
);

const OwnAdminMonitor = Type.Object({
  id: Type.String(),
  nup: Type.String({ description: 'Masked.' }),
  ...CheckedMonitorFields({ frequencia: Frequency, novidades: 'New tramitações announced to it, in total.' }),
  atualizadoEm: Type.String(),
  removidoEm: Nullable(Type.String()),
});

/** The names integrators of the commercial service read on a paid monitor (conventions §4.13). */
export const AdminMonitorShape = integratorShape('monitoramento.processo_administrativo', OwnAdminMonitor, { ...PAID_MONITOR_TWINS });

export const AdminMonitor = AdminMonitorShape.schema;
