/**
 * Cursor pagination, the same on every listing: `?limit=&cursor=`, the page in `data`, and
 * `meta.pagination = {limit, nextCursor}` (null on the last page). A cursor is opaque (base64url JSON)
 * and tagged with its listing, so a cursor from elsewhere is 400 INVALID_CURSOR, not a wrong page.
 */
import { Type } from 'typebox';
import { ApiError } from '../errors.ts';

export const PAGE_LIMIT_DEFAULT = 20;
export const PAGE_LIMIT_MAX = 100;

export const PageQuery = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: PAGE_LIMIT_MAX, default: PAGE_LIMIT_DEFAULT, description: `Page size, 1 to ${PAGE_LIMIT_MAX}.` })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'The `meta.pagination.nextCursor` of the previous page.' })),
};

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

/** Trims a `limit + 1` fetch to a page and builds its pagination meta. */
export function page<R>(rows: R[], limit: number, listing: string, position: (last: R) => Record<string, string | number>) {
  const items = rows.slice(0, limit);
  const nextCursor = rows.length > limit ? encodeCursor(listing, position(items[items.length - 1])) : null;
  return { items, pagination: { limit, nextCursor } };
}
