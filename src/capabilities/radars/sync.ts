/**
 * `GET …/{id}/resultados?sincronizar=true` (spec §4.8: it "may trigger a provider query, so use it
 * sparingly"): a check of this radar before listing, at most once per radar per 60 s. The slot is
 * taken atomically (two concurrent calls run one check) and stays taken if the check fails, so a
 * failing upstream is not hammered either. Free, like the listing.
 */
import { addMs, iso } from '../../platform/clock.ts';
import type { RadarsTable } from '../../platform/db/schema.ts';
import { checkRadar } from './check.ts';
import type { RadarParts } from './parts.ts';

export const SYNC_MIN_INTERVAL_MS = 60_000;

export type SyncMeta =
  | { executada: true; novos: number; linhaDeBase: boolean }
  | { executada: false; motivo: 'INTERVALO_MINIMO' | 'RADAR_SUSPENSO' | 'RADAR_DESATIVADO'; proximaPermitidaEm: string | null };

/** Runs the check, or says why not; an upstream failure is thrown (SOURCE_UNAVAILABLE, uncharged). */
export async function synchronize(m: RadarParts, radar: RadarsTable): Promise<SyncMeta> {
  if (radar.status !== 'ATIVO')
    return { executada: false, motivo: radar.status === 'DESATIVADO' ? 'RADAR_DESATIVADO' : 'RADAR_SUSPENSO', proximaPermitidaEm: null };
  const now = m.services.clock.now();
  if (!(await m.store.claimSync(radar.id, iso(now), iso(addMs(now, -SYNC_MIN_INTERVAL_MS))))) {
    const last = (await m.store.byId(radar.id))?.ultima_sincronizacao_em ?? iso(now);
    return { executada: false, motivo: 'INTERVALO_MINIMO', proximaPermitidaEm: iso(addMs(new Date(last), SYNC_MIN_INTERVAL_MS)) };
  }
  return { executada: true, ...(await checkRadar(m, radar)) };
}
