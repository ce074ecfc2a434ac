/** The events of administrative processes, and the account's own (its webhook endpoints, the test delivery). */
import { Type } from 'typebox';
import { Nullable } from '../http/nullable.ts';
import { declareEvent } from './declare.ts';

const text = Nullable(Type.String());
const Nup = Type.String({ description: 'The NUP, masked.' });

export const accountEvents = {
  nova_movimentacao_administrativa: declareEvent({
    summary: "New tramitações of an administrative process (by NUP) that an administrative-process monitor follows, whoever's lookup or check found them.",
    description:
      "New tramitações of an administrative process (by NUP) you monitor (`POST /v1/monitoramentos/processos-administrativos`), whoever's lookup " +
      'or check found them (docs/administrative.md).',
    payload: {
      nup: Nup,
      nupDigitos: Type.String(),
      orgao: Nullable(Type.Object({ sigla: Type.String(), nome: Type.String() })),
      assunto: text,
      novasTramitacoes: Type.Array(
        Type.Object(
          { id: Type.String(), dataHora: Type.String(), data: Type.String({ description: 'dd/mm/aaaa in Brasília.' }), operacao: text },
          { additionalProperties: true, description: 'As the process lookup lists them (`unidadeOrigem`, `unidadeDestino` too).' },
        ),
        { description: 'Newest first.' },
      ),
      quantidadeTramitacoes: Type.Integer(),
    },
    audience: { named: true },
    shape: [],
  }),
  resultado_processo_async: declareEvent({
    summary: 'A lookup of an administrative process asked with `enviar_callback` (POST /v1/processos/administrativos/nup/{nup}) ended in SUCESSO or ERRO.',
    description:
      'A lookup of an administrative process asked with `POST /v1/processos/administrativos/nup/{nup}` and `enviar_callback: true` (or ' +
      "`send_callback`) ended: `status` `SUCESSO` with `processo` (the lookup's answer) or `ERRO` with `erro`.",
    payload: {
      requestId: Type.String(),
      nup: Nup,
      tipo: Type.Literal('PROCESSO_ADMINISTRATIVO'),
      status: Type.Union([Type.Literal('SUCESSO'), Type.Literal('ERRO')]),
      processo: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: "SUCESSO: the lookup's answer, as the route gives it." })),
      erro: Type.Optional(Type.Object({ code: Type.String(), message: Type.String() }, { description: 'ERRO: why.' })),
    },
    audience: { asker: true },
    shape: [],
  }),
  webhook_desativado: declareEvent({
    summary:
      "An endpoint of the account (its URL or a monitor's webhook_url) failed every delivery for TRAMITA_WEBHOOK_DISABLE_AFTER_HOURS and was " +
      'disabled; sent to its other endpoints (docs/webhooks.md, endpoint health).',
    description:
      "One of your endpoints (the account URL or a monitor's `webhook_url`) failed every delivery for `TRAMITA_WEBHOOK_DISABLE_AFTER_HOURS` and " +
      "was disabled (see [Endpoint health](#endpoint-health)). Sent to your other endpoints (the account URL and the monitors' URLs delivered to " +
      'within the period) and kept in the pull feed; when the disabled endpoint is your only one, its delivery waits there with the others.',
    payload: {
      numeroCnj: Type.Null(),
      tribunal: Type.Null(),
      url: Type.String({ description: 'The disabled endpoint.' }),
      falhandoDesde: text,
      desativadoEm: text,
      ultimoErro: text,
      mensagem: Type.String(),
    },
    audience: { asker: true, named: true },
    shape: [],
  }),
  teste: declareEvent({
    summary: 'A test delivery asked for with POST /v1/conta/webhook/teste.',
    description: '`POST /v1/conta/webhook/teste`.',
    payload: { mensagem: Type.String(), contaId: Type.String(), numeroCnj: Type.Null(), tribunal: Type.Null() },
    audience: {},
    shape: [],
  }),
};
