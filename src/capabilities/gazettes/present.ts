/**
 * How the gazettes' publications and editions look in answers: the STF's with the fields of its own
 * API (processo, tipo, relator, órgão julgador, sessão, the divulgação instant in Brasília, the
 * publication day or null, envolvidos as STF lists them with every OAB each names, the lawyers apart),
 * read from the stored item by the connector's own reader (the STF port's `readItem`); the electoral
 * ones with their edition, position and parties as printed; texts as plain text (STF's HTML only when
 * asked). Links: `link_api` is the item in Tramita's API, `link_pdf` the edition's PDF there.
 */
import type { GazetteEditionsTable, PublicationsTable } from '../../platform/db/schema.ts';
import { formatCnj } from '../../platform/identifiers/cnj.ts';
import type { PublicationLawyer } from '../../platform/ports/publications.ts';
import type { StfPublicationRecord } from '../../platform/ports/stf.ts';
import { oabKey, plainText, storedPublication } from '../publications/parts.ts';
import { STF_ID_PREFIX } from './records.ts';

export const STF_PATH = '/v1/stf/publicacoes';
export const DJE_PATH = '/v1/dje-eleitoral';

/** Reads a stored item as the ingest read it: the STF port's `readItem` (the connector's own reader). */
export type StfItemReader = (item: unknown) => StfPublicationRecord;

/** The stored item read again; null for a row it cannot read (an old simulator's). */
function storedItem(raw: string, read: StfItemReader): StfPublicationRecord | null {
  try {
    return read(JSON.parse(raw));
  } catch {
    return null;
  }
}

function lawyerView(nome: string, polo: string | null, oabs: { uf: string; numero: string }[]) {
  return { nome, polo, oab: oabs[0] ? oabKey(oabs[0]) : null, oabs: oabs.map(oabKey) };
}

/** A row whose item cannot be read: its lawyers from the stored columns (one entry per OAB there), one per name. */
function storedLawyers(advogados: readonly PublicationLawyer[]) {
  const byName = new Map<string, { uf: string; numero: string }[]>();
  for (const a of advogados) byName.set(a.nome, [...(byName.get(a.nome) ?? []), ...(a.oab ? [a.oab] : [])]);
  return [...byName].map(([nome, oabs]) => lawyerView(nome, null, oabs));
}

export function stfView(row: PublicationsTable, ctx: { publicUrl: string | undefined; read: StfItemReader }, o: { html?: boolean } = {}) {
  const { publicUrl } = ctx;
  const p = storedPublication(row);
  const item = storedItem(row.raw, ctx.read);
  const id = p.id.slice(STF_ID_PREFIX.length);
  const envolvidos = item?.envolvidos ?? [];
  return {
    id,
    processo: p.numeroComunicacao,
    classe: p.classe?.codigo ?? null,
    tipo: p.tipoComunicacao,
    descricao: p.tipoDocumento,
    relator: item?.relator ?? null,
    orgaoJulgador: item?.colegiado ?? null,
    sessao: item?.sessao ?? null,
    dataDivulgacao: p.dataDisponibilizacao,
    dataHoraDivulgacao: item?.divulgadoEm ?? null,
    dataPublicacao: item?.publicacao ?? null,
    tipoConteudo: item?.tipoConteudo ?? null,
    confidencialidade: item?.confidencialidade ?? null,
    codigo: item?.codigo ?? null,
    envolvidos: envolvidos.map((e) => ({
      nome: e.nome,
      polo: e.polo,
      categoria: e.categoria || null,
      identificacoes: e.identificacoes,
      oabs: e.oabs.map(oabKey),
    })),
    advogados: item ? envolvidos.filter((e) => e.papel === 'advogado').map((e) => lawyerView(e.nome, e.polo, e.oabs)) : storedLawyers(p.advogados),
    texto: plainText(p),
    ...(o.html ? { html: p.texto } : {}),
    fonte: 'STF',
    sandbox: p.sandbox,
    link_processo: p.link,
    link_api: `${publicUrl ?? ''}${STF_PATH}/${encodeURIComponent(id)}`,
    ingeridoEm: p.ingeridoEm,
  };
}

export function editionPath(id: string): string {
  return `${DJE_PATH}/edicoes/${encodeURIComponent(id)}`;
}

export function electoralView(row: PublicationsTable, publicUrl: string | undefined) {
  const p = storedPublication(row);
  const raw = (JSON.parse(row.raw) ?? {}) as { pagina?: unknown; publicacao?: unknown };
  const [tribunal, numero, ordem] = p.id.split(':');
  const edicaoId = `${tribunal}:${numero}`;
  return {
    id: p.id,
    tribunal: p.tribunal,
    edicao: { id: edicaoId, numero: Number(numero), data: p.dataDisponibilizacao, link_pdf: `${publicUrl ?? ''}${editionPath(edicaoId)}/pdf` },
    ordem: Number(ordem),
    pagina: typeof raw.pagina === 'number' ? raw.pagina : null,
    // The matéria's `PUBLICAÇÃO EM :`; the edition's day where it printed none.
    dataPublicacao: typeof raw.publicacao === 'string' ? raw.publicacao : p.dataDisponibilizacao,
    numeroProcesso: p.numeroCnj ? formatCnj(p.numeroCnj) : null,
    numeroCnjDigitos: p.numeroCnj,
    classe: p.classe?.nome ?? null,
    codigoClasse: p.classe?.codigo ?? null,
    partes: p.destinatarios.map((d) => ({ papel: d.polo, nome: d.nome })),
    advogados: p.advogados.map((a) => ({ nome: a.nome, oab: a.oab ? `${a.oab.uf}${a.oab.numero}` : null })),
    texto: p.texto,
    fonte: 'DJE eleitoral',
    sandbox: p.sandbox,
    link_api: `${publicUrl ?? ''}${DJE_PATH}/publicacoes/${encodeURIComponent(p.id)}`,
    ingeridoEm: p.ingeridoEm,
  };
}

export function editionView(e: GazetteEditionsTable, publicUrl: string | undefined) {
  return {
    id: e.id,
    tribunal: e.tribunal,
    numero: e.numero,
    data: e.data,
    extra: e.extra === 1,
    publicacoes: e.publicacoes,
    sandbox: e.sandbox === 1,
    link_pdf: `${publicUrl ?? ''}${editionPath(e.id)}/pdf`,
    ingeridoEm: e.ingerido_em,
  };
}
