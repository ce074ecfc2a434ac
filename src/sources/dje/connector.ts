/**
 * The electoral gazettes (platform/ports/electoral.ts) through the DJE consultation service of the
 * TSE, which serves the TSE and every TRE (reference/upstream/wave2.md §C). Its routes are not yet
 * confirmed from a capture: they live in ROUTES alone (the shape of the same product at TJSC, with the
 * court as `trib`), so a capture changes one table. A day's index lists its editions; an edition is a
 * PDF whose matérias split.ts reads. Discipline of the other connectors (http/upstream.ts): a budget,
 * timeouts, retries honouring Retry-After; a PDF that is not one (cut, or an HTML error page with a
 * 200) is `malformed`, never an empty edition.
 */
import { formatDateBr } from '../../platform/format.ts';
import type { ElectoralEditionRecord, ElectoralGazetteSource, ElectoralPublicationRecord } from '../../platform/ports/electoral.ts';
import type { SourceInfo } from '../../platform/ports/case-metadata.ts';
import { detailOf, HttpUpstream, upstreamError, type UpstreamTuning } from '../http/upstream.ts';
import { describeBody } from '../http/body.ts';
import { PDF_TIMEOUT_MS, PdfReader, PdfTimeoutError } from './pdf-lines.ts';
import { splitMaterias } from './split.ts';

export const PUBLIC_DJE_URL = 'https://dje-consulta.tse.jus.br';

/** The routes, relative to the host (wave2.md §C: to be confirmed by one browser capture from Brazil). */
export const ROUTES = {
  day: (tribunal: string, day: string) => `/dje-consulta/rest/diario/dia?dia=${formatDateBr(day)}&trib=${encodeURIComponent(tribunal)}`,
  pdf: (tribunal: string, numero: number) => `/dje-consulta/rest/diario/caderno?edicao=${numero}&trib=${encodeURIComponent(tribunal)}`,
};

export interface DjeConnectorOptions extends UpstreamTuning {
  baseUrl: string;
  sandbox?: boolean;
  /** How long one edition's PDF may take to read, in a worker thread (default pdf-lines.ts PDF_TIMEOUT_MS). */
  pdfTimeoutMs?: number;
}

const fail = upstreamError('dje');

const PDF_MAGIC = Buffer.from('%PDF-');
const PDF_END = Buffer.from('%%EOF');

export class DjeConnector implements ElectoralGazetteSource {
  readonly info: SourceInfo;
  readonly #http: HttpUpstream;
  readonly #pdfTimeoutMs: number;
  readonly #pdf = new PdfReader();

  constructor(o: DjeConnectorOptions) {
    this.info = { name: 'DJE eleitoral', sandbox: o.sandbox ?? false };
    this.#pdfTimeoutMs = o.pdfTimeoutMs ?? PDF_TIMEOUT_MS;
    // A 400 or a 404 is a route or a query the gazette does not know: a disagreement, not an outage.
    const classify = { refused: { 400: 'malformed', 404: 'malformed' } } as const;
    this.#http = new HttpUpstream({ ...o, source: 'dje-eleitoral', label: 'DJE eleitoral', error: fail, classify });
  }

  async editions(tribunal: string, day: string, signal?: AbortSignal): Promise<ElectoralEditionRecord[]> {
    const path = ROUTES.day(tribunal, day);
    const raw = this.#http.ok(await this.#http.send('GET', path, { signal }), path);
    const json = this.#http.json(raw, path) as Record<string, unknown> | null;
    // `{"2026-03-10": [{"edicao": 123}]}`; a day without editions may come as `{}` or with an empty list.
    const list = json && typeof json === 'object' ? (json[day] ?? []) : null;
    if (!Array.isArray(list)) throw fail('malformed', `DJE eleitoral's day index is not {"${day}": [...]} ${detailOf(raw)}.`, { retryable: false });
    return list.map((e) => {
      const numero = Number((e as { edicao?: unknown } | null)?.edicao);
      if (!Number.isInteger(numero) || numero <= 0)
        throw fail('malformed', `DJE eleitoral listed an edition without a number (${describeBody(Buffer.from(JSON.stringify(e) ?? ''))}).`, {
          retryable: false,
        });
      return { tribunal, numero, data: day, extra: (e as { extra?: unknown }).extra === true, raw: e };
    });
  }

  async pdf(tribunal: string, numero: number, signal?: AbortSignal): Promise<Buffer> {
    const path = ROUTES.pdf(tribunal, numero);
    const raw = this.#http.ok(await this.#http.send('GET', path, { signal, headers: { accept: 'application/pdf' } }), path);
    // A cut transfer or an error page served with a 200 is no edition.
    if (!raw.body.subarray(0, 5).equals(PDF_MAGIC) || raw.body.lastIndexOf(PDF_END) < raw.body.length - 1024) {
      throw fail('malformed', `DJE eleitoral's edition ${tribunal} ${numero} is not a whole PDF (${describeBody(raw.body)}).`);
    }
    return raw.body;
  }

  async publications(edition: ElectoralEditionRecord, signal?: AbortSignal): Promise<ElectoralPublicationRecord[]> {
    const bytes = await this.pdf(edition.tribunal, edition.numero, signal);
    try {
      return splitMaterias(edition, await this.#pdf.read(new Uint8Array(bytes), this.#pdfTimeoutMs, signal));
    } catch (err) {
      if (signal?.aborted) throw err;
      if (err instanceof PdfTimeoutError) {
        // The same PDF would take as long again: no retry.
        throw fail('timeout', `DJE eleitoral's edition ${edition.tribunal} ${edition.numero} could not be read: ${err.message}.`, { retryable: false });
      }
      throw fail('malformed', `DJE eleitoral's edition ${edition.tribunal} ${edition.numero} could not be read: ${(err as Error).message}`, {
        retryable: false,
      });
    }
  }

  async close(): Promise<void> {
    await this.#pdf.close();
    await this.#http.close();
  }
}
