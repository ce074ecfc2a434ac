/**
 * The JSON body parser: Fastify's own (prototype-poisoned keys refused), then the input guard's
 * checks on what it parsed (input-guard.ts: nesting depth, NUL, non-finite numbers), so no handler,
 * fingerprint or database ever sees such a body.
 */
import type { FastifyInstance } from 'fastify';
import { bodyProblem } from './input-guard.ts';

export function installJsonBody(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    parse(req, body as string, (err: Error | null, value?: unknown) => {
      if (err) return done(err, undefined);
      const problem = bodyProblem(value);
      if (problem) return done(problem, undefined);
      done(null, value);
    });
  });
}
