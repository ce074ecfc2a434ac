/** Request and response schemas of the case endpoints (spec §4.2, §4.3); they feed validation and OpenAPI. */
import { Type } from 'typebox';
import { Nullable } from '../../platform/http/nullable.ts';
import { PageQuery } from '../../platform/http/pagination.ts';
import { CNJ_TWINS, DAY_TWINS, derived, integratorShape, same } from '../../platform/http/integrator-fields.ts';
import { brasiliaDateTime } from '../../platform/format.ts';

const CodeName = Type.Object({ codigo: Type.String(), nome: Type.String() });

export const CnjParams = Type.Object(
  {
    cnj: Type.String({ minLength: 1, maxLength: 40, description: 'CNJ number, masked (`NNNNNNN-DD.AAAA.J.TR.OOOO`) or 20 digits.' }),
  },
  { additionalProperties: false },
);

export const DocumentParams = Type.Object(
  {
    cnj: CnjParams.properties.cnj,
    documentId: Type.String({ minLength: 1, maxLength: 200 }),
  },
  { additionalProperties: false },
);

const OwnMovement = Type.Object({
  id: Type.String({ description: 'Stable id of the movement (DataJud gives none: a hash of its fields).' }),
  dataHora: Type.String({ format: 'date-time' }),
  codigo: Type.String({ description: 'TPU movement code.' }),
  nome: Type.String(),
  grau: Type.String(),
  complementos: Type.Array(Type.Object({ codigo: Type.String(), nome: Type.String(), valor: Type.String(), descricao: Type.String() })),
  orgaoJulgador: Nullable(CodeName),
  conteudo: Type.String({ description: 'The movement as text (name and complements): the same string webhooks send in `event_data.conteudo`.' }),
  texto: Nullable(
    Type.String({
      description:
        "The text the court's public consultation page prints under the movement (a decision, a publication); null when no page gave one. A movement only " +
        'the page lists (DataJud has not yet) has an empty `codigo`.',
    }),
  ),
});

/** A movement in the names integrators read and deduplicate on (conventions §4.3): `data` (+ `conteudo`), as webhooks send them. */
export const MovementShape = integratorShape('movimentacao', OwnMovement, {
  ...DAY_TWINS,
  tipo: derived(Type.Literal('ANDAMENTO', { description: 'Always ANDAMENTO: gazette publications are under /v1/intimacoes.' }), () => 'ANDAMENTO' as const),
  classificacao_predita: derived(
    Type.Object(
      { nome: Type.String(), descricao: Type.String(), hierarquia: Type.String({ description: 'The TPU code.' }) },
      { description: '`nome`, `conteudo` and `TPU <codigo>`.' },
    ),
    (v) => ({ nome: v.nome, descricao: v.conteudo, hierarquia: `TPU ${v.codigo}` }),
  ),
});

export const Movement = MovementShape.schema;

const PartyFonte = Nullable(
  Type.String({
    description:
      "The source that gave this party and its lawyers: `DJEN` (the addressees of the case's DJEN communications: no document), a court's consultation " +
      "(`e-SAJ TJSP`, `PJe consulta pública TJMA`) or the case-details provider's name; null on cases enriched before it was kept.",
  }),
);

export const Party = Type.Object({
  polo: Type.String({
    description:
      '`ATIVO`, `PASSIVO` or `OUTROS`; `ADVOGADO` for a lawyer whose side the source does not say (a DJEN communication sent to both poles): ' +
      'the entry is the lawyer, `advogados[0]` its OAB.',
  }),
  tipo: Nullable(Type.String({ description: 'The role as the source printed it (`AUTOR`, `REQUERIDO`…); null where the page printed none.' })),
  nome: Type.String(),
  tipoPessoa: Type.String(),
  documento: Nullable(Type.String()),
  fonte: PartyFonte,
  advogados: Type.Array(
    Type.Object({ nome: Type.String(), oab: Nullable(Type.String()), oabUf: Nullable(Type.String()), oabNumero: Nullable(Type.String()), fonte: PartyFonte }),
  ),
  grau: Type.Optional(
    Type.String({
      description:
        "The instance whose court page listed the party (`G1`, `G2`, `TR`) where the case's parties come from more than one degree's page " +
        "(an appeal's parties read from the 2nd degree's consultation beside the 1st degree's); absent where one source gave them for the whole case.",
    }),
  ),
});

