/**
 * Pagination, the same on every listing: `?limit=&cursor=` (the cursor is opaque base64url JSON
 * tagged with its listing, so a cursor from elsewhere is 400 INVALID_CURSOR, not a wrong page), or
 * page numbers, `?page=&limit=`, which integrators of the commercial service send (`page=1` on every
 * call, reference/integrator-conventions.md §5). A page past the end is an empty page. The pagination
 * meta says both: `{limit, nextCursor, page}` (`page` null when the listing was read by cursor).
 */
import { Type } from 'typebox';
import { ApiError } from '../errors.ts';

export const PAGE_LIMIT_DEFAULT = 20;
export const PAGE_LIMIT_MAX = 100;

/** Deep page numbers cost an offset scan: past this, follow `nextCursor`. */
export const PAGE_NUMBER_MAX = 1_000;

export const PageQuery = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: PAGE_LIMIT_MAX, default: PAGE_LIMIT_DEFAULT, description: `Page size, 1 to ${PAGE_LIMIT_MAX}.` })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'The `meta.pagination.nextCursor` of the previous page.' })),
  page: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: PAGE_NUMBER_MAX,
      description: `Page number (1 = first), 1 to ${PAGE_NUMBER_MAX}, instead of \`cursor\`; a page past the end is empty.`,
    }),
  ),
};

export interface PageParams {
  limit?: number;
  cursor?: string;
  page?: number;
}

/** A numbered page is read as the rows before it plus itself: past this many, follow `nextCursor`. */
export const PAGE_NUMBER_ROWS_MAX = 10_000;

export interface PageWindow {
  limit: number;
  /** Rows to fetch from the start (or from the cursor): the rows before the page, the page, one more. */
  read: number;
  /** Rows before the page. */
  skip: number;
  /** What the meta reports: null when read by cursor. */
  pageNumber: number | null;
}

/**
 * What to read for `?limit=&cursor=` or `?limit=&page=`. A numbered page reads the rows before it too
 * (what an SQL OFFSET scans anyway), so it is bounded; both `page` and `cursor` at once is a 400.
 */
export function pageWindow(q: PageParams): PageWindow {
  const limit = q.limit ?? PAGE_LIMIT_DEFAULT;
  if (q.page === undefined || q.page === 1) return { limit, read: limit + 1, skip: 0, pageNumber: q.cursor === undefined ? 1 : null };
  if (q.cursor !== undefined) throw new ApiError('INVALID_PARAMETER', 'Send either `page` or `cursor`, not both.', { field: 'page', in: 'query' });
  const skip = (q.page - 1) * limit;
  if (skip + limit > PAGE_NUMBER_ROWS_MAX) {
    throw new ApiError('INVALID_PARAMETER', `Numbered pages reach the first ${PAGE_NUMBER_ROWS_MAX} rows; beyond them follow meta.pagination.nextCursor.`, {
      field: 'page',
      in: 'query',
    });
  }
  return { limit, read: skip + limit + 1, skip, pageNumber: q.page };
}

export function encodeCursor(listing: string, position: Record<string, string | number>): string {
  return Buffer.from(JSON.stringify({ l: listing, p: position })).toString('base64url');
}

export function decodeCursor<T extends Record<string, string | number>>(listing: string, cursor: string | undefined, keys: (keyof T)[]): T | undefined {
  if (cursor === undefined) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (parsed?.l === listing && parsed.p && keys.every((k) => ['string', 'number'].includes(typeof parsed.p[k]))) return parsed.p as T;
  } catch {
    // fall through: any undecodable cursor is the same client error
  }
  throw new ApiError('INVALID_CURSOR', undefined, { field: 'cursor', in: 'query' });
}

/** Cuts a fetch of `w.read` rows to its page and builds the pagination meta (`nextCursor` continues after it). */
export function page<R>(rows: R[], w: PageWindow, listing: string, position: (last: R) => Record<string, string | number>) {
  const items = rows.slice(w.skip, w.skip + w.limit);
  const nextCursor = rows.length > w.skip + w.limit ? encodeCursor(listing, position(items[items.length - 1])) : null;
  return { items, pagination: { limit: w.limit, nextCursor, page: w.pageNumber } };
}
