/**
 * OpenAPI 3.1 generated from the route schemas (spec §9). Error responses come from the error registry:
 * each operation lists the statuses it can answer, with the codes of each status.
 */
import type { SwaggerOptions } from '@fastify/swagger';
import type { Services } from '../services.ts';
import { ERRORS } from '../errors.ts';
import type { RouteMeta } from './route.ts';

const ERROR_SCHEMA = {
  type: 'object',
  required: ['error', 'meta'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', enum: Object.keys(ERRORS) },
        message: { type: 'string' },
        details: { type: 'object', additionalProperties: true },
      },
    },
    meta: { type: 'object', properties: { requestId: { type: 'string' } } },
  },
};

const PENDING_SCHEMA = {
  type: 'object',
  description: 'The operation outlived the synchronous window and continues; poll `data.statusUrl` (same as `Location`).',
  properties: {
    data: {
      type: 'object',
      properties: {
        requestId: { type: 'string' }, status: { type: 'string', const: 'PROCESSANDO' }, statusUrl: { type: 'string', format: 'uri' },
        submittedAt: { type: 'string', format: 'date-time' }, pollAfterSeconds: { type: 'integer' }, pollAfterMs: { type: 'integer' },
        nextPollAt: { type: 'string', format: 'date-time' },
      },
    },
    pollAfterSeconds: { type: 'integer' }, pollAfterMs: { type: 'integer' }, nextPollAt: { type: 'string', format: 'date-time' },
    meta: { type: 'object', properties: { requestId: { type: 'string' } } },
  },
};

function codesWithStatus(status: number, relevant: (code: string) => boolean): string[] {
  return Object.entries(ERRORS).filter(([code, e]) => e.status === status && relevant(code)).map(([code]) => code);
}

/** The error statuses an operation can answer, by what the platform does around it. */
function errorResponses(meta: RouteMeta, hasInput: boolean): Record<string, unknown> {
  const statuses = new Set<number>([404, 500]);
  if (hasInput || meta.auth) statuses.add(400);
  if (meta.auth) { statuses.add(401); statuses.add(403); }
  if (meta.class) statuses.add(429);
  if (meta.charge || meta.async) { statuses.add(503); statuses.add(504); statuses.add(422); statuses.add(409); }
  const out: Record<string, unknown> = {};
  for (const status of [...statuses].sort()) {
    const codes = codesWithStatus(status, () => true);
    if (codes.length === 0) continue;
    out[String(status)] = { description: `error.code one of: ${codes.join(', ')}`, content: { 'application/json': { schema: ERROR_SCHEMA } } };
  }
  return out;
}

export function openApiOptions(services: Services): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Tramita: Judicial Process Data Service',
        version: '1.0.0',
        description: 'Public Brazilian court-process data under /v1. Send the API key in `x-api-key` (or `Authorization: Bearer`). '
          + 'Charged operations report `meta.creditsCharged` and `meta.creditsRemaining`; `Prefer: return=estimate` prices one without running it. '
          + 'Past the synchronous window an eligible operation answers 202 with a status URL (`/v1/requests/{requestId}`).',
      },
      ...(services.config.publicUrl ? { servers: [{ url: services.config.publicUrl }] } : {}),
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
          bearer: { type: 'http', scheme: 'bearer', description: 'The same API key as a bearer token.' },
        },
      },
    },
    transform: ({ schema, url, route }) => {
      const meta = route.config?.tramita as RouteMeta | undefined;
      if (!meta) return { schema: { ...schema, hide: true }, url };
      const s = { ...(schema as Record<string, unknown>) };
      const hasInput = Boolean(s.params || s.body || (s.querystring as { properties?: object })?.properties);
      s.response = { ...(s.response as object ?? {}), ...(meta.async ? { 202: PENDING_SCHEMA } : {}), ...errorResponses(meta, hasInput) };
      s.security = meta.auth ? [{ apiKey: [] }, { bearer: [] }] : [];
      if (meta.charge) s['x-tramita-query-type'] = meta.charge;
      if (meta.class) s['x-tramita-route-class'] = meta.class;
      return { schema: s, url };
    },
  };
}
