/**
 * Shared helper for the identifier parsers: builds the ApiError they throw, with
 * `details = { field?, value }` (value = the input as received).
 */
import { ApiError, type ErrorCode } from '../errors.ts';

export function identifierError(code: ErrorCode, message: string, input: unknown, field?: string): ApiError {
  return new ApiError(code, message, { ...(field ? { field } : {}), value: input });
}

/** The input quoted for a message, cut at 40 characters so a huge input cannot bloat it. */
export function quoted(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}
