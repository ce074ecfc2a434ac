/**
 * The electoral bulletin board through a provider the operator configures (TRAMITA_MURAL_PROVIDER_URL),
 * speaking the protocol of docs/providers.md: the board's own search demands a human's reCAPTCHA
 * token, which Tramita never solves, bypasses or forges (DESIGN.md §8). The provider's bearer token
 * (TRAMITA_MURAL_PROVIDER_TOKEN) is sent as `Authorization` and never logged.
 */
import { isValidCnj } from '../../platform/identifiers/cnj.ts';
import type { MuralDocument, MuralDocumentKind, MuralPage, MuralPublicationRecord, MuralQuery, MuralSource } from '../../platform/ports/mural.ts';
import type { SourceInfo } from '../../platform/ports/case-metadata.ts';
import { header } from '../http/attempt.ts';
import { detailOf, HttpUpstream, upstreamError, type UpstreamTuning } from '../http/upstream.ts';
import { describeBody } from '../http/body.ts';

export interface MuralConnectorOptions extends UpstreamTuning {
  /** The provider's base URL, e.g. https://provedor.example/mural. */
  baseUrl: string;
  token?: string;
  sandbox?: boolean;
}

const fail = upstreamError('mural');

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

function toRecord(item: unknown): MuralPublicationRecord {
  const r = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
  const id = str(r.id);
  const tribunal = str(r.tribunal);
  const publicadoEm = str(r.publicadoEm);
  if (!id || !tribunal || !publicadoEm || Number.isNaN(Date.parse(publicadoEm)))
    throw fail(
      'malformed',
      `The mural provider answered an item without id, tribunal or publicadoEm (${describeBody(Buffer.from(JSON.stringify(item) ?? ''))}).`,
      { retryable: false },
    );
  const numero = str(r.numeroProcesso);
  return {
    id,
    tribunal,
    numero: str(r.numero),
    publicadoEm: new Date(publicadoEm).toISOString(),
    tipoDocumento: str(r.tipoDocumento),
    numeroCnj: numero && isValidCnj(numero) ? numero.replace(/\D/g, '') : null,
    texto: String(r.texto ?? ''),
    partes: (Array.isArray(r.partes) ? r.partes : []).map((p: { nome?: unknown; advogados?: unknown }) => ({
      nome: String(p?.nome ?? ''),
      advogados: (Array.isArray(p?.advogados) ? p.advogados : []).map((a: { nome?: unknown; oab?: unknown }) => ({
        nome: String(a?.nome ?? ''),
        oab: str(a?.oab),
      })),
    })),
    raw: item,
  };
}

export class MuralConnector implements MuralSource {
  readonly info: SourceInfo;
  readonly #http: HttpUpstream;
  readonly #auth: Record<string, string>;

  constructor(o: MuralConnectorOptions) {
    this.info = { name: 'Mural eleitoral', sandbox: o.sandbox ?? false };
    this.#auth = o.token ? { authorization: `Bearer ${o.token}` } : {};
    this.#http = new HttpUpstream({ ...o, source: 'mural', label: 'The mural provider', error: fail, classify: { refused: { 400: 'malformed' } } });
  }

  async search(q: MuralQuery, signal?: AbortSignal): Promise<MuralPage> {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries({
      parte: q.parte,
      advogado: q.advogado,
      oab: q.oab,
      tribunal: q.tribunal,
      de: q.de,
      ate: q.ate,
      pagina: String(q.pagina),
    }))
      if (v) params.set(k, v);
    const path = `/publicacoes?${params}`;
    const raw = this.#http.ok(await this.#http.send('GET', path, { signal, headers: this.#auth }), path);
    const json = this.#http.json(raw, path) as { publicacoes?: unknown; proximaPagina?: unknown; total?: unknown } | null;
    if (!json || !Array.isArray(json.publicacoes))
      throw fail('malformed', `The mural provider answered without publicacoes ${detailOf(raw)}.`, { retryable: false });
    return { items: json.publicacoes.map(toRecord), proxima: json.proximaPagina === true, total: typeof json.total === 'number' ? json.total : null };
  }

  async document(id: string, kind: MuralDocumentKind, signal?: AbortSignal): Promise<MuralDocument | null> {
    const path = `/publicacoes/${encodeURIComponent(id)}/${kind}`;
    const raw = await this.#http.send('GET', path, { signal, headers: { ...this.#auth, accept: 'application/pdf, */*' } });
    if (raw.status === 404) return null;
    this.#http.ok(raw, path);
    const disposition = header(raw, 'content-disposition');
    return {
      contentType: header(raw, 'content-type') ?? 'application/octet-stream',
      fileName: disposition ? (/filename="?([^";]+)"?/.exec(disposition)?.[1] ?? null) : null,
      body: raw.body,
    };
  }

  async close(): Promise<void> {
    await this.#http.close();
  }
}
