/**
 * The one shape of a capability (a folder under src/capabilities/, and the platform's own share):
 * its factory runs once at start and returns its routes, the handlers of its background jobs and the
 * kinds of its recurring jobs. `app.ts` mounts the routes; the worker runs the jobs; every process
 * that runs a worker makes sure each recurring job exists (platform/jobs/recurring.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { RecurringJob } from './jobs/job-type.ts';
import type { JobHandler } from './jobs/worker.ts';

export interface Capability {
  name: string;
  /** Declares its endpoints on the app (defineRoute), in the order the /v1 catalog lists them. */
  routes(app: FastifyInstance): void;
  /** Handlers of the job kinds it owns (a capability never registers another's job). */
  jobs: JobHandler[];
  /** Its recurring jobs (their handlers among `jobs`): one live job each, which reschedules itself. */
  schedules: RecurringJob[];
}
