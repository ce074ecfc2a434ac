/** The lawyer capability (spec §4.4) as the capability list plugs it in: its routes and its two jobs. */
import type { JobHandler } from '../../platform/jobs/worker.ts';
import type { Services } from '../../platform/services.ts';
import { consolidationJob } from '../publications/history.ts';
import { oabSearchJob } from './oab-search.ts';

export { lawyerRoutes } from './routes.ts';

export function lawyerJobs(s: Services): JobHandler[] {
  return [oabSearchJob(s), consolidationJob(s)];
}
