/**
 * How the gazettes' publications and editions look in answers: the STF's with the fields of its own
 * API (processo, tipo, relator, órgão julgador, sessão, envolvidos as STF lists them), the electoral
 * ones with their edition, position and parties as printed; texts as plain text (STF's HTML only when
 * asked). Links: `link_api` is the item in Tramita's API, `link_pdf` the edition's PDF there.
 */
import type { GazetteEditionsTable, PublicationsTable } from '../../platform/db/schema.ts';
import { isoDayOfBr } from '../../platform/format.ts';
import { formatCnj } from '../../platform/identifiers/cnj.ts';
import { htmlToText } from '../../platform/text.ts';
import { storedPublication } from '../publications/store.ts';
import { STF_ID_PREFIX } from './records.ts';

export const STF_PATH = '/v1/stf/publicacoes';
export const DJE_PATH = '/v1/dje-eleitoral';

interface StfItem {
  relator?: unknown;
  colegiado?: unknown;
  sessao?: unknown;
  publicacao?: unknown;
  processoId?: unknown;
  envolvidos?: { nome?: unknown; polo?: unknown; categoria?: unknown; identificacoes?: unknown }[];
}

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null);

export function stfView(row: PublicationsTable, publicUrl: string | undefined, o: { html?: boolean } = {}) {
  const p = storedPublication(row);
  const item = (JSON.parse(row.raw) ?? {}) as StfItem;
  const id = p.id.slice(STF_ID_PREFIX.length);
  return {
    id,
    processo: p.numeroComunicacao,
    classe: p.classe?.codigo ?? null,
    tipo: p.tipoComunicacao,
    descricao: p.tipoDocumento,
    relator: text(item.relator),
    orgaoJulgador: text(item.colegiado),
    sessao: text(item.sessao),
    dataDivulgacao: p.dataDisponibilizacao,
    dataPublicacao: isoDayOfBr(item.publicacao),
    envolvidos: (Array.isArray(item.envolvidos) ? item.envolvidos : []).map((e) => ({
      nome: String(e.nome ?? ''), polo: text(e.polo), categoria: text(e.categoria),
      identificacoes: Array.isArray(e.identificacoes) ? e.identificacoes.map(String) : [],
    })),
    advogados: p.advogados.map((a) => ({ nome: a.nome, oab: a.oab ? `${a.oab.uf}${a.oab.numero}` : null })),
    texto: htmlToText(p.texto),
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
  const raw = (JSON.parse(row.raw) ?? {}) as { pagina?: unknown };
  const [tribunal, numero, ordem] = p.id.split(':');
  const edicaoId = `${tribunal}:${numero}`;
  return {
    id: p.id,
    tribunal: p.tribunal,
    edicao: { id: edicaoId, numero: Number(numero), data: p.dataDisponibilizacao, link_pdf: `${publicUrl ?? ''}${editionPath(edicaoId)}/pdf` },
    ordem: Number(ordem),
    pagina: typeof raw.pagina === 'number' ? raw.pagina : null,
    dataPublicacao: p.dataDisponibilizacao,
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
    id: e.id, tribunal: e.tribunal, numero: e.numero, data: e.data, extra: e.extra === 1, publicacoes: e.publicacoes,
    sandbox: e.sandbox === 1, link_pdf: `${publicUrl ?? ''}${editionPath(e.id)}/pdf`, ingeridoEm: e.ingerido_em,
  };
}
