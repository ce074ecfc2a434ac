/**
 * Protocolo Integrado (gov.br), the public index of federal administrative processes by NUP
 * (reference/upstream/nup.md §3): one GET of the detail page per NUP, read by page.ts. No JSON API
 * exists. A captcha page is a `captcha` failure (Tramita never solves one), never "not found";
 * 5xx, 429 and timeouts are retried by HttpUpstream within the process's request budget.
 */
import type { AdministrativeProcessRecord, AdministrativeSource } from '../../platform/ports/administrative.ts';
import type { SourceInfo } from '../../platform/ports/case-metadata.ts';
import { HttpUpstream, upstreamError, type UpstreamTuning } from '../http/upstream.ts';
import { describeBody } from '../http/body.ts';
import { readDetailPage } from './page.ts';

export const PUBLIC_PROTOCOLO_URL = 'https://protocolointegrado.gov.br/protocolo';

export interface ProtocoloConnectorOptions extends UpstreamTuning {
  baseUrl: string;
  sandbox?: boolean;
}

const fail = upstreamError('protocolo_integrado');

export class ProtocoloConnector implements AdministrativeSource {
  readonly info: SourceInfo;
  readonly #http: HttpUpstream;

  constructor(o: ProtocoloConnectorOptions) {
    this.info = { name: 'Protocolo Integrado', sandbox: o.sandbox ?? false };
    this.#http = new HttpUpstream({ ...o, source: 'protocolo', label: 'Protocolo Integrado', error: fail });
  }

  async lookup(nup: string, signal?: AbortSignal): Promise<AdministrativeProcessRecord | null> {
    const path = `/documento/detalhes_documento.jsf?protocolo=${nup}`;
    const raw = await this.#http.send('GET', path, { signal, headers: { accept: 'text/html' } });
    // An unknown NUP is a page that says so (200); a 404 means the page itself moved: a failure, never "not found".
    const page = readDetailPage(this.#http.page(this.#http.ok(raw, path)), nup);
    if (page.kind === 'found') return page.process;
    if (page.kind === 'not_found') return null;
    if (page.kind === 'captcha')
      throw fail(
        'captcha',
        'Protocolo Integrado answered a captcha page instead of the process; Tramita never solves captchas. Nothing was charged: try again later.',
        { retryable: false },
      );
    throw fail('malformed', `Protocolo Integrado's detail page could not be read: ${page.why} (${describeBody(raw.body)}).`, { retryable: false });
  }

  async close(): Promise<void> {
    await this.#http.close();
  }
}
