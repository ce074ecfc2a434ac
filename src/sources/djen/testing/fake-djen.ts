/**
 * Test double of DJEN on 127.0.0.1 (random port): records every request and answers through a
 * handler; plus item and ZIP builders. Test-only code.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { FakeUpstream, type Handler as FakeHandler, type RawRequest } from '../../testing/fake-upstream.ts';
import { readFileSync } from 'node:fs';
import { ZipFile } from 'yazl';
import { cnjCheckDigits } from '../../../platform/identifiers/cnj.ts';

export interface RecordedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
}

export type { Reply } from '../../testing/fake-upstream.ts';
export type Handler = FakeHandler<RecordedRequest>;

export class FakeDjen extends FakeUpstream<RecordedRequest> {
  static async start(handler: Handler): Promise<FakeDjen> {
    return new FakeDjen(handler).listen();
  }

  protected record({ method, url, headers }: RawRequest): RecordedRequest {
    const parsed = new URL(url, 'http://fake');
    return { method, path: parsed.pathname, query: parsed.searchParams, headers };
  }
}

/** The real DJEN answer (reference/upstream/djen-comunicacao-sample.json, copied verbatim: 3 items). */
export function realSample(): { status: string; message: string; count: number; items: Array<Record<string, any>> } {
  return JSON.parse(readFileSync(new URL('../fixtures/djen-comunicacao-sample.json', import.meta.url), 'utf8'));
}

/** A valid CNJ number of the TJRS (8.21). */
export function cnjNumber(sequential: number): string {
  const seq = String(sequential).padStart(7, '0');
  const [year, segment, tribunal, origin] = ['2025', '8', '21', '0090'];
  return `${seq}${cnjCheckDigits(seq, year, segment, tribunal, origin)}${year}${segment}${tribunal}${origin}`;
}

/** A plausible DJEN item: `id`, day `yyyy-mm-dd`, one lawyer with `numero_oab` as given. */
export function fakeItem(id: number, day = '2026-09-18', numeroOab = '57689', extra: Record<string, unknown> = {}): Record<string, unknown> {
  const [y, m, d] = day.split('-');
  return {
    id,
    data_disponibilizacao: day,
    datadisponibilizacao: `${d}/${m}/${y}`,
    siglaTribunal: 'TJRS',
    tipoComunicacao: 'Intimação',
    nomeOrgao: 'Vara Judicial',
    idOrgao: 38529,
    texto: `<p>Comunicação ${id}</p>`,
    numero_processo: cnjNumber(id % 9_999_999),
    meio: 'D',
    link: null,
    tipoDocumento: 'Outros',
    nomeClasse: 'INTERDIçãO',
    codigoClasse: '58',
    numeroComunicacao: id % 100_000,
    ativo: true,
    hash: `hash${id}`,
    status: 'P',
    motivo_cancelamento: null,
    data_cancelamento: null,
    destinatarios: [{ nome: `PARTE ${id}`, polo: 'A', comunicacao_id: id }],
    destinatarioadvogados: [
      { id: id * 10, comunicacao_id: id, advogado_id: 1, advogado: { id: 1, nome: 'ADVOGADO EXEMPLO', numero_oab: numeroOab, uf_oab: 'RS' } },
    ],
    ...extra,
  };
}

/** DJEN's answer to a search; `count` may lie (as DJEN's does, djen.md §4.3). */
export function page(items: unknown[], count = items.length): unknown {
  return { status: 'success', message: 'Consulta realizada com sucesso', count, items };
}

/** Serves `items` (newest first) a page at a time by `pagina`/`itensPorPagina`, with a lying count. */
export function pagedHandler(items: unknown[], count = 10_000): Handler {
  return (req) => {
    const size = Number(req.query.get('itensPorPagina'));
    const pagina = Number(req.query.get('pagina'));
    return { json: page(items.slice((pagina - 1) * size, pagina * size), count) };
  };
}

/** A ZIP of named entries, built in memory. */
export async function zipOf(entries: Array<[name: string, content: string]>): Promise<Buffer> {
  const zip = new ZipFile();
  for (const [name, content] of entries) zip.addBuffer(Buffer.from(content), name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}
