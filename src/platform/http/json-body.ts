/**
 * Request bodies.
 * - JSON: Fastify's own parser (prototype-poisoned keys refused), then the input guard's checks on what
 *   it parsed (input-guard.ts: nesting depth, NUL, non-finite numbers), so no handler, fingerprint or
 *   database ever sees such a body.
 * - No body, or an empty one, is a request without a body on every method, whatever its Content-Type
 *   says (a plain `curl -X POST`, a DELETE sent with `Content-Type: application/json`): a route with a
 *   body schema then validates `{}`, so an action that needs nothing just runs, and one that needs
 *   fields names the first one missing (400 MISSING_PARAMETER) instead of refusing the body.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { appendRouteHook } from './hooks.ts';
import { bodyProblem } from './input-guard.ts';

export function installJsonBody(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if ((body as string).trim() === '') return done(null, undefined);
    parse(req, body as string, (err: Error | null, value?: unknown) => {
      if (err) return done(err, undefined);
      const problem = bodyProblem(value);
      if (problem) return done(problem, undefined);
      done(null, value);
    });
  });
  app.addHook('onRoute', (route) => {
    if (route.schema?.body) appendRouteHook(route, 'preValidation', absentBodyIsEmpty);
  });
}

function absentBodyIsEmpty(req: FastifyRequest, _reply: FastifyReply, done: () => void): void {
  // '' is an empty body another parser (text/plain) read.
  if (req.body === undefined || req.body === '') req.body = {};
  done();
}
