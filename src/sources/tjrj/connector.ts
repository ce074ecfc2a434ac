/**
 * TJRJ's precatório API (wave2.md §G): `GET {base}/entDev` → `[{IdEntidade, IdEntidadePai,
 * EntidadeDevedora}]`; `GET {base}/ordemPagamento?idEntidadeDevedora=&ordemPagamento=2&pagina=&regimeEntidade=O|E&tamanhoPagina=`
 * → `{Resultado: {Total, Precatorios: [...]}}`, each item read by its keys (OrdemPagamento `2º`,
 * EntidadeDevedora, NumeroPrecatorio, SituacaoTratada, Natureza, DataProtocolo, Orcamento,
 * ValorHistoricoFormatado and SaldoFormatado `R$ …` or null once paid: the court's own application
 * code, issue 30). No captcha seen; paced by the process's budget, retried on 5xx/429/timeouts by
 * HttpUpstream. Anything but that shape is `malformed`, never an empty list.
 */
import type { SourceInfo } from '../../platform/ports/case-metadata.ts';
import type { DebtorEntity, TjrjOrderPage, TjrjPrecatorio, TjrjPrecatorioSource } from '../../platform/ports/tjrj.ts';
import { pathOnly } from '../http/attempt.ts';
import { HttpUpstream, upstreamError, type UpstreamTuning } from '../http/upstream.ts';

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
    return list
      .filter(isObject)
      .filter((e) => Number.isInteger(Number(e.IdEntidade)) && typeof e.EntidadeDevedora === 'string')
      .map((e) => ({
        id: Number(e.IdEntidade),
        paiId: e.IdEntidadePai == null || Number(e.IdEntidadePai) === 0 ? null : Number(e.IdEntidadePai),
        nome: String(e.EntidadeDevedora).trim(),
      }));
  }

  async orderPage(entityId: number, regime: 'O' | 'E', page: number, size: number, signal?: AbortSignal): Promise<TjrjOrderPage> {
    const path = `/ordemPagamento?idEntidadeDevedora=${entityId}&ordemPagamento=2&pagina=${page}&regimeEntidade=${regime}&tamanhoPagina=${size}`;
    const json = await this.#get(path, signal);
    const result = isObject(json) ? json.Resultado : undefined;
    // A list without precatórios may come as null: the end of the list, not a failure.
    if (result === null || (isObject(result) && result.Precatorios === null)) return { total: 0, precatorios: [], unread: [] };
    if (!isObject(result) || !Array.isArray(result.Precatorios))
      throw fail('malformed', `TJRJ ${pathOnly(path)} has no Resultado.Precatorios list.`, { retryable: false });
    const out: TjrjOrderPage = { total: typeof result.Total === 'number' ? result.Total : null, precatorios: [], unread: [] };
    for (const item of result.Precatorios) {
      const read = isObject(item) ? precatorioOf(item) : 'an item that is not an object';
      if (typeof read === 'string') out.unread.push(read);
      else out.precatorios.push(read);
    }
    return out;
  }

  async close(): Promise<void> {
    await this.#http.close();
  }

  async #get(path: string, signal?: AbortSignal): Promise<unknown> {
    const raw = await this.#http.send('GET', path, { signal });
    return this.#http.json(this.#http.ok(raw, path), path);
  }
}

/** A key's text: a string as sent (trimmed, empty as null), null when absent or null; `undefined` when of another type. */
function textOf(item: Record<string, unknown>, key: string): string | null | undefined {
  const v = item[key];
  if (v === null || v === undefined) return null;
  return typeof v === 'string' ? v.trim() || null : undefined;
}

/** The item by its keys, or why it does not read. */
function precatorioOf(item: Record<string, unknown>): TjrjPrecatorio | string {
  const keys = [
    'OrdemPagamento',
    'EntidadeDevedora',
    'NumeroPrecatorio',
    'SituacaoTratada',
    'Natureza',
    'DataProtocolo',
    'ValorHistoricoFormatado',
    'SaldoFormatado',
  ] as const;
  const t = {} as Record<(typeof keys)[number], string | null>;
  for (const k of keys) {
    const v = textOf(item, k);
    if (v === undefined) return `${k} is not text`;
    t[k] = v;
  }
  if (!t.NumeroPrecatorio) return 'no NumeroPrecatorio';
  // A year; its JSON type is not on record, so digits in a string are read too.
  const orcamento = typeof item.Orcamento === 'string' && /^\d{4}$/.test(item.Orcamento.trim()) ? Number(item.Orcamento) : item.Orcamento;
  if (orcamento != null && !Number.isInteger(orcamento)) return 'Orcamento is not a year';
  return {
    ordemPagamento: t.OrdemPagamento,
    entidadeDevedora: t.EntidadeDevedora,
    numeroPrecatorio: t.NumeroPrecatorio,
    situacao: t.SituacaoTratada,
    natureza: t.Natureza,
    dataProtocolo: t.DataProtocolo,
    orcamento: (orcamento as number | null | undefined) ?? null,
    valorHistorico: t.ValorHistoricoFormatado,
    saldo: t.SaldoFormatado,
  };
}
