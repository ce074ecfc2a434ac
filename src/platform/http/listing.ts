/**
 * The one listing handler (issue 55 item 6): cursor → rows → page → `{data, meta.pagination}`. A
 * paged list route says what is particular to it (its listing's tag, the cursor's keys, how rows are
 * read after a position, the position after a row, its items' name and view) and gets the page's
 * `data` (listData's shape), its pagination meta and the rows shown, to add its own fields around.
 */
import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import { listData, type PageMeta } from './list.ts';
import { decodeCursor, encodeCursor, page, pageWindow, type PageParams } from './pagination.ts';

export interface Listing<R, P extends Record<string, string | number>> {
  /** Tags the cursor with the listing and its filters: a cursor from elsewhere is 400 INVALID_CURSOR. */
  listing: string;
  /** The keys a cursor's position must have. */
  keys: (keyof P)[];
  /** Up to `limit` rows after `after` (undefined: from the start), in the listing's order. */
  read: (limit: number, after: P | undefined) => Promise<R[]>;
  /** The position after a row: where the next page starts. */
  position: (last: R) => P;
  /** The items' name in `data` (`items`, `movimentacoes`, …). */
  name: string;
  /** The items as answered. */
  view: (rows: R[]) => unknown[] | Promise<unknown[]>;
  /** Every item the listing has, when known; a function when only `read` learns it (it is called after). */
  total?: number | (() => number | undefined);
}

export async function listPage<R, P extends Record<string, string | number>>(
  req: FastifyRequest<{ Querystring: PageParams }> | (FastifyRequest & { query: PageParams }),
  config: Pick<Config, 'publicUrl' | 'host' | 'port'>,
  l: Listing<R, P>,
): Promise<{ data: Record<string, unknown>; pagination: PageMeta; rows: R[] }> {
  const w = pageWindow(req.query);
  const rows = await l.read(w.read, decodeCursor<P>(l.listing, req.query.cursor, l.keys));
  const { items, pagination } = page(rows, w, l.listing, l.position);
  const total = typeof l.total === 'function' ? l.total() : l.total;
  return { data: listData(req, config, l.name, await l.view(items), pagination, total), pagination, rows: items };
}

/** A listing whose pages are its source's own (a provider's numbered pages): what is particular to one. */
export interface SourceListing<R> {
  /** Tags the cursor with the listing and its filters: a cursor from elsewhere is 400 INVALID_CURSOR. */
  listing: string;
  /** The source's page `pagina` (1 = first): its items, whether a next page exists, every item when the source says. */
  read: (pagina: number) => Promise<{ items: R[]; more: boolean; total?: number }>;
  name: string;
  view: (rows: R[]) => unknown[] | Promise<unknown[]>;
}

/**
 * The page the source serves, asked by `page` or by the cursor of the previous one (which holds the
 * next page's number): the page size is the source's, so `limit` is what it gave (at least 1), and
 * `page` is always the number read.
 */
export async function listSourcePage<R>(
  req: FastifyRequest & { query: { page?: number; cursor?: string } },
  config: Pick<Config, 'publicUrl' | 'host' | 'port'>,
  l: SourceListing<R>,
): Promise<{ data: Record<string, unknown>; pagination: PageMeta; rows: R[] }> {
  const pagina = decodeCursor<{ pagina: number }>(l.listing, req.query.cursor, ['pagina'])?.pagina ?? req.query.page ?? 1;
  const found = await l.read(pagina);
  const pagination = {
    limit: Math.max(found.items.length, 1),
    nextCursor: found.more ? encodeCursor(l.listing, { pagina: pagina + 1 }) : null,
    page: pagina,
  };
  return { data: listData(req, config, l.name, await l.view(found.items), pagination, found.total), pagination, rows: found.items };
}
