/** Intimações (spec §4.5): monitors by OAB and the publications they match. Polled by the publication cycle. */
import type { Capability } from '../../platform/capability.ts';
import type { Services } from '../../platform/services.ts';
import type { PublicationParts } from '../publications/parts.ts';
import { intimationRoutes } from './routes.ts';

export function intimationsCapability(s: Services, publications: PublicationParts): Capability {
  return { name: 'intimations', routes: (app) => intimationRoutes(app, s, publications), jobs: [], schedules: [] };
}
