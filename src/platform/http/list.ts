/**
 * The body of every listing: an object, never a bare array, so integrators of the commercial service
 * find the list where they read it (reference/integrator-conventions.md §5): `data.<name>[]`
 * (`movimentacoes`, `documentos`, `processos`, `intimacoes`; `items` where no name is known), with
 * `data.total` when it is known, `data.pagination` in both vocabularies (page numbers and the
 * cursor), and `data.links.next` to the next page (`{href, cursor}`, null on the last one).
 * `meta.pagination` keeps the cursor form every listing had before.
 */
import type { FastifyRequest } from 'fastify';
import { Type, type TProperties, type TSchema } from 'typebox';
import type { Config } from '../../config.ts';
import { absoluteUrl } from './absolute-url.ts';
import { integratorShape, same } from './integrator-fields.ts';
import { Nullable } from './nullable.ts';

const OwnPagination = Type.Object({
  currentPage: Nullable(Type.Integer({ minimum: 1, description: 'The page number; null when the page was asked by cursor.' })),
  perPage: Type.Integer({ minimum: 1 }),
  hasNextPage: Type.Boolean(),
  hasPreviousPage: Type.Boolean(),
  nextCursor: Nullable(Type.String({ description: 'Send as `cursor` for the next page; null on the last page.' })),
  total: Type.Optional(Type.Integer({ minimum: 0 })),
  totalPages: Type.Optional(Type.Integer({ minimum: 0 })),
});

/** `data.pagination`: `total` is what document listings are read with, `totalItems` what monitor listings are (conventions §5). */
const PaginationShape = integratorShape('paginacao', OwnPagination, {
  totalItems: same('total'),
});

export const ListPagination = PaginationShape.schema;

export const ListLinks = Type.Object({
  next: Nullable(Type.Object({ href: Type.String({ description: 'The next page: this URL with `cursor`.' }), cursor: Type.String() })),
});

/** The schema of a listing's `data`: `{<name>: T[], total?, pagination, links}` plus the listing's own fields. */
export function listSchema<T extends TSchema, E extends TProperties = Record<never, never>>(name: string, item: T, extra?: E) {
  // A listing may give its pagination in more vocabularies (`extra.pagination`); it keeps its place after the items.
  const { pagination, ...own } = (extra ?? {}) as TProperties;
  return Type.Object({
    ...own,
    [name]: Type.Array(item),
    total: Type.Optional(Type.Integer({ minimum: 0, description: 'Every item the listing has, on every page, when it is known.' })),
    pagination: pagination ?? ListPagination,
    links: ListLinks,
  });
}

/** What page() returns as `pagination`. */
export interface PageMeta {
  limit: number;
  nextCursor: string | null;
  page: number | null;
}

/** The next page's URL: this request's, with `cursor` instead of `page`. */
function nextHref(req: FastifyRequest, config: Pick<Config, 'publicUrl' | 'host' | 'port'>, cursor: string): string {
  const url = new URL(req.url, 'http://x');
  url.searchParams.delete('page');
  url.searchParams.set('cursor', cursor);
  return absoluteUrl(config, `${url.pathname}?${url.searchParams}`);
}

/** A listing's `data`: the items under `name`, their pagination and the link to the next page. */
export function listData<T>(
  req: FastifyRequest,
  config: Pick<Config, 'publicUrl' | 'host' | 'port'>,
  name: string,
  items: T[],
  p: PageMeta,
  total?: number,
): Record<string, unknown> {
  const query = req.query as { cursor?: string } | undefined;
  const counted = total === undefined ? {} : { total, totalPages: Math.ceil(total / p.limit) };
  return {
    [name]: items,
    ...(total === undefined ? {} : { total }),
    pagination: PaginationShape.present({
      currentPage: p.page,
      perPage: p.limit,
      hasNextPage: p.nextCursor !== null,
      hasPreviousPage: (p.page ?? 1) > 1 || query?.cursor !== undefined,
      nextCursor: p.nextCursor,
      ...counted,
    }),
    links: { next: p.nextCursor === null ? null : { href: nextHref(req, config, p.nextCursor), cursor: p.nextCursor } },
  };
}
