/**
 * TJRJ's precatório API (wave2.md §G): `GET {base}/entDev` → `[{IdEntidade, IdEntidadePai,
 * EntidadeDevedora}]`; `GET {base}/ordemPagamento?idEntidadeDevedora=&ordemPagamento=2&pagina=&regimeEntidade=O|E&tamanhoPagina=`
 * → `{Resultado: {Precatorios: [...]}}`. No captcha seen; paced by the process's budget, retried on
 * 5xx/429/timeouts by HttpUpstream. Anything but that shape is `malformed`, never an empty list.
 */
import type { SourceInfo } from '../../platform/ports/sources.ts';
import type { DebtorEntity, TjrjPrecatorioSource } from '../../platform/ports/tjrj.ts';
import { pathOnly } from '../attempt.ts';
import { HttpUpstream, upstreamError, type UpstreamTuning } from '../http-upstream.ts';

export const PUBLIC_TJRJ_PRECATORIOS_URL = 'https://www3.tjrj.jus.br/PortalConhecimento/api/precatorios';

const fail = upstreamError('tjrj_precatorios');
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export class TjrjConnector implements TjrjPrecatorioSource {
  readonly info: SourceInfo;
  readonly #http: HttpUpstream;

  constructor(o: UpstreamTuning & { baseUrl: string; sandbox?: boolean }) {
    this.info = { name: 'TJRJ precatórios', sandbox: o.sandbox ?? false };
    this.#http = new HttpUpstream({ ...o, source: 'tjrj', label: 'TJRJ (precatórios)', error: fail });
  }

  async entities(signal?: AbortSignal): Promise<DebtorEntity[]> {
    const list = await this.#get('/entDev', signal);
    if (!Array.isArray(list)) throw fail('malformed', 'TJRJ /entDev did not answer a list.', { retryable: false });
    return list.filter(isObject).filter((e) => Number.isInteger(Number(e.IdEntidade)) && typeof e.EntidadeDevedora === 'string').map((e) => ({
      id: Number(e.IdEntidade), paiId: e.IdEntidadePai == null || Number(e.IdEntidadePai) === 0 ? null : Number(e.IdEntidadePai), nome: String(e.EntidadeDevedora).trim(),
    }));
  }

  async orderPage(entityId: number, regime: 'O' | 'E', page: number, size: number, signal?: AbortSignal): Promise<Record<string, unknown>[]> {
    const path = `/ordemPagamento?idEntidadeDevedora=${entityId}&ordemPagamento=2&pagina=${page}&regimeEntidade=${regime}&tamanhoPagina=${size}`;
    const json = await this.#get(path, signal);
    const items = isObject(json) && isObject(json.Resultado) ? json.Resultado.Precatorios : undefined;
    // A list without precatórios may come as null: the end of the list, not a failure.
    if (items === null || (isObject(json) && json.Resultado === null)) return [];
    if (!Array.isArray(items)) throw fail('malformed', `TJRJ ${pathOnly(path)} has no Resultado.Precatorios list.`, { retryable: false });
    return items.filter(isObject);
  }

  async close(): Promise<void> {
    await this.#http.close();
  }

  async #get(path: string, signal?: AbortSignal): Promise<unknown> {
    const raw = await this.#http.send('GET', path, { signal });
    if (raw.status !== 200) throw fail(raw.status === 401 || raw.status === 403 ? 'unauthorized' : 'unavailable', `TJRJ answered HTTP ${raw.status} for ${pathOnly(path)}.`, { status: raw.status, retryable: false });
    return this.#http.json(raw, path);
  }
}
