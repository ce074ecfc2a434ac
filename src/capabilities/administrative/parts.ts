/** What the administrative capability lets others use (its door): the service the house hands out (capabilities/index.ts). */
export type { AdministrativeService } from './service.ts';
