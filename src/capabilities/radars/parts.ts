/** What the radar routes and the radar cycle share: the services, the radar store and the case parts. */
import type { Services } from '../../platform/services.ts';
import type { CaseParts } from '../processes/parts.ts';
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
