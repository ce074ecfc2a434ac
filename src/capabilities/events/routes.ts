/**
 * The pull feed (beyond the spec, so no event is ever lost to a receiver outage): the account's
 * events in order, each in the normalized webhook shape, read from a cursor and acknowledged. A
 * receiver that was down reads from its acknowledged cursor and catches up, whatever happened to the
 * deliveries. On PostgreSQL, transactions can commit out of id order, so the feed shows only events
 * older than a short settling window (TRAMITA_FEED_SETTLE_MS): a later page never gains an event before the cursor.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { addMs, iso } from '../../platform/clock.ts';
import { ApiError } from '../../platform/errors.ts';
import { absoluteUrl } from '../../platform/http/absolute-url.ts';
import { listSchema } from '../../platform/http/list.ts';
import { Nullable } from '../../platform/http/nullable.ts';
import { PAGE_LIMIT_MAX } from '../../platform/http/pagination.ts';
import { defineRoute } from '../../platform/http/route.ts';
import type { Services } from '../../platform/services.ts';
import { feedRows, isFeedCursorOf } from './store.ts';

const TAG = 'Eventos';
const FEED_DEFAULT_LIMIT = 50;
/** PostgreSQL's default for TRAMITA_FEED_SETTLE_MS: longer than any transaction that records events. */
const FEED_SETTLE_MS_POSTGRES = 2_000;
const CURSOR = /^aev_[0-9a-z]{1,40}$/;

const Cursor = Type.String({ minLength: 1, maxLength: 64, description: 'An `cursor` of a listed event (`meta.nextCursor`).' });

const FeedEvent = Type.Object({
  cursor: Type.String(),
  id: Type.String(),
  event: Type.String(),
  source: Type.String(),
  created_at: Type.String(),
  data: Type.Unknown(),
  monitor: Type.Union([Type.Object({ tipo: Type.String(), id: Type.String() }), Type.Null()]),
});

function cursorOf(raw: string | undefined, field: string): string | undefined {
  if (raw === undefined) return undefined;
  if (!CURSOR.test(raw)) throw new ApiError('INVALID_CURSOR', undefined, { field, in: field === 'cursor' ? 'body' : 'query' });
  return raw;
}

export function eventRoutes(app: FastifyInstance, s: Services): void {
  const settleMs = s.config.feedSettleMs ?? (s.database.engine === 'postgres' ? FEED_SETTLE_MS_POSTGRES : 0);

  defineRoute(app, {
    method: 'GET',
    url: '/v1/eventos',
    meta: {
      class: 'account',
      auth: true,
      tag: TAG,
      summary: "The account's events, in order (pull feed)",
      description:
        `Free. Every event delivered or deliverable to this account (monitors, radars, refreshes), oldest first, in the normalized webhook shape ` +
        `plus \`cursor\` and \`monitor\`. \`after\`: a cursor; without it, the feed continues after the acknowledged cursor (POST ` +
        `/v1/eventos/confirmar), or from the start. \`limit\` 1–${PAGE_LIMIT_MAX} (default ${FEED_DEFAULT_LIMIT}). Events stay ` +
        `readable whether or not webhooks are configured, active or failing.`,
    },
    schema: {
      querystring: Type.Object(
        {
          after: Type.Optional(Cursor),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: PAGE_LIMIT_MAX, default: FEED_DEFAULT_LIMIT })),
        },
        { additionalProperties: false },
      ),
      data: listSchema('items', FeedEvent, { confirmadoAte: Nullable(Type.String()) }),
    },
    handler: async (req) => {
      const accountId = req.auth!.account.id;
      const acked = (await s.webhooks.configs.get(accountId))?.feed_cursor ?? null;
      const after = cursorOf(req.query.after, 'after') ?? acked ?? undefined;
      const limit = req.query.limit ?? FEED_DEFAULT_LIMIT;
      const settledBy = settleMs > 0 ? iso(addMs(s.clock.now(), -settleMs)) : undefined;
      const rows = await feedRows(s.db, accountId, { after, settledBy, limit: limit + 1 });
      const items = rows.slice(0, limit);
      const nextCursor = items.at(-1)?.cursor ?? after ?? null;
      const hasMore = rows.length > limit;
      const next = new URL(req.url, 'http://x');
      if (nextCursor) next.searchParams.set('after', nextCursor);
      return {
        // The common list body (items, pagination, links), with the feed's own cursor: `after`, which continues even past the last event.
        data: {
          items: items.map((r) => ({
            cursor: r.cursor,
            id: r.id,
            event: r.kind,
            source: r.source,
            created_at: r.created_at,
            data: JSON.parse(r.data),
            monitor: r.monitor_id ? { tipo: r.monitor_type!, id: r.monitor_id } : null,
          })),
          pagination: { currentPage: null, perPage: limit, hasNextPage: hasMore, hasPreviousPage: after !== undefined, nextCursor },
          links: { next: hasMore && nextCursor ? { href: absoluteUrl(s.config, `${next.pathname}?${next.searchParams}`), cursor: nextCursor } : null },
          confirmadoAte: acked,
        },
        meta: { nextCursor, hasMore, confirmadoAte: acked },
      };
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/v1/eventos/confirmar',
    meta: {
      class: 'account',
      auth: true,
      tag: TAG,
      summary: 'Acknowledge the feed up to a cursor',
      description:
        'Free. Later reads of GET /v1/eventos without `after` start after this cursor. The cursor must be one this account was given; it only moves forward.',
    },
    schema: { body: Type.Object({ cursor: Cursor }, { additionalProperties: false }), data: Type.Object({ confirmadoAte: Type.String() }) },
    handler: async (req) => {
      const accountId = req.auth!.account.id;
      const cursor = cursorOf(req.body.cursor, 'cursor')!;
      if (!(await isFeedCursorOf(s.db, accountId, cursor)))
        throw new ApiError('INVALID_CURSOR', "This cursor is not one of this account's events.", { field: 'cursor', in: 'body' });
      const acked = (await s.webhooks.configs.get(accountId))?.feed_cursor ?? null;
      const confirmed = acked !== null && acked > cursor ? acked : cursor;
      await s.webhooks.configs.setFeedCursor(accountId, confirmed);
      return { data: { confirmadoAte: confirmed } };
    },
  });
}
