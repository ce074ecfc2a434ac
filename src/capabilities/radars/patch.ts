/**
 * PATCH of a radar (spec §4.8 "refines the filters"): every filter may change, the term may not (it is
 * what the radar is, and what its results and charges are about). A change that widens the filters
 * makes the next check a baseline, due at once: cases the old filters excluded already existed, so
 * they are stored without events rather than announced as new.
 */
import { addMs, iso } from '../../platform/clock.ts';
import type { RadarsTable } from '../../platform/db/schema.ts';
import { ApiError } from '../../platform/errors.ts';
import { frequencyMs } from '../../platform/monitoring/frequency.ts';
import { filterColumns, type FilterInput } from './input.ts';
import { criteriaOf, widens } from './match.ts';
import type { RadarParts } from './parts.ts';

export interface PatchInput extends FilterInput {
  termo?: unknown;
}

export async function patchRadar(m: RadarParts, radar: RadarsTable, body: PatchInput): Promise<RadarsTable> {
  if (body.termo !== undefined) {
    throw new ApiError('INVALID_PARAMETER', 'The term of a radar cannot change: create another radar (and DELETE this one).', { field: 'termo', in: 'body' });
  }
  if (radar.status === 'DESATIVADO') throw deactivatedError(radar);
  const set = await filterColumns(m.services, body, radar.tipo);
  const now = m.services.clock.now();
  const changed: RadarsTable = { ...radar, ...set };
  const update: Partial<RadarsTable> = { ...set, atualizado_em: iso(now) };
  if (widens(criteriaOf(radar), criteriaOf(changed))) {
    Object.assign(update, { ultima_verificacao_em: null, proxima_verificacao_em: iso(now) });
  } else if (set.frequencia && set.frequencia !== radar.frequencia) {
    const last = radar.ultima_verificacao_em ? new Date(radar.ultima_verificacao_em) : now;
    update.proxima_verificacao_em = iso(addMs(last, frequencyMs(set.frequencia, m.services.config.monitorIntervalMs)));
  }
  if (set.webhook_url) await m.services.webhooks.configs.ensure(radar.account_id);
  await m.store.update(radar.id, update);
  return (await m.store.byId(radar.id))!;
}

/** A change to a DESATIVADO radar: 422 `MONITOR_DEACTIVATED` (its history stays readable). */
export function deactivatedError(radar: RadarsTable): ApiError {
  return new ApiError('MONITOR_DEACTIVATED', `Radar ${radar.id} was deactivated at ${radar.desativado_em}: it can no longer be changed. Create a new radar.`, {
    id: radar.id,
    status: radar.status,
  });
}
