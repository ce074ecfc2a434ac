/** The gazette events (spec §6.4): publications matching a monitor, and the asynchronous OAB search. */
import { Type } from 'typebox';
import { Nullable } from '../http/nullable.ts';
import { Cnj } from './catalog-cases.ts';
import { declareEvent } from './declare.ts';
import { caseIdentity, gazetteMovement } from './integrator-shape.ts';

const text = Nullable(Type.String());

/** The publication as `GET /v1/intimacoes/publicacoes/{id}` shows it (publications/present.ts), with the court's HTML beside its text. */
const Publication = Type.Object(
  {
    id: Type.String(),
    numeroCnj: Nullable(Type.String({ description: '20 digits.' })),
    numeroCnjFormatado: text,
    tribunal: Type.String(),
    dataDisponibilizacao: Type.String({ description: 'yyyy-mm-dd.' }),
    tipoComunicacao: Type.String(),
    tipoDocumento: text,
    texto: Type.String({ description: 'Plain text.' }),
    textoHtml: Type.String({ description: 'The text as the court published it (HTML).' }),
    destinatarios: Type.Array(Type.Object({ nome: Type.String(), polo: Type.String() })),
    advogados: Type.Array(Type.Object({ nome: Type.String(), oab: Nullable(Type.String({ description: 'Canonical: SP123456.' })) })),
    link_publicacao_tribunal: Nullable(Type.String({ description: "The act in the court's own system." })),
    certidao: Nullable(Type.String({ description: "DJEN's public certificate PDF." })),
    link_api: Type.String({ description: 'This publication in its own route (needs the API key).' }),
  },
  { additionalProperties: true },
);

/** Both publication events carry the same data (publications/ingest.ts; a monitor's kind picks the name). */
const publicationNews = {
  numeroCnj: Nullable(Cnj),
  tribunal: Type.String(),
  monitorId: Type.Optional(Type.String({ description: 'A case monitor: its id.' })),
  monitoramento: Type.Object({
    id: Type.String(),
    origem: Type.String({ description: '`PUBLICACOES`, `INTIMACOES` or `PROCESSOS`.' }),
    tipo: Type.String(),
    termo: text,
  }),
  publicacao: Publication,
};

export const publicationEvents = {
  publicacao_judicial_nova: declareEvent({
    summary: "A new gazette publication (DJEN, the STF's DJe or an electoral DJE, as the monitor's fontes allow) matched a publication monitor by term or OAB.",
    description:
      "A new gazette publication matched a publication monitor by term or OAB (`POST /v1/monitoramentos/publicacoes`): from DJEN, the STF's DJe or " +
      "an electoral DJE (TSE, TRE-<UF>), as the monitor's `fontes` allow. `data.publicacao.link_api` points at the publication in its own route; " +
      '`source` is `djen`, `stf` or `dje-eleitoral` (`sandbox:` before it for simulated data).',
    payload: publicationNews,
    audience: { named: true },
    shape: [caseIdentity, gazetteMovement],
  }),
  diario_movimentacao_nova: declareEvent({
    summary: 'A new gazette communication for an intimação monitor (its OAB, in any spelling) or a publication monitor by process number.',
    description:
      'A new gazette communication (DJEN) for an intimação monitor (`POST /v1/intimacoes/oab`: the OAB is named, in any spelling), a publication ' +
      'monitor by process number, or a case monitor (`POST /v1/monitoramentos/processos`: a communication of the case published from the ' +
      "monitor's creation day on, usually days before DataJud lists the movement; `data.monitoramento.origem` is `PROCESSOS`, `data.publicacao` " +
      'has its text and `dataDisponibilizacao`).',
    payload: publicationNews,
    audience: { named: true },
    shape: [caseIdentity, gazetteMovement],
  }),
  resultado_busca_oab_async: declareEvent({
    summary: 'An asynchronous OAB publication search (POST /v1/advogados/oab/monitorar, enviar_callback) ended in SUCESSO or ERRO.',
    description:
      'An asynchronous OAB search (`POST /v1/advogados/oab/monitorar` with `enviar_callback: true`) ended, in `SUCESSO` or `ERRO`; ' +
      '`data.statusPath` reads the result.',
    payload: {
      id: Type.Integer(),
      status: Type.String({ description: '`SUCESSO` or `ERRO`.' }),
      tribunal: Type.String(),
      oab: Type.String(),
      parcial: Type.Boolean(),
      processos: Type.Integer({ description: 'How many cases were found.' }),
      statusPath: Type.String(),
      erro: Nullable(Type.Object({ code: Type.String(), message: text })),
    },
    audience: { asker: true },
    shape: [],
  }),
};
