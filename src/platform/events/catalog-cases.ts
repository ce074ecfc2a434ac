/** The case events (spec §6.4): news of a case, a case monitor's checks, a refresh, a summary. */
import { Type } from 'typebox';
import { Nullable } from '../http/nullable.ts';
import { declareEvent } from './declare.ts';
import { caseIdentity, newestMovement } from './integrator-shape.ts';

/** The emitter gives the 20 digits; integrators receive it masked, the digits in `numeroCnjDigitos` (caseIdentity). */
export const Cnj = Type.String({ pattern: '^\\d{20}$', description: 'The CNJ number, masked (0001234-56.2024.8.26.0100); its digits in `numeroCnjDigitos`.' });
export const Court = Nullable(Type.String({ description: "The court's sigla (TJSP)." }));
const Instant = Type.String({ description: 'ISO 8601 UTC.' });

/** A movement as `GET …/movimentacoes` shows it (processes/movements.ts publicMovement). */
const Movement = Type.Object(
  {
    id: Type.String(),
    dataHora: Type.String(),
    data: Type.String({ description: 'dd/mm/aaaa in Brasília.' }),
    conteudo: Type.String({ description: 'The movement as text.' }),
  },
  { additionalProperties: true, description: 'As `GET /v1/processos/cnj/{cnj}/movimentacoes` lists it.' },
);

/** A radar result (radars/check.ts): the radar, its result and the parties that matched. */
const radarResult = {
  numeroCnj: Cnj,
  tribunal: Court,
  classe: Nullable(Type.String()),
  dataAjuizamento: Nullable(Type.String()),
  radarId: Type.String(),
  resultadoId: Type.String({ description: 'The result in `GET /v1/monitoramentos/novos-processos/{id}/resultados`.' }),
  termo: Nullable(Type.String({ description: "The radar's term." })),
  correspondencias: Type.Array(
    Type.Object({ nome: Type.String(), documento: Nullable(Type.String({ description: 'Masked.' })), polo: Type.String(), tipo: Type.String() }),
    { description: 'The parties whose document or name matched.' },
  ),
};

/** A case monitor's check (monitors/check.ts). */
const check = { numeroCnj: Cnj, tribunal: Court, monitorId: Type.String(), verificadoEm: Instant };

