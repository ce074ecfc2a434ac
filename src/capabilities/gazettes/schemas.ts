/** Schemas of the gazettes' answers and queries (spec §4.6); they feed validation and OpenAPI. */
import { Type } from 'typebox';
import { Nullable } from '../../platform/http/nullable.ts';

export const PeriodQuery = {
  data_inicio: Type.Optional(Type.String({ minLength: 1, maxLength: 20, description: 'First day, YYYY-MM-DD (400 INVALID_DATE otherwise).' })),
  data_fim: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 20,
      description: 'Last day, YYYY-MM-DD; at most 62 days after `data_inicio` (422 PERIOD_TOO_LONG), not before it (422 PERIOD_INVERTED). Default: today.',
    }),
  ),
};

export const PeriodSchema = Type.Object(
  { inicio: Type.String({ description: 'yyyy-mm-dd' }), fim: Type.String({ description: 'yyyy-mm-dd' }) },
  { description: 'The period searched, as applied.' },
);

const Lawyer = Type.Object({ nome: Type.String(), oab: Nullable(Type.String({ description: 'Canonical OAB, e.g. SP123456.' })) });

const Oabs = Type.Array(Type.String(), {
  description: 'Every registration the STF lists, canonical (`DF31442`, `GO76005A`: a letter is part of the registration).',
});

export const StfPublication = Type.Object({
  id: Type.String({ description: "STF's own id: GET /v1/stf/publicacoes/{id}." }),
  processo: Nullable(Type.String({ description: 'Class and number as the STF writes them, e.g. `Pet 16560`.' })),
  classe: Nullable(Type.String()),
  tipo: Type.String({ description: '`Decisão Final`, `Despacho`, `Acórdãos Acórdãos 2ª Turma`… as the STF names it.' }),
  descricao: Nullable(Type.String()),
  relator: Nullable(Type.String()),
  orgaoJulgador: Nullable(Type.String({ description: 'Turma or Plenário of an acórdão; null for a monocratic act.' })),
  sessao: Nullable(Type.String()),
  dataDivulgacao: Type.String({ description: 'yyyy-mm-dd: the divulgação day (Brasília); searches and periods go by it.' }),
  dataHoraDivulgacao: Nullable(Type.String({ description: 'The divulgação instant, Brasília time: `2026-08-13T20:32:00.645-03:00`.' })),
  dataPublicacao: Nullable(
    Type.String({
      description: 'yyyy-mm-dd: the day of the edition that published it (usually the next business day); null while divulged but not yet published.',
    }),
  ),
  tipoConteudo: Nullable(Type.String({ description: 'e.g. `Publicação Monocrática`.' })),
  confidencialidade: Nullable(Type.String({ description: '`Público`, `Segredo de Justiça`, `Sigiloso`, as the STF marks it.' })),
  codigo: Nullable(Type.String({ description: "The STF's own key of the act, e.g. `decisoes-monocraticas:601509`." })),
  envolvidos: Type.Array(
    Type.Object({
      nome: Type.String(),
      polo: Nullable(Type.String({ description: '`ATIVO`, `PASSIVO` or `INTERESSADO`.' })),
      categoria: Nullable(Type.String({ description: '`REQUERENTE(S)`, `ADVOGADO(A/S)`…' })),
      identificacoes: Type.Array(Type.String(), { description: "As printed: `OAB 27882/PA`, `OAB's (31442/DF, 518968/SP)`." }),
      oabs: Oabs,
    }),
    { description: 'As the STF lists them, in its order (`Sem Representação nos Autos` included: the STF files it as ADVOGADO(A/S) for a side without one).' },
  ),
  advogados: Type.Array(
    Type.Object({
      nome: Type.String(),
      polo: Nullable(Type.String()),
      oab: Nullable(Type.String({ description: 'The first registration listed.' })),
      oabs: Oabs,
    }),
    {
      description:
        'The lawyers among `envolvidos` (not the `Sem Representação nos Autos` placeholder), each with every OAB; a search or ' +
        'monitor by any of them finds the publication.',
    },
  ),
  texto: Type.String({ description: 'Plain text.' }),
  html: Type.Optional(Type.String({ description: 'Only with `incluir_html=true`: the publication as the STF wrote it.' })),
  fonte: Type.Literal('STF'),
  sandbox: Type.Boolean({ description: 'true when it came from the sandbox simulator (fictitious).' }),
  link_processo: Nullable(Type.String({ description: 'The case at portal.stf.jus.br.' })),
  link_api: Type.String(),
  ingeridoEm: Type.String(),
});

export const ElectoralPublication = Type.Object({
  id: Type.String({ description: '`<tribunal>:<edição>:<ordem>`: GET /v1/dje-eleitoral/publicacoes/{id}.' }),
  tribunal: Type.String(),
  edicao: Type.Object({ id: Type.String(), numero: Type.Integer(), data: Type.String(), link_pdf: Type.String() }),
  ordem: Type.Integer({ description: 'Position of the matéria in its edition.' }),
  pagina: Nullable(Type.Integer({ description: 'PDF page where it starts.' })),
  dataPublicacao: Type.String({
    description: "yyyy-mm-dd: the matéria's `PUBLICAÇÃO EM` (usually the business day after the edition's); the edition's day where it prints none.",
  }),
  numeroProcesso: Nullable(Type.String({ description: 'Masked CNJ number.' })),
  numeroCnjDigitos: Nullable(Type.String()),
  classe: Nullable(Type.String()),
  codigoClasse: Nullable(Type.String()),
  partes: Type.Array(Type.Object({ papel: Type.String({ description: 'INTERESSADO(A), RECORRIDO… as printed.' }), nome: Type.String() })),
  advogados: Type.Array(Lawyer),
  texto: Type.String({ description: 'The matéria as extracted from the PDF (lines kept).' }),
  fonte: Type.Literal('DJE eleitoral'),
  sandbox: Type.Boolean(),
  link_api: Type.String(),
  ingeridoEm: Type.String(),
});

export const Edition = Type.Object({
  id: Type.String({ description: '`<tribunal>:<número>`: GET /v1/dje-eleitoral/edicoes/{id}/pdf.' }),
  tribunal: Type.String(),
  numero: Type.Integer(),
  data: Type.String({ description: 'yyyy-mm-dd' }),
  extra: Type.Boolean({ description: 'An extra edition of the day.' }),
  publicacoes: Type.Integer({ description: 'Matérias Tramita read from it.' }),
  sandbox: Type.Boolean(),
  link_pdf: Type.String(),
  ingeridoEm: Type.String(),
});
