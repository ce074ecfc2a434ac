/**
 * GET /v1/requests: the account's operations that went past the window, so a lost `requestId` is found again.
 * GET /v1/requests/{requestId} (spec §4.1, §3.2): while the operation runs, 202 with fresh poll hints;
 * once done, exactly its final status and body, never running or charging it again. Only the account
 * that made the request sees it: any other gets 404, as for an unknown id.
 */
import { Type } from 'typebox';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.ts';
import { defineRoute } from '../http/route.ts';
import { fromColumns } from '../http/stored-response.ts';
import type { Services } from '../services.ts';
import { listData, listSchema } from '../http/list.ts';
import { Nullable } from '../http/nullable.ts';
import { decodeCursor, page, PageQuery, pageWindow } from '../http/pagination.ts';
import { pendingResponse, statusUrl } from './window.ts';

const RequestItem = Type.Object({
  requestId: Type.String(),
  method: Type.String(),
  path: Type.String({ description: 'The path the operation was asked on (its query string is not kept: it may carry a CPF).' }),
  status: Type.Union([Type.Literal('PROCESSANDO'), Type.Literal('CONCLUIDO')]),
  httpStatus: Nullable(Type.Integer({ description: "The final response's status, once CONCLUIDO (an error is CONCLUIDO too)." })),
  submittedAt: Type.String(),
  completedAt: Nullable(Type.String()),
  statusUrl: Type.String(),
});

export function pollRoute(app: FastifyInstance, s: Services): void {
  defineRoute(app, {
    method: 'GET',
    url: '/v1/requests',
    meta: {
      class: 'account',
      auth: true,
      tag: 'Requisições',
      summary: "The account's operations that outlived the synchronous window, newest first",
      description:
        'Free. Every operation of this account that answered 202, running or finished, kept for TRAMITA_REQUEST_RETENTION_HOURS: ' +
        'a client that lost its connection before the 202 arrived finds its `requestId` here and polls it instead of asking (and paying) again. ' +
        '`limit` 1–100 with `cursor` or `page`.',
    },
    schema: { querystring: Type.Object({ ...PageQuery }, { additionalProperties: false }), data: listSchema('items', RequestItem) },
    handler: async (req) => {
      const w = pageWindow(req.query);
      const before = decodeCursor<{ c: string; id: string }>('requests', req.query.cursor, ['c', 'id']);
      const rows = await s.asyncRequests.list(req.auth!.account.id, w.read, before);
      const { items, pagination } = page(rows, w, 'requests', (r) => ({ c: r.created_at, id: r.id }));
      const view = items.map((r) => ({
        requestId: r.id,
        method: r.method,
        path: r.path,
        status: r.status === 'running' ? 'PROCESSANDO' : 'CONCLUIDO',
        httpStatus: r.response_status,
        submittedAt: r.created_at,
        completedAt: r.completed_at,
        statusUrl: statusUrl(s.config, r.id),
      }));
      return { data: listData(req, s.config, 'items', view, pagination), meta: { pagination } };
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/v1/requests/:requestId',
    meta: {
      class: 'account',
      auth: true,
      replay: true,
      tag: 'Requisições',
      summary: 'Poll an operation that outlived the synchronous window',
      description: 'Answers 202 while it runs (respect `Retry-After`), then replays the final response. Free.',
    },
    schema: { params: Type.Object({ requestId: Type.String({ pattern: '^req_[0-9a-z]{21}$' }) }) },
    handler: async (req) => {
      const row = await s.asyncRequests.find(req.params.requestId, req.auth!.account.id);
      if (!row) throw new ApiError('REQUEST_NOT_FOUND');
      if (row.status === 'running') return { response: pendingResponse(s, row.id, row.created_at) };
      return { response: fromColumns(row) };
    },
  });
}