export const ValorCausa = Type.Object(
  {
    valor: Type.String({ description: 'Decimal string, e.g. `50000.00`.' }),
    moeda: Type.String({ description: '`R$`.' }),
    valor_formatado: Type.String({ description: 'e.g. `R$ 50.000,00`.' }),
  },
  { description: 'The case value; null until the case-details provider gave it.' },
);

const OwnEnvolvido = Type.Object({
  nome: Type.String(),
  tipo: Nullable(Type.String({ description: 'The role as the source printed it (`AUTOR`, `REQUERIDO`…); null where the page printed none.' })),
  polo: Type.String({
    description: 'ATIVO, PASSIVO or OUTROS; ADVOGADO for a lawyer whose side the source does not say (DJEN communications sent to both poles).',
  }),
  tipo_pessoa: Type.String(),
  cpf: Nullable(Type.String()),
  cnpj: Nullable(Type.String()),
  documento: Nullable(Type.String()),
  documentos: Type.Array(Type.Object({ numero: Type.String(), tipo: Type.String() })),
  advogados: Type.Array(
    Type.Object({
      nome: Type.String(),
      tipo_pessoa: Type.String(),
      oab: Type.Array(Type.Object({ numero: Type.String(), uf: Type.String() })),
      fonte: PartyFonte,
    }),
  ),
  fonte: PartyFonte,
});

/** A party of the process object (conventions §4.2) with the twins integrators read. */
export const EnvolvidoShape = integratorShape('processo.fontes.envolvidos', OwnEnvolvido, {
  tipo_normalizado: same('tipo'),
  tipoPessoa: same('tipo_pessoa'),
});

const OwnFonte = Type.Object({
  id: Type.String(),
  descricao: Type.String({ description: 'e.g. `TJSP - 2º grau`.' }),
  nome: Type.String({ description: "The court's name." }),
  sigla: Type.String(),
  tipo: Type.Literal('TRIBUNAL'),
  grau: Type.Integer({ description: '1, 2 or 3.' }),
  grau_formatado: Type.String(),
  sistema: Nullable(Type.String()),
  tribunal: Type.Object({
    sigla: Type.String(),
    nome: Type.String(),
    segmento: Nullable(Type.String({ description: 'e.g. `JUSTICA_ESTADUAL`.' })),
    jtr: Nullable(Type.String()),
    estados: Type.Array(Type.String()),
  }),
  capa: Type.Object({
    classe: Nullable(Type.String()),
    assunto: Nullable(Type.String()),
    orgao_julgador: Nullable(Type.String()),
    valor_causa: Nullable(ValorCausa),
    data_distribuicao: Nullable(Type.String({ description: 'yyyy-mm-dd' })),
    data_ajuizamento: Nullable(Type.String()),
    situacao: Type.String({ description: '`Ativo`, `Arquivado` or `Arquivado provisoriamente`, inferred from the TPU code of the last movement.' }),
    ultimo_movimento: Nullable(Type.Object({ data: Type.String(), data_hora: Type.String(), descricao: Type.String(), codigo: Type.Integer() })),
  }),
  envolvidos: Type.Array(EnvolvidoShape.schema),
  quantidade_movimentacoes: Type.Integer(),
  segredo_justica: Type.Boolean(),
  arquivado: Type.Boolean(),
  fonteDados: Type.String({ description: 'Where Tramita read it (DataJud).' }),
  sandbox: Type.Boolean(),
  consultadoEm: Type.String(),
});

/** An instance of the process object (conventions §4.2) with the twins integrators read. */
export const FonteShape = integratorShape('processo.fontes', OwnFonte, {
  processo_fonte_id: same('id'),
});

