/**
 * What the radar routes and the radar cycle share: the services, the radar store and the case parts;
 * and the radars' door (issue 55 item 3): what other capabilities (the console) may do to a radar.
 */
import type { RadarsTable } from '../../platform/db/schema.ts';
import { removeOwnMonitor } from '../../platform/monitoring/lifecycle.ts';
import type { Services } from '../../platform/services.ts';
import type { CaseParts } from '../processes/parts.ts';
import { RADARS } from './lifecycle.ts';
import { RadarStore } from './store.ts';

export interface RadarParts {
  services: Services;
  store: RadarStore;
  /** The case store and lookups: a radar's hits are stored cases. */
  cases: CaseParts;
}

export function buildRadarParts(s: Services, cases: CaseParts): RadarParts {
  return { services: s, store: new RadarStore(s.db), cases };
}
export { RADARS } from './lifecycle.ts';

/** DESATIVADO (spec §3.2): checks and charges stop, results stay readable; a deactivated radar is returned unchanged. Undefined for another account's id. */
export async function deactivateRadar(m: RadarParts, accountId: string, id: string): Promise<RadarsTable | undefined> {
  return removeOwnMonitor(m.services, RADARS, accountId, id);
}
