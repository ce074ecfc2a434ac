/**
 * How a capability declares an endpoint. `defineRoute` takes the path, the TypeBox schemas, what the
 * platform must do around it (auth, route class, price, async eligibility) and a handler that returns
 * an Outcome; the platform adds the envelope, the charge, the 202 window, idempotency and rate limits.
 * A route opts into the async window with `async: true` and into billing with `charge: '<query type>'`,
 * charged the way its `chargeWay` names (ChargeWay).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { getCallSites } from 'node:util';
import type { FastifyInstance, FastifyRequest, HTTPMethods } from 'fastify';
import type { Transaction } from 'kysely';
import { Type, type Static, type TSchema } from 'typebox';
import { PROJECT_ROOT } from '../../config.ts';
import type { RouteClass } from './route-classes.ts';
import type { Account } from '../accounts/store.ts';
import type { DebitLine } from '../billing/charge.ts';
import type { DB } from '../db/schema.ts';
import type { StoredResponse } from './stored-response.ts';

/**
 * How a charged route is charged (docs/credits.md), at the price the runner computed once:
 * - `on-success` (the default): by the runner, once the handler succeeded, with the answer; an
 *   answer that found nothing (Outcome `empty`) is not charged;
 * - `in-handler`: by the handler, inside the transaction of what it creates (OperationContext.chargeIn),
 *   so a debit that fails leaves nothing behind; an answer that created nothing charged nothing. Never
 *   async-eligible;
 * - `deferred`: by the job that completes the work the request recorded, once (billing/deferred.ts
 *   chargeDeferred); the request itself is not charged.
 */
export type ChargeWay = 'on-success' | 'in-handler' | 'deferred';

export interface RouteMeta {
  /** Rate-limit class (spec §8); null for operational endpoints that are never limited. */
  class: RouteClass | null;
  /** Whether an API key is required (true for every /v1 business operation). */
  auth: boolean;
  /** Query type of the price table: the operation is priced before it runs and charged once, the way `chargeWay` says. */
  charge?: string;
  /** How the operation is charged (ChargeWay); `on-success` when not said. Only with `charge`. */
  chargeWay?: ChargeWay;
  /** May answer 202 past the synchronous window (spec §3.2). */
  async?: boolean;
  /** Tag for OpenAPI and the /v1 catalog. */
  tag: string;
  summary: string;
  description?: string;
  /** The media type of a binary 200 (a PDF, a downloaded file) instead of the JSON envelope (the wildcard when it is the file's own). */
  binary?: string;
  /**
   * The statuses `data` is answered with, when not only 200 (OpenAPI only: the handler's Outcome sets
   * the status): 201 for a creation (with 200 when the existing one is returned), 202 for work accepted
   * to run after the answer (with `Location` and `Retry-After`).
   */
  success?: readonly (200 | 201 | 202)[];
  /** Answers another operation's stored response (the status URL): any status it had, and 202 while it runs. */
  replay?: boolean;
}

export interface AuthContext {
  keyId: string;
  account: Account;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    tramita?: RouteMeta;
    /** The file that declared the route (defineRoute), relative to the project root: docs/endpoints.md. */
    tramitaFile?: string;
  }
  interface FastifyRequest {
    auth?: AuthContext;
  }
}

/** What the operation runner (operation.ts) gives a handler besides its request. */
export interface OperationContext {
  /** This operation's price for the account's plan, in centavos (0 on a free route): priced once, by the runner. */
  readonly priceCentavos: number;
  /**
   * The `in-handler` way (ChargeWay): charges inside the handler's own transaction, for what must not
   * outlive an unpaid debit (a monitor's or radar's first period): the search log and one ledger row
   * per debit (by default one of `priceCentavos` under the request id), through the one recipe
   * (billing/ledger.ts chargeIn). The runner reports this charge in `meta`; a handler that creates
   * nothing does not call it, and its answer is free. A short balance throws 403 INSUFFICIENT_CREDITS
   * and rolls `trx` back with everything it wrote. Once per operation, and only on an `in-handler` route.
   */
  chargeIn(trx: Transaction<DB>, opts?: { debits?: readonly DebitLine[]; status?: number }): Promise<void>;
}

/**
 * What a handler returns; the platform turns it into the response: `data` goes into the envelope,
 * `file` is sent as is (its charge in headers), `response` is replayed verbatim (status URL).
 */