/** The cover as the court's public consultation page shows it (issue 31): names as printed, no TPU codes. */
const ConsultaPublicaFields = Type.Object(
  {
    fonte: Type.String({ description: 'e.g. `consulta-tjsp`.' }),
    sistema: Type.String({ description: '`esaj`, `pje` or `tjdft`.' }),
    grau: Type.Integer(),
    classe: Nullable(Type.String()),
    assuntos: Type.Array(Type.String()),
    orgao: Nullable(Type.String()),
    foro: Nullable(Type.String()),
    juiz: Nullable(Type.String()),
    distribuidoEm: Nullable(Type.String({ description: 'ISO day, or instant with offset.' })),
    situacao: Nullable(Type.String({ description: "The page's own tag (e-SAJ: `Extinto`, `Em andamento`…)." })),
    segredo: Type.Boolean(),
    incidentes: Type.Array(Type.Object({ numeroCnj: Nullable(Type.String()), classe: Type.String(), data: Nullable(Type.String()) })),
    processoReferencia: Nullable(Type.String({ description: 'The linked case (PJe 2nd degree), 20 digits.' })),
    listas: Type.Optional(
      Type.Object(
        Object.fromEntries(
          ['partes', 'movimentos'].map((k) => [
            k,
            Type.Object({
              listados: Nullable(Type.Integer({ description: 'Rows the court says it lists (its "N resultados encontrados"); null when it prints no count.' })),
              lidos: Type.Integer({ description: 'Rows this page showed and Tramita read.' }),
              limitado: Type.Optional(
                Type.Boolean({
                  description:
                    'True when fewer rows were read than the court says it lists (further pages not requested, ' +
                    'or a page announcing rows it lacks): the list is partial.',
                }),
              ),
            }),
          ]),
        ),
        {
          description:
            'Where the page shows only part of a list (PJe: parties 10 rows at a time, movements 15 at a time; the further pages are not requested): ' +
            'how many the court lists and how many were read. Absent where the page shows whole lists (e-SAJ, TJDFT).',
        },
      ),
    ),
  },
  { description: "What the court's public consultation page showed; null when no consultation answered for this case." },
);

/** The consultation's cover with the appeals' pages read under the same number (issue 52 item 3). */
const ConsultaPublicaWithAppeals = Type.Object(
  {
    ...ConsultaPublicaFields.properties,
    segundoGrau: Type.Optional(
      Type.Array(
        Type.Object({ ...ConsultaPublicaFields.properties, instancia: Type.String({ description: 'The DataJud instance it was read for: `G2` or `TR`.' }) }),
        {
          description:
            "The second degree's pages read under this number (an appeal keeps its origin number), one per appeal the court lists, " +
            'when DataJud lists a G2 or TR instance. On them `orgao` is the órgão julgador, `foro` the seção, `juiz` the relator. ' +
            'Their parties are in `partes` with their `grau`, their movements among the movements with `grau` G2/TR. Absent when no appeal was read.',
        },
      ),
    ),
  },
  { description: "What the court's public consultation page showed; null when no consultation answered for this case." },
);

export const CaseSummary = Type.Object(
  {
    numeroCnj: Type.String(),
    tribunal: Type.String(),
    segmento: Nullable(Type.String()),
    ufs: Type.Array(Type.String()),
    classe: Nullable(CodeName),
    orgaoJulgador: Nullable(Type.Object({ codigo: Type.String(), nome: Type.String(), codigoMunicipioIBGE: Nullable(Type.String()) })),
    grau: Nullable(Type.String()),
    dataAjuizamento: Nullable(Type.String()),
    ultimaAtualizacao: Nullable(Type.String()),
    valor_causa: Nullable(ValorCausa),
  },
  { additionalProperties: true },
);

