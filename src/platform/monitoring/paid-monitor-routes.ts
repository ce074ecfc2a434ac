/**
 * The routes every paid-monitor kind has (spec §4.8), from the kind's plan: create (charged inside the
 * creation's transaction, the `in-handler` way: 201 for a new monitor, 200 for the account's live one
 * or a reactivated one), list (newest first, cursor pagination), read and remove (free; another
 * account's id is 404 NOT_FOUND). What a kind does besides (an intimação's PUT, a radar's PATCH) it
 * defines beside these.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Static, TSchema } from 'typebox';
import { ApiError } from '../errors.ts';
import { listSchema } from '../http/list.ts';
import { listPage } from '../http/listing.ts';
import type { PageParams } from '../http/pagination.ts';
import { defineRoute, type Outcome } from '../http/route.ts';
import type { Services } from '../services.ts';
import { createMonitor, creationStatus, removeMonitor, type Creation, type MonitorAsk, type MonitorPlan } from './lifecycle.ts';
import { periodDebit } from './renewal.ts';
import { MonitorIdParams, MonitorListQuery, STATUS_FILTER } from './schemas.ts';
import type { MonitorPosition, MonitorReads, PaidMonitorRow } from './tables.ts';
import { webhookUrlOf } from './webhook-url.ts';

/** A listed monitor: its status is one of the three, its creation time orders the pages. */
export interface ListedMonitorRow extends PaidMonitorRow {
  status: 'ATIVO' | 'SUSPENSO' | 'REMOVIDO';
  criado_em: string;
}

const LIST_DESCRIPTION =
  'Free. ATIVO and SUSPENSO monitors unless `status` asks for one status (REMOVIDO included). Cursor pagination: `limit` 1–100 (default 20), `cursor` = ' +
  '`meta.pagination.nextCursor`.';
const READ_DESCRIPTION = "Free. Its status, situation, counters, next check and charge, and the last error. Another account's id is 404 NOT_FOUND.";

export interface PaidMonitorRoutesPlan<R extends ListedMonitorRow, A extends MonitorAsk, B extends TSchema> {
  lifecycle: MonitorPlan<R, A>;
  path: string;
  tag: string;
  /** The query type a create charges. */
  charge: string;
  /** The listing's name in its cursors (a cursor of another listing, or status, is refused). */
  listing: string;
  /** What the kind is called in a 404: `No <noun> "<id>" in this account.` */
  noun: string;
  /** What the OpenAPI summaries call it: `Create <one>`, `List <many>, newest first`, `Read <one>`, `<removal> <one>`. */
  names: { one: string; many: string; removal: 'Remove' | 'Deactivate' };
  /** The create body and the monitor's view. */
  schemas: { body: B; view: TSchema };
  /** The description of the list's `status` filter (null: none). */
  statusFilter?: string | null;
  /** The operations' descriptions (the list's, and by default the read's, are the same for every kind). */
  texts: { create: string; read?: string; remove: string };
  /** The kind's own part of a create's ask, read from the body before its `webhook_url` (400 or 422 for a bad one). */
  target(body: Static<B>): Omit<A, keyof MonitorAsk>;
  view(monitor: R): unknown;
  /** A create's answer; absent, the monitor's view. */
  created?(creation: Creation<R>): unknown;
  /** The kind's store reads: the account's monitor by id (404 when absent), its pages. */
  store: Pick<MonitorReads<R>, 'find' | 'list'>;
}

/** A page of the account's monitors, newest first; absent `status`: the live ones. */
export type ListMonitors<R extends ListedMonitorRow> = MonitorReads<R>['list'];

/** The answer of a monitors' list route: a page of `listing` (its cursors name it and the status asked), newest first. */
export async function monitorPage<R extends ListedMonitorRow>(
  s: Services,
  req: FastifyRequest,
  listing: string,
  list: ListMonitors<R>,
  view: (monitor: R) => unknown,
): Promise<Outcome> {
  const query = req.query as PageParams & { status?: R['status'] };
  const accountId = req.auth!.account.id;
  const { data, pagination } = await listPage<R, MonitorPosition>(req as FastifyRequest & { query: PageParams }, s.config, {
    listing: `${listing}:${query.status ?? 'vivos'}`,
    keys: ['criadoEm', 'id'],
    read: (limit, before) => list(s.db, accountId, { status: query.status, limit, before }),
    position: (r) => ({ criadoEm: r.criado_em, id: r.id }),
    name: 'items',
    view: (rows) => rows.map(view),
  });
  return { data, meta: { pagination } };
}

export function paidMonitorRoutes<R extends ListedMonitorRow, A extends MonitorAsk, B extends TSchema>(
  app: FastifyInstance,
  s: Services,
  plan: PaidMonitorRoutesPlan<R, A, B>,
): void {
  const { path, tag, texts, names } = plan;
  const ListQuery = MonitorListQuery(plan.statusFilter === undefined ? STATUS_FILTER : (plan.statusFilter ?? undefined));
  const own = async (accountId: string, id: string): Promise<R> => {
    const monitor = await plan.store.find(s.db, accountId, id);
    if (!monitor) throw new ApiError('NOT_FOUND', `No ${plan.noun} "${id}" in this account.`);
    return monitor;
  };

  defineRoute(app, {
    method: 'POST',
    url: path,
    meta: {
      class: 'monitor',
      auth: true,
      charge: plan.charge,
      chargeWay: 'in-handler',
      success: [200, 201],
      tag,
      summary: `Create ${names.one}`,
      description: texts.create,
    },
    schema: { body: plan.schemas.body, data: plan.schemas.view },
    handler: async (req, op) => {
      const accountId = req.auth!.account.id;
      const target = plan.target(req.body as Static<B>);
      const webhookUrl = await webhookUrlOf(s, accountId, (req.body as { webhook_url?: string | null }).webhook_url);
      const ask = { ...target, accountId, webhookUrl, priceCentavos: op.priceCentavos } as A;
      // The period is paid in the creation's own transaction (periods are numbered like renewals: `<id>:<period>`).
      const creation = await createMonitor(s, plan.lifecycle, ask, (trx, c) =>
        op.chargeIn(trx, { debits: [periodDebit(c.monitor)], status: creationStatus(c) }),
      );
      return { status: creationStatus(creation), data: plan.created ? plan.created(creation) : plan.view(creation.monitor) };
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: path,
    meta: { class: 'monitor', auth: true, tag, summary: `List ${names.many}, newest first`, description: LIST_DESCRIPTION },
    schema: { querystring: ListQuery, data: listSchema('items', plan.schemas.view) },
    handler: (req) => monitorPage(s, req, plan.listing, plan.store.list, plan.view),
  });

  defineRoute(app, {
    method: 'GET',
    url: `${path}/:id`,
    meta: { class: 'monitor', auth: true, tag, summary: `Read ${names.one}`, description: texts.read ?? READ_DESCRIPTION },
    schema: { params: MonitorIdParams, data: plan.schemas.view },
    handler: async (req) => ({ data: plan.view(await own(req.auth!.account.id, req.params.id)) }),
  });

  defineRoute(app, {
    method: 'DELETE',
    url: `${path}/:id`,
    meta: { class: 'monitor', auth: true, tag, summary: `${names.removal} ${names.one}`, description: texts.remove },
    schema: { params: MonitorIdParams, data: plan.schemas.view },
    handler: async (req) => ({ data: plan.view(await removeMonitor(s, plan.lifecycle, await own(req.auth!.account.id, req.params.id))) }),
  });
}