export const caseEvents = {
  novo_processo: declareEvent({
    summary: 'A case became known: stored for the first time, or found by a radar searching by name.',
    description: 'A radar by name found a new case whose parties match the name (the radar fields are present then).',
    payload: {
      numeroCnj: Cnj,
      tribunal: Court,
      classe: Nullable(
        Type.Union([Type.Object({ codigo: Type.String(), nome: Type.String() }), Type.String()], {
          description: 'A case stored for the first time: `{codigo, nome}`; a radar result: the class name.',
        }),
      ),
      dataAjuizamento: Nullable(Type.String()),
      radarId: Type.Optional(radarResult.radarId),
      resultadoId: Type.Optional(radarResult.resultadoId),
      termo: Type.Optional(radarResult.termo),
      correspondencias: Type.Optional(radarResult.correspondencias),
    },
    audience: { named: true },
    shape: [caseIdentity],
  }),
  novo_processo_envolvido: declareEvent({
    summary: 'A radar searching by CPF or CNPJ found a new case naming that party.',
    payload: radarResult,
    audience: { named: true },
    shape: [caseIdentity],
  }),
  nova_movimentacao: declareEvent({
    summary: "New movements of a monitored case (whoever's query or check brought them).",
    description:
      "New movements of a case you monitor, whoever's query, refresh or check brought them, from DataJud or from the court's own page (`source` " +
      'names which: `datajud`, `consulta-tjsp`, …; a page movement has its `texto` and an empty `codigo`). Each movement is announced once: ' +
      "DataJud's later copy of a movement the page showed first is not announced again. `data.movimentacoes` lists them. Sent as soon as " +
      "DataJud's movements are stored, even when the parties' sources (DJEN, the court's consultation) failed beside them: those are retried on " +
      'their own and never hold the news back.',
    payload: { numeroCnj: Cnj, tribunal: Court, movimentacoes: Type.Array(Movement, { description: 'The new movements, newest first.' }) },
    audience: { subscribers: true },
    shape: [caseIdentity, newestMovement],
  }),
  processo_encontrado: declareEvent({
    summary: 'The first check of a case monitor found the case at the source (or found it again after not finding it).',
    payload: check,
    audience: { named: true },
    shape: [caseIdentity],
  }),
  processo_nao_encontrado: declareEvent({
    summary: "A case monitor's check did not find the case at the source (sent once per transition).",
    payload: check,
    audience: { named: true },
    shape: [caseIdentity],
  }),
  processo_verificado: declareEvent({
    summary: 'A case monitor completed a check; `data.novasMovimentacoes` says whether anything changed.',
    payload: { ...check, novasMovimentacoes: Type.Integer(), situacao: Type.String({ description: '`ENCONTRADO` or `NAO_ENCONTRADO`.' }) },
    audience: { named: true },
    shape: [caseIdentity],
  }),
  atualizacao_processo_concluida: declareEvent({
    summary:
      'A refresh the account asked for (POST solicitar-atualizacao) completed, or a monitor check updated the case, or the parties of a monitored case ' +
      'arrived after its first answer (`data.motivo: PARTES`), or a refresh found new public documents of a monitored case (`data.motivo: DOCUMENTOS`).',
    description:
      'A refresh you asked for (`POST …/solicitar-atualizacao`) completed (`atualizacaoId`), or a monitor check stored new movements (`monitorId`), ' +
      'or the parties of a case you monitor arrived after its first answer (`data.motivo: "PARTES"`, see below), or new public documents of a case ' +
      'you monitor were listed (`data.motivo: "DOCUMENTOS"`, see below).',
    payload: {
      numeroCnj: Nullable(Cnj),
      tribunal: Court,
      novasMovimentacoes: Type.Optional(Type.Integer()),
      atualizacaoId: Type.Optional(Type.String({ description: 'The refresh that completed.' })),
      monitorId: Type.Optional(Type.String({ description: 'The monitor whose check stored new movements.' })),
      verificadoEm: Type.Optional(Instant),
      motivo: Type.Optional(Type.Union([Type.Literal('PARTES'), Type.Literal('DOCUMENTOS')])),
      partes: Type.Optional(Type.Integer({ description: 'PARTES: how many parties arrived.' })),
      fonte: Type.Optional(Nullable(Type.String({ description: 'PARTES: who gave them (`DJEN`, `e-SAJ TJSP`, the provider).' }))),
      documentos: Type.Optional(
        Type.Array(
          Type.Object({
            id: Type.String(),
            titulo: Nullable(Type.String()),
            tipo: Nullable(Type.String()),
            dataJuntada: Nullable(Type.String()),
            fonte: Type.String(),
            origem: Type.String({ description: '`visualizador`, `arquivo` or `provedor`.' }),
            publico: Type.Boolean(),
          }),
          { description: 'DOCUMENTOS: the new public documents.' },
        ),
      ),
      concluidaEm: Type.Optional(Instant),
    },
    audience: { asker: true, named: true },
    shape: [caseIdentity],
    legacy: 'atualizacao_concluida',
  }),
  resumo_ia_concluido: declareEvent({
    summary: 'An AI summary requested with POST …/resumo-ia/solicitar-atualizacao and `enviar_callback` ended in FINALIZADO or ERRO.',
    description:
      'An AI summary asked for with `POST /v1/processos/cnj/{cnj}/resumo-ia/solicitar-atualizacao` and `enviar_callback: true` (or `send_callback`) ' +
      'ended, in `FINALIZADO` or `ERRO`; `resumoPath` reads the text.',
    payload: {
      providerRequestId: Type.String(),
      numeroCnj: Cnj,
      tribunal: Court,
      status: Type.String({ description: '`FINALIZADO` or `ERRO`.' }),
      metodo: Nullable(Type.String({ description: '`modelo` or `extrativo-v1`.' })),
      modelo: Nullable(Type.String()),
      concluidoEm: Nullable(Instant),
      erro: Nullable(Type.Object({ codigo: Type.String(), mensagem: Nullable(Type.String()) })),
      resumoPath: Type.String(),
      statusPath: Type.String(),
    },
    audience: { asker: true },
    shape: [caseIdentity],
  }),
};
