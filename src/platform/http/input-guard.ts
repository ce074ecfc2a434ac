/**
 * What no value may carry into a handler, checked once per request before validation, so that bad
 * input is a precise 400 and never reaches storage as a 500:
 * - a NUL character, in a path, query or body value (PostgreSQL's text cannot hold one);
 * - a number that is not finite: Ajv's coercion turns `?limit=Infinity` or `1e309` into Infinity and
 *   then skips `minimum`/`maximum` for it (it checks them only on finite numbers); JSON's `1e309`
 *   parses to Infinity too;
 * - a body nested deeper than MAX_BODY_DEPTH (the idempotency fingerprint and every recursive reader
 *   would overflow the stack on a deep enough one).
 * Path and query values are checked in the gate (the raw strings, after routing); bodies as they are
 * parsed (json-body.ts).
 */
import type { FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import { ApiError } from '../errors.ts';

/** No operation's body comes near it: deep enough for any real one, far from the stack's limit. */
export const MAX_BODY_DEPTH = 32;

const NUL = '\u0000';

/** The names of the numeric properties of a route's params or querystring schema (computed once per route). */
export function numericFields(schema: TSchema | undefined): ReadonlySet<string> {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> } | undefined)?.properties ?? {};
  return new Set(
    Object.entries(properties)
      .filter(([, p]) => p.type === 'integer' || p.type === 'number')
      .map(([name]) => name),
  );
}

function refuseRawValue(where: 'path' | 'query', field: string, value: string, numeric: boolean): void {
  if (value.includes(NUL)) throw new ApiError('INVALID_PARAMETER', `The ${where} parameter "${field}" contains a NUL character.`, { field, in: where });
  if (numeric && value.trim() !== '' && !Number.isFinite(Number(value))) {
    throw new ApiError('INVALID_PARAMETER', `The ${where} parameter "${field}" must be a finite number.`, { field, in: where });
  }
}

/** Throws a 400 for a path or query value no route accepts (see above). */
export function guardRawInput(req: FastifyRequest, numeric: { params: ReadonlySet<string>; query: ReadonlySet<string> }): void {
  const params = req.params as Record<string, string> | undefined;
  if (params) for (const field in params) refuseRawValue('path', field, params[field], numeric.params.has(field));
  const query = req.query as Record<string, string | string[]> | undefined;
  if (!query) return;
  for (const field in query) {
    const value = query[field];
    if (typeof value === 'string') refuseRawValue('query', field, value, numeric.query.has(field));
    else if (Array.isArray(value)) for (const v of value) refuseRawValue('query', field, String(v), numeric.query.has(field));
  }
}

/** The first problem of a parsed JSON body, as a 400; null when it has none. Iterative: no recursion to overflow. */
export function bodyProblem(body: unknown): ApiError | null {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value: body, path: '', depth: 0 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    const field = path || '(body)';
    if (typeof value === 'string') {
      if (value.includes(NUL)) return new ApiError('INVALID_BODY', `The body field "${field}" contains a NUL character.`, { field, in: 'body' });
    } else if (typeof value === 'number') {
      if (!Number.isFinite(value)) return new ApiError('INVALID_BODY', `The body field "${field}" is not a finite number.`, { field, in: 'body' });
    } else if (value !== null && typeof value === 'object') {
      if (depth >= MAX_BODY_DEPTH)
        return new ApiError('INVALID_BODY', `The body is nested deeper than ${MAX_BODY_DEPTH} levels.`, { field, in: 'body', maxDepth: MAX_BODY_DEPTH });
      for (const [key, child] of Object.entries(value)) {
        if (key.includes(NUL)) return new ApiError('INVALID_BODY', 'A body field name contains a NUL character.', { in: 'body' });
        stack.push({ value: child, path: path ? `${path}.${key}` : key, depth: depth + 1 });
      }
    }
  }
  return null;
}
