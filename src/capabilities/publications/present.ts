/**
 * How a publication looks in every answer and event: the stored record with its text as plain text
 * (DJEN sends HTML, with `<style>` blocks), the CNJ number in both forms, and three links kept apart
 * because integrators mix them up (reference/peers.md): `link_publicacao_tribunal`, the act in the
 * court's own system (opens in a browser, may be null); `certidao`, DJEN's public certificate PDF;
 * `link_api`, this publication in Tramita's API (needs the API key).
 */
import { formatCnj } from '../../platform/identifiers/cnj.ts';
import type { PublicationRecord } from '../../platform/ports/publications.ts';
import { plainText } from './store.ts';

export interface PublicationLinks {
  /** TRAMITA_PUBLIC_URL; without it `link_api` is a path. */
  publicUrl: string | undefined;
  certidaoUrl(hash: string): string;
}

/**
 * A publication in the API: DJEN's under /v1/intimacoes, the STF's and the electoral gazettes' under their own routes (ids `STF:<id>`,
 * `<tribunal>:<edição>:<ordem>`).
 */
export function publicationPath(id: string): string {
  if (id.startsWith('STF:')) return `/v1/stf/publicacoes/${encodeURIComponent(id.slice(4))}`;
  if (/^(TSE|TRE-[A-Z]{2}):/.test(id)) return `/v1/dje-eleitoral/publicacoes/${encodeURIComponent(id)}`;
  return `/v1/intimacoes/publicacoes/${encodeURIComponent(id)}`;
}

/** `p.textoLimpo`: the plain text cleaned at ingest (a stored row's); without it the HTML is converted here. */
export function publicationView(p: Omit<PublicationRecord, 'raw'> & { textoLimpo?: string | null }, links: PublicationLinks) {
  return {
    id: p.id,
    numeroCnj: p.numeroCnj,
    numeroCnjFormatado: p.numeroCnj ? formatCnj(p.numeroCnj) : null,
    tribunal: p.tribunal,
    dataDisponibilizacao: p.dataDisponibilizacao,
    tipoComunicacao: p.tipoComunicacao,
    tipoDocumento: p.tipoDocumento,
    orgao: p.orgao,
    classe: p.classe,
    meio: p.meio,
    numeroComunicacao: p.numeroComunicacao,
    ativo: p.ativo,
    cancelamento: p.cancelamento,
    destinatarios: p.destinatarios.map((d) => ({ nome: d.nome, polo: d.polo === 'A' ? 'ATIVO' : d.polo === 'P' ? 'PASSIVO' : d.polo })),
    advogados: p.advogados.map((a) => ({ nome: a.nome, oab: a.oab ? `${a.oab.uf}${a.oab.numero}` : null })),
    texto: plainText(p),
    link_publicacao_tribunal: p.link,
    certidao: p.hash ? links.certidaoUrl(p.hash) : null,
    link_api: `${links.publicUrl ?? ''}${publicationPath(p.id)}`,
  };
}

export type PublicationView = ReturnType<typeof publicationView>;
