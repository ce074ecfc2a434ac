/**
 * Discovery (spec §4.1, §9): `GET /v1` answers without a key, names the auth mechanism and lists the
 * catalog generated from the registered routes; `GET /v1/openapi.json` is the OpenAPI 3.1 document;
 * `/docs` (registered in app.ts) is the interactive reference.
 */
import { Type } from 'typebox';
import type { FastifyInstance } from 'fastify';
import { toBrl } from '../../platform/billing/prices.ts';
import { defineRoute } from '../../platform/http/route.ts';
import type { Services } from '../../platform/services.ts';
import { sourcesStatus } from '../../platform/ports/status.ts';

/** What GET /v1 and /v1/integrador say of the sources (platform/ports/status.ts). */
export const SourcesStatus = Type.Array(
  Type.Object({
    nome: Type.String(),
    serve: Type.String(),
    configurada: Type.Boolean({
      description: 'false: the operations it serves answer 503 SOURCE_NOT_CONFIGURED (or, for the portal, 422 DETAILS_UNAVAILABLE).',
    }),
    sandbox: Type.Boolean({ description: "true: the sandbox's simulator answers (fictitious data)." }),
    provedor: Type.Boolean({ description: 'Served through a provider the operator configures (docs/providers.md).' }),
    estado: Type.Union([Type.Literal('ok'), Type.Literal('falhando'), Type.Literal('desconhecido'), Type.Literal('nao_configurada')], {
      description:
        'What this server saw of it lately: falhando after 3 failed requests in a row (5xx, 429, timeout, unreachable) until one ' +
        'succeeds; desconhecido before any request.',
    }),
    saude: Type.Union([Type.Literal('saudavel'), Type.Literal('degradada'), Type.Literal('falhando')], {
      description:
        'Its health across the deployment (issue 51): degradada while failures or timeouts come in a row, falhando after ' +
        'TRAMITA_SOURCE_FAILING_AFTER of them (an auxiliary source is then not waited on by lookups and is probed in the background until it answers), ' +
        'saudavel again at its first answer.',
    }),
    ultimaFalha: Type.Union([Type.Object({ tipo: Type.String(), em: Type.String({ format: 'date-time' }) }), Type.Null()]),
  }),
  { description: 'The sources of this deployment.' },
);

const Catalog = Type.Object({
  service: Type.String(),
  namespace: Type.Literal('/v1'),
  contractVersion: Type.String(),
  authentication: Type.Object({ type: Type.Literal('apiKey'), header: Type.Literal('x-api-key'), alternative: Type.String() }),
  documentation: Type.Object({ openapi: Type.String(), reference: Type.String() }),
  fontes: SourcesStatus,
  resources: Type.Array(
    Type.Object({
      method: Type.String(),
      path: Type.String(),
      summary: Type.String(),
      tag: Type.String(),
      authenticated: Type.Boolean(),
      routeClass: Type.Union([Type.String(), Type.Null()]),
      queryType: Type.Union([Type.String(), Type.Null()]),
      price: Type.Union([Type.Number(), Type.Null()]),
      async: Type.Boolean(),
    }),
  ),
});

/** Fastify's `:param` written as the spec writes it, `{param}`. */
export function specPath(url: string): string {
  return url.replace(/:([A-Za-z_]+)/g, '{$1}');
}

export function discoveryRoutes(app: FastifyInstance, s: Services): void {
  defineRoute(app, {
    method: 'GET',
    url: '/v1',
    meta: {
      class: 'reference',
      auth: false,
      tag: 'Descoberta',
      summary: 'Confirms the v1 namespace; auth mechanism and resource catalog',
      description: 'Public: no key needed. Validates the host; it does not replace an authenticated query.',
    },
    schema: { data: Catalog },
    handler: async () => ({
      data: {
        service: 'Tramita',
        namespace: '/v1',
        contractVersion: '1.0.0',
        authentication: { type: 'apiKey', header: 'x-api-key', alternative: 'Authorization: Bearer <API_KEY>' },
        documentation: { openapi: '/v1/openapi.json', reference: '/docs' },
        fontes: sourcesStatus(s.sources),
        resources: app.tramita.routes.map((r) => {
          const price = r.meta.charge ? s.prices.priceFor(s.prices.defaultPlan, r.meta.charge) : null;
          return {
            method: r.method,
            path: specPath(r.url),
            summary: r.meta.summary,
            tag: r.meta.tag,
            authenticated: r.meta.auth,
            routeClass: r.meta.class,
            queryType: r.meta.charge ?? null,
            price: price === null ? null : toBrl(price),
            async: Boolean(r.meta.async),
          };
        }),
      },
    }),
  });

  app.get('/v1/openapi.json', { schema: { hide: true } }, async (_req, reply) => reply.type('application/json; charset=utf-8').send(app.swagger()));
}
