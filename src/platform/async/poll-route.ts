/**
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
import { pendingResponse } from './window.ts';

export function pollRoute(app: FastifyInstance, s: Services): void {
  defineRoute(app, {
    method: 'GET', url: '/v1/requests/:requestId',
    meta: {
      class: 'account', auth: true, tag: 'Requisições', summary: 'Poll an operation that outlived the synchronous window',
      description: 'Answers 202 while it runs (respect `Retry-After`), then replays the final response. Free.',
    },
    schema: { params: Type.Object({ requestId: Type.String({ pattern: '^req_[0-9a-z]{21}$' }) }) },
    handler: async (req) => {
      const row = await s.asyncRequests.find(req.params.requestId, req.auth!.account.id);
      if (!row) throw new ApiError('REQUEST_NOT_FOUND');
      if (row.status === 'running') return { response: pendingResponse(req, s, row.id, row.created_at) };
      return { response: fromColumns(row) };
    },
  });
}
