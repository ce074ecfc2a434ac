/**
 * Intimação monitors and intimações as integrators of the commercial service read them (conventions
 * §4.11, §4.12): the publication monitor and the publication, each with its table of twins
 * (platform/http/integrator-fields.ts), from which both the answer and its schema come.
 */
import { Type } from 'typebox';
import { courtBySigla } from '../../platform/courts/table.ts';
import { derived, integratorShape, same } from '../../platform/http/integrator-fields.ts';
import { Nullable } from '../../platform/http/nullable.ts';
import { monitorView, PublicationMonitor, type PublicationMonitorRow } from '../publication-monitors/parts.ts';
import { Publication, publicationView, type PublicationLinks } from '../publications/parts.ts';

export const OabPair = Type.Object({ estado: Type.String(), numero: Type.String() });

/** `SP123456` → `{estado: 'SP', numero: '123456'}`, the form integrators read (conventions §4.11). */
export function oabPair(canonical: string): { estado: string; numero: string } {
  return { estado: canonical.slice(0, 2), numero: canonical.slice(2) };
}

/**
 * A publication monitor whose status, OAB and term have the shapes integrators read (conventions §4.12):
 * `status` is their ACTIVE/INACTIVE and ours moves to `situacao`; `oab` is a pair; `termo` reads `OAB/SP 123456`.
 */
export const IntimationMonitorShape = integratorShape('monitoramento.intimacoes', PublicationMonitor, {
  status: derived(
    Type.Union([Type.Literal('ACTIVE'), Type.Literal('INACTIVE')], {
      description: 'ACTIVE while checked and renewed; INACTIVE once suspended or removed (`situacao` says which).',
    }),
    (v) => (v.status === 'ATIVO' ? ('ACTIVE' as const) : ('INACTIVE' as const)),
  ),
  situacao: same(
    'status',
    'ATIVO, SUSPENSO (a renewal could not be paid; POST again to reactivate) or REMOVIDO (DELETE; final, stays readable): our `status`.',
  ),
  oab: derived(Type.Object(OabPair.properties, { description: 'The OAB, split: our canonical `SP123456` as `{estado: "SP", numero: "123456"}`.' }), (v) =>
    oabPair(v.oab!),
  ),
  termo: derived(Type.String({ description: 'e.g. `OAB/SP 123456`.' }), (v) => `OAB/${v.oab!.slice(0, 2)} ${v.oab!.slice(2)}`),
  oab_estado: derived(Type.String({ description: "The OAB's UF." }), (v) => v.oab!.slice(0, 2)),
  oab_numero: derived(Type.String({ description: "The OAB's number, digits." }), (v) => v.oab!.slice(2)),
});

export const intimationView = (m: PublicationMonitorRow) => IntimationMonitorShape.present(monitorView(m));

/** A monitor in a creation's answer: whether it will call back, whether it was the account's already (`reused`, free). */
export const CreatedIntimationMonitorShape = integratorShape(
  'monitoramento.intimacoes.criado',
  Type.Object({
    ...IntimationMonitorShape.schema.properties,
    callbackEnabled: Type.Boolean(),
    reused: Type.Boolean({ description: "true: the account's live monitor of this OAB, returned free." }),
  }),
  {
    estado: same('oab_estado'),
    numero: same('oab_numero'),
  },
);

/** The charge of a creation: ours (`cobranca`) and the names integrators read (`billing`). */
export const CreationChargeShape = integratorShape(
  'monitoramento.intimacoes.cobranca',
  Type.Object({
    cobranca: Type.Object({
      oabsCobradas: Type.Array(Type.String(), { description: 'OABs charged by this request (created or reactivated).' }),
      precoPorOab: Type.Number({ description: 'BRL per OAB and 30-day period (`intimacoes.monitor_oab`).' }),
      total: Type.Number({ description: 'BRL charged by this request (= meta.creditsCharged).' }),
    }),
  }),
  {
    billing: derived(
      Type.Object(
        { billableOabs: Type.Integer(), pricePerNewOab: Type.Number(), creditsCharged: Type.Number() },
        { description: 'The same charge in the names integrators read.' },
      ),
      (v) => ({ billableOabs: v.cobranca.oabsCobradas.length, pricePerNewOab: v.cobranca.precoPorOab, creditsCharged: v.cobranca.total }),
    ),
  },
);

const EXCERPT_CHARS = 400;

/** The publication with its text as the court published it, which integrators read and the publication (plain text) has not. */
const OwnIntimation = Type.Object({
  ...Publication.properties,
  conteudoCompletoHtml: Type.String({ description: 'The text as the court published it (HTML or plain text).' }),
});

/**
 * A publication as an intimação (conventions §4.11): the publication's own fields, the monitored OAB
 * it names (when asked for some) and its HTML, plus the integrators' names for them.
 */
export const IntimationShape = integratorShape('intimacao', OwnIntimation, {
  intimacaoId: same('id'),
  oab: derived(
    Type.Union([Type.Null(), OabPair], { description: 'The OAB asked for that the publication names; null when none was asked.' }),
    (v, asked: readonly string[]) => {
      const named = v.advogados.map((a) => a.oab).find((o) => o !== null && asked.includes(o));
      return named ? oabPair(named) : null;
    },
  ),
  diarioId: same('id', 'Same as `id`: GET /v1/intimacoes/publicacoes/{diarioId}.'),
  dataPublicacao: same('dataDisponibilizacao'),
  diario: derived(
    Type.Object(
      { nome: Type.String(), sigla: Type.String(), estado: Nullable(Type.String()) },
      { description: "The gazette: DJEN, under the court's sigla and UF." },
    ),
    (v) => ({
      nome: `Diário de Justiça Eletrônico Nacional (DJEN) — ${v.tribunal}`,
      sigla: v.tribunal,
      estado: courtBySigla(v.tribunal)?.ufs.find((uf) => uf !== 'BR') ?? null,
    }),
  ),
  // `processo.titulo` is the case class as `classe` gives it ({codigo, nome}), which integrators read today.
  processo: derived(
    Type.Object(
      { numeroCnj: Nullable(Type.String({ description: 'Masked.' })), titulo: Publication.properties.classe },
      { description: '`numeroCnjFormatado` and `classe`.' },
    ),
    (v) => ({ numeroCnj: v.numeroCnjFormatado, titulo: v.classe ?? null }),
  ),
  titulo: derived(
    Type.Union([Type.Null(), Type.String()], { description: '`tipoComunicacao` — `tipoDocumento`.' }),
    (v) => [v.tipoComunicacao, v.tipoDocumento].filter(Boolean).join(' — ') || null,
  ),
  conteudo: derived(Type.String({ description: 'An excerpt of the text.' }), (v) =>
    v.texto.length > EXCERPT_CHARS ? `${v.texto.slice(0, EXCERPT_CHARS).replace(/\s+\S*$/, '')}…` : v.texto,
  ),
  pagina: derived(Type.Union([Type.Null(), Type.Integer()], { description: 'Always null: DJEN has no pages.' }), () => null),
  caderno: derived(Type.Union([Type.Null(), Type.String()], { description: 'Always null: DJEN has no cadernos.' }), () => null),
  link: same('link_publicacao_tribunal', "The court's page of the publication: same as `link_publicacao_tribunal`."),
});

/** A publication as an intimação; `asked`: the OABs the request named, the one it names among them is `oab`. */
export function intimationItem(p: Parameters<typeof publicationView>[0], links: PublicationLinks, asked: readonly string[] = []) {
  return IntimationShape.present({ ...publicationView(p, links), conteudoCompletoHtml: p.texto }, asked);
}