/** The process object integrators of the commercial service read (conventions §4.2): covers and CPF/CNPJ search results. */
const OwnProcessObject = Type.Object({
  titulo_polo_ativo: Nullable(Type.String()),
  titulo_polo_passivo: Nullable(Type.String()),
  ano_inicio: Nullable(Type.Integer()),
  data_inicio: Nullable(Type.String()),
  data_ultima_movimentacao: Nullable(Type.String()),
  quantidade_movimentacoes: Type.Integer(),
  fontes_tribunais_estao_arquivadas: Type.Boolean(),
  nivel_sigilo: Type.Integer(),
  ativo: Type.Boolean(),
  data_ultima_verificacao: Type.String(),
  valor_causa: Nullable(ValorCausa),
  fontes: Type.Array(FonteShape.schema, { description: 'One per instance, first instance first; `fontes[0].capa.valor_causa` is `valor_causa` (spec §2.3).' }),
});

/**
 * A case as covers and CPF/CNPJ search results give it: our headline fields, the process object, and
 * the twins integrators read (its `numero_cnj`, its camelCase names).
 */
export const CaseShape = integratorShape(
  'processo',
  Type.Object({ ...CaseSummary.properties, ...OwnProcessObject.properties }, { additionalProperties: true }),
  {
    ...CNJ_TWINS,
    poloAtivo: same('titulo_polo_ativo'),
    poloPassivo: same('titulo_polo_passivo'),
    valorCausa: same('valor_causa'),
  },
);

export const Cover = Type.Intersect([
  CaseShape.schema,
  Type.Object({
    numeroCnjDigitos: Type.String(),
    valorCausaCentavos: Nullable(Type.Integer()),
    assuntos: Type.Array(CodeName),
    partes: Nullable(Type.Array(Party)),
    instancias: Type.Array(Type.Object({ grau: Type.String(), quantidadeMovimentacoes: Type.Integer() }, { additionalProperties: true })),
    quantidadeMovimentacoes: Type.Integer(),
    ultimaMovimentacao: Nullable(Movement),
    documentosPublicosDisponiveis: Type.Boolean(),
    enriquecimento: Type.Object({
      status: Type.Union([Type.Literal('CONCLUIDO'), Type.Literal('AGENDADO'), Type.Literal('INDISPONIVEL')], {
        description:
          '`CONCLUIDO` once the case-details sources were asked (a first lookup asks them beside DataJud and answers with their parties); `AGENDADO` ' +
          'while the enrichment job is due: asked with `Prefer: return=minimal`, or their source failed with this answer (`falha`). `INDISPONIVEL` is ' +
          'no longer given (DJEN is always there to ask).',
      }),
      concluidoEm: Nullable(Type.String()),
      fonte: Nullable(
        Type.String({
          description:
            "Which source gave the parties, lawyers and value: `DJEN`, a court's consultation (`e-SAJ TJSP`), or the provider's name; null until enriched " +
            '(or enriched before it was kept).',
        }),
      ),
      falha: Nullable(
        Type.Object(
          {
            code: Type.String({ description: 'The error code the failure would have had as an answer: `SOURCE_UNAVAILABLE`, `SOURCE_TIMEOUT`.' }),
            message: Type.String(),
            source: Nullable(Type.String({ description: 'The source that failed (`consulta-tjsp`, `portal`, `djen`).' })),
            failure: Nullable(Type.String({ description: 'Why: `unavailable`, `timeout`, `captcha`, `anti_bot`, `geoblocked`…' })),
          },
          {
            description:
              'Why the parties, lawyers and value did not come with this answer: their source failed while DataJud answered. The enrichment job asks ' +
              'again in the background (monitors of the case hear `atualizacao_processo_concluida` when they arrive). Null otherwise.',
          },
        ),
      ),
      pendentes: Type.Array(Type.Union([Type.Literal('partes'), Type.Literal('advogados'), Type.Literal('valorCausa')]), {
        description:
          'The parts of the case still to come from the case-details sources while `status` is `AGENDADO` (empty once `CONCLUIDO`): a source that ' +
          'failed, or was still out TRAMITA_AUXILIARY_DEADLINE_MS after DataJud answered (issue 51: `falha.failure` `timeout`), does not hold the answer.',
      }),
    }),
    consultaPublica: Nullable(ConsultaPublicaWithAppeals),
  }),
]);

