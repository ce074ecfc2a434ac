/**
 * Warrants through a provider (platform/ports/warrants.ts), in one of two documented shapes:
 * - `tramita`: our protocol (docs/providers.md): `GET {base}/mandados?cpf=<11>` or `?numero_peca=<28>`
 *   → 200 `{"mandados": [...]}`, `[]` being a definitive "nothing";
 * - `predictus`: a commercial provider's (wave2.md §E.4): `POST {base}/mandados/prisao/buscarPorCPF`
 *   `{"cpf"}` → 200 array, **204 none**, 400 invalid CPF, 401, 503 source unavailable. By CPF only.
 * Anything but a definitive answer throws (never "nothing found"). The provider's token is sent as
 * `Authorization: Bearer` and never logged; the CPF travels in the query or body, never in messages.
 */
import { isoDayOfBr } from '../../platform/format.ts';
import { isValidCnj } from '../../platform/identifiers/cnj.ts';
import type { SourceInfo } from '../../platform/ports/case-metadata.ts';
import type { WarrantQuery, WarrantRecord, WarrantsSource } from '../../platform/ports/warrants.ts';
import { pathOnly } from '../http/attempt.ts';
import { HttpUpstream, upstreamError, type UpstreamResponse, type UpstreamTuning } from '../http/upstream.ts';
import { describeBody } from '../http/body.ts';

export const WARRANT_PROTOCOLS = ['tramita', 'predictus'] as const;
export type WarrantProtocol = (typeof WARRANT_PROTOCOLS)[number];

export interface WarrantsConnectorOptions extends UpstreamTuning {
  baseUrl: string;
  protocol: WarrantProtocol;
  token?: string;
  sandbox?: boolean;
}

const fail = upstreamError('mandados');

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : typeof v === 'number' ? String(v) : null);

/** "10/03/2026", "2026-03-10" or an ISO instant → yyyy-mm-dd; null otherwise. */
function dayOf(v: unknown): string | null {
  const s = str(v);
  if (!s) return null;
  return isoDayOfBr(s) ?? (/^\d{4}-\d{2}-\d{2}/.test(s) ? s.slice(0, 10) : null);
}

function digitsIf(v: unknown, length: number): string | null {
  const d = str(v)?.replace(/\D/g, '') ?? '';
  return d.length === length ? d : null;
}

/** One warrant, from either shape (the field names of BNMP's DTOs and of the provider's). */
function toRecord(item: unknown): WarrantRecord {
  if (typeof item !== 'object' || item === null) throw fail('malformed', 'The warrants provider answered an item that is not an object.', { retryable: false });
  const r = item as Record<string, unknown>;
  const processo = digitsIf(r.numeroProcesso, 20);
  return {
    numeroPeca: digitsIf(r.numeroPeca, 28),
    tipoPeca: str(r.tipoPeca) ?? str(r.descricaoPeca),
    status: str(r.status) ?? str(r.statusMandado) ?? str(r.descricaoStatus),
    numeroProcesso: processo && isValidCnj(processo) ? processo : null,
    orgao: str(r.orgao) ?? str(r.orgaoJudiciario) ?? str(r.nomeOrgao),
    dataExpedicao: dayOf(r.dataExpedicao),
    nome: str(r.nome) ?? str(r.nomePessoa),
    alcunha: str(r.alcunha),
  };
}

export class WarrantsConnector implements WarrantsSource {
  readonly info: SourceInfo;
  readonly supports: readonly ('cpf' | 'numeroPeca')[];
  readonly #http: HttpUpstream;
  readonly #protocol: WarrantProtocol;
  readonly #auth: Record<string, string>;

  constructor(o: WarrantsConnectorOptions) {
    this.info = { name: 'Mandados', sandbox: o.sandbox ?? false };
    this.#protocol = o.protocol;
    this.supports = o.protocol === 'predictus' ? ['cpf'] : ['cpf', 'numeroPeca'];
    this.#auth = o.token ? { authorization: `Bearer ${o.token}` } : {};
    // A warrant query is answered once or not at all: a retry after a timeout would repeat a slow provider's work.
    // A 400 is the provider refusing what Tramita already validated: a disagreement, not "nothing found".
    const classify = { refused: { 400: 'malformed' } } as const;
    this.#http = new HttpUpstream({ ...o, retries: o.retries ?? 1, source: 'mandados', label: 'The warrants provider', error: fail, classify });
  }

  async query(q: WarrantQuery, signal?: AbortSignal): Promise<WarrantRecord[]> {
    if (this.#protocol === 'predictus') {
      if (!('cpf' in q)) throw fail('unavailable', 'This warrants provider searches by CPF only.', { retryable: false });
      const path = '/mandados/prisao/buscarPorCPF';
      const raw = await this.#http.send('POST', path, {
        signal,
        body: JSON.stringify({ cpf: q.cpf }),
        headers: { ...this.#auth, 'content-type': 'application/json' },
      });
      if (raw.status === 204) return [];
      return this.#list(this.#http.ok(raw, path), path, (json) => json);
    }
    const path = 'cpf' in q ? `/mandados?cpf=${q.cpf}` : `/mandados?numero_peca=${q.numeroPeca}`;
    const raw = await this.#http.send('GET', path, { signal, headers: this.#auth });
    return this.#list(this.#http.ok(raw, path), path, (json) => (json as { mandados?: unknown } | null)?.mandados);
  }

  async close(): Promise<void> {
    await this.#http.close();
  }

  #list(raw: UpstreamResponse, path: string, pick: (json: unknown) => unknown): WarrantRecord[] {
    const list = pick(this.#http.json(raw, path));
    if (!Array.isArray(list))
      throw fail('malformed', `The warrants provider's answer to ${pathOnly(path)} has no list of warrants (${describeBody(raw.body)}).`, { retryable: false });
    return list.map(toRecord);
  }
}
