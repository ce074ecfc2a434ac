/** Create and PATCH bodies → radar columns, each field validated (400 naming it, spec §7). */
import type { MonitorFrequency } from '../../platform/db/schema.ts';
import { ApiError } from '../../platform/errors.ts';
import type { Services } from '../../platform/services.ts';
import { checkWebhookUrl } from '../../platform/webhooks/url-guard.ts';
import { checkName, normalizeCourts, normalizeWords, type RadarKind } from './match.ts';
import type { RadarFilterSet } from './store.ts';

export interface FilterInput {
  variacoes?: string[];
  tribunais?: string[];
  classes?: string[];
  termos_obrigatorios?: string[];
  termos_proibidos?: string[];
  webhook_url?: string | null;
  frequencia?: MonitorFrequency;
}

/** The columns for the fields present in `body` (absent fields are absent from the result). */
export async function filterColumns(s: Services, body: FilterInput, tipo: RadarKind): Promise<RadarFilterSet> {
  const set: RadarFilterSet = {};
  if (body.variacoes !== undefined) set.variacoes = JSON.stringify(variations(body.variacoes, tipo));
  if (body.tribunais !== undefined) set.tribunais = JSON.stringify(normalizeCourts(body.tribunais));
  if (body.classes !== undefined) set.classes = JSON.stringify(normalizeWords(body.classes, 'classes'));
  if (body.termos_obrigatorios !== undefined) set.termos_obrigatorios = JSON.stringify(normalizeWords(body.termos_obrigatorios, 'termos_obrigatorios'));
  if (body.termos_proibidos !== undefined) set.termos_proibidos = JSON.stringify(normalizeWords(body.termos_proibidos, 'termos_proibidos'));
  if (body.webhook_url !== undefined) {
    set.webhook_url =
      body.webhook_url === null ? null : (await checkWebhookUrl(body.webhook_url, { allowPrivate: s.config.webhookAllowPrivate, field: 'webhook_url' })).href;
  }
  if (body.frequencia !== undefined) set.frequencia = body.frequencia;
  return set;
}

/** Other spellings of a name: each a name itself; a CPF/CNPJ has none. */
function variations(list: string[], tipo: RadarKind): string[] {
  if (tipo !== 'NOME' && list.length > 0) {
    throw new ApiError('INVALID_PARAMETER', 'Variations apply to name radars; a CPF/CNPJ radar matches the document exactly.', {
      field: 'variacoes',
      in: 'body',
    });
  }
  for (const [i, v] of list.entries()) checkName(v, `variacoes.${i}`);
  return [...new Set(list.map((v) => v.trim().replace(/\s+/g, ' ')))];
}