export const MovementsQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });

export const RefreshBody = Type.Object(
  {
    documentos_publicos: Type.Optional(Type.Boolean({ description: 'Accepted for compatibility: the public documents are refreshed either way.' })),
  },
  { additionalProperties: false },
);

export const Refresh = Type.Object({
  id: Type.String(),
  numeroCnj: Type.String(),
  status: Type.Union([Type.Literal('PENDENTE'), Type.Literal('PROCESSANDO'), Type.Literal('CONCLUIDA'), Type.Literal('ERRO')]),
  solicitadoEm: Type.String(),
  iniciadoEm: Nullable(Type.String()),
  concluidoEm: Nullable(Type.String()),
  novasMovimentacoes: Nullable(Type.Integer()),
  erro: Nullable(Type.Object({ code: Type.String(), message: Nullable(Type.String()) })),
  preco: Type.Number({ description: 'BRL charged once, when the refresh completes.' }),
  statusUrl: Type.String(),
  message: Type.Optional(Type.String({ description: 'What happens next, for a person (on the request only).' })),
});

const OwnPublicDocument = Type.Object({
  id: Type.String(),
  titulo: Type.String(),
  tipo: Type.String(),
  dataJuntada: Type.String(),
  mimeType: Type.String(),
  tamanhoBytes: Type.Integer({ description: "0 where the source does not say (a court's HTML document)." }),
  downloadUrl: Type.String(),
  fonte: Type.String({ description: "Who lists it: the provider's name, or the court's consultation (`consulta-tjma`)." }),
  origem: Type.Union([Type.Literal('provedor'), Type.Literal('visualizador'), Type.Literal('arquivo')], {
    description:
      "`provedor`: the provider's file; `visualizador`: the court's public viewer (HTML, text or PDF); `arquivo`: a file the court stores, as it is.",
  }),
  publico: Type.Boolean({
    description: 'False when the court opens it only behind a login or secrecy: listed, never read (download: 422 DOCUMENT_NOT_PUBLIC).',
  }),
  restricao: Type.Union([Type.Null(), Type.String()], { description: 'Why it is not public, in Portuguese; null when public.' }),
});

const EXTENSIONS: Record<string, string> = { 'application/pdf': 'pdf', 'text/html': 'html', 'text/plain': 'txt', 'image/jpeg': 'jpg', 'image/png': 'png' };

/** A public document in the names integrators read (conventions §4.4). */
export const PublicDocumentShape = integratorShape('documento_publico', OwnPublicDocument, {
  descricao: derived(Type.Union([Type.Null(), Type.String()], { description: 'Always null: courts give a title only.' }), () => null),
  data: derived(Type.String({ description: '`dataJuntada` as `yyyy-mm-dd HH:MM:SS`, Brasília time, no zone.' }), (v) => brasiliaDateTime(v.dataJuntada)),
  extensaoArquivo: derived(
    Type.Union([Type.Null(), Type.String()], { description: 'From `mimeType`, e.g. `pdf`; null when unknown.' }),
    (v) => EXTENSIONS[v.mimeType] ?? null,
  ),
  quantidadePaginas: derived(Type.Union([Type.Null(), Type.Integer()], { description: 'Always null: not counted.' }), () => null),
});

export const PublicDocument = PublicDocumentShape.schema;

export const DocumentsQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });

export const DocumentDownloadQuery = Type.Object(
  {
    formato: Type.Optional(
      Type.Union([Type.Literal('pdf'), Type.Literal('html'), Type.Literal('texto')], {
        description:
          'A court\'s HTML document as `pdf` (default: the court\'s own where its "Gerar PDF" answers one, else rendered by Tramita from the text; ' +
          '`x-documento-pdf` says `tribunal` or `tramita`), `html` (the body as the court wrote it, its signature under it) or `texto`. ' +
          "A provider's or a court's stored file is served as it is.",
      }),
    ),
  },
  { additionalProperties: false },
);