export type Outcome =
  /**
   * `empty`: the answer found nothing (an empty page, no summary yet), which, like a not-found, is
   * not charged (docs/credits.md). It matters only on an `on-success` route: no other is charged by the runner.
   */
  | { status?: number; data: unknown; meta?: Record<string, unknown>; headers?: Record<string, string>; empty?: boolean }
  | { status?: number; file: { contentType: string; body: Buffer; filename?: string; headers?: Record<string, string> } }
  | { response: StoredResponse };

export interface RouteSchemas {
  params?: TSchema;
  querystring?: TSchema;
  body?: TSchema;
  /** Schema of `data` in the 200 response (documentation and OpenAPI). */
  data?: TSchema;
}

type Maybe<S> = S extends TSchema ? Static<S> : undefined;

export type RouteRequest<S extends RouteSchemas> = FastifyRequest<{
  Params: Maybe<S['params']>;
  Querystring: Maybe<S['querystring']>;
  Body: Maybe<S['body']>;
}>;

export type Handler<S extends RouteSchemas> = (req: RouteRequest<S>, op: OperationContext) => Promise<Outcome>;

export interface RouteDefinition<S extends RouteSchemas> {
  method: HTTPMethods;
  url: string;
  meta: RouteMeta;
  schema: S;
  handler: Handler<S>;
}

/** Metadata of every registered route, in registration order: feeds the /v1 catalog and the shared test suite. */
export interface RegisteredRoute {
  method: string;
  url: string;
  meta: RouteMeta;
  schema: RouteSchemas;
  /** The file that declares it, relative to the project root (docs/endpoints.md maps the spec to it). */
  file: string | null;
}

export const StrictEmpty = Type.Object({}, { additionalProperties: false });

export const Meta = Type.Object(
  {
    requestId: Type.String(),
    searchLogId: Type.Optional(Type.String()),
    creditsCharged: Type.Optional(Type.Number({ description: 'BRL charged by this response (0.05 = R$ 0,05).' })),
    creditsRemaining: Type.Optional(Type.Number({ description: 'Balance in BRL after this response.' })),
  },
  { additionalProperties: true },
);

export function envelopeSchema(data: TSchema) {
  return Type.Object({ data, meta: Meta });
}

/**
 * The file of the code that called defineRoute, relative to the project root (once per route, at
 * start). A platform factory that defines routes for a capability (monitoring/paid-monitor-routes.ts)
 * is passed over: the route is declared by the capability that called it.
 */
function declaringFile(): string | null {
  for (const site of getCallSites(10).slice(1)) {
    const file = site.scriptName.startsWith('file:') ? fileURLToPath(site.scriptName) : site.scriptName;
    if (!file || file === THIS_FILE) continue;
    const relative = path.relative(PROJECT_ROOT, file).split(path.sep).join('/');
    if (relative.startsWith('src/platform/') && !relative.startsWith('src/platform/async/')) continue;
    return relative;
  }
  return null;
}
const THIS_FILE = fileURLToPath(import.meta.url);

/** The Fastify route options for a definition; the platform's onRoute hook wraps the handler. */
export function defineRoute<S extends RouteSchemas>(app: FastifyInstance, def: RouteDefinition<S>): void {
  const { params, querystring, body, data } = def.schema;
  const { charge, chargeWay, async } = def.meta;
  if (chargeWay && !charge) throw new Error(`${def.method} ${def.url}: chargeWay '${chargeWay}' without a query type to charge`);
  // A pending operation's stored response commits with its charge, rendered after the handler returned.
  if (chargeWay === 'in-handler' && async) throw new Error(`${def.method} ${def.url}: an in-handler charge cannot answer 202 (async)`);
  app.route({
    method: def.method,
    url: def.url,
    schema: {
      ...(params ? { params } : {}),
      // Every route declares its query string, so an unknown parameter is a 400, never silently ignored.
      querystring: querystring ?? StrictEmpty,
      ...(body ? { body } : {}),
      tags: [def.meta.tag],
      summary: def.meta.summary,
      ...(def.meta.description ? { description: def.meta.description } : {}),
      ...(data ? { response: { 200: envelopeSchema(data) } } : {}),
    },
    config: { tramita: def.meta, tramitaFile: declaringFile() ?? undefined },
    handler: def.handler as unknown as (req: FastifyRequest) => Promise<Outcome>, // the runner (app.ts onRoute) passes the OperationContext
  });
}
