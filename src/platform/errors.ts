import { ERRORS, type ErrorCode } from './error-codes.ts';
import { mensagem } from './errors-pt.ts';

/** The registry's table is the leaf error-codes.ts, so the Portuguese messages (errors-pt.ts) name its codes without a circle. */
export { ERRORS, type ErrorCode } from './error-codes.ts';

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: Record<string, unknown> | undefined;
  readonly headers: Record<string, string> | undefined;
  constructor(code: ErrorCode, message?: string, details?: Record<string, unknown>, headers?: Record<string, string>) {
    super(message ?? ERRORS[code].meaning);
    this.code = code;
    this.status = ERRORS[code].status;
    this.details = details;
    this.headers = headers;
  }
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}

export interface ErrorBody {
  error: { code: ErrorCode; message: string; detail?: string; details?: Record<string, unknown> };
  meta: { requestId: string };
}

export type Language = 'pt' | 'en';

/** `Accept-Language: en…` (its first tag) asks for English; anything else, or nothing, is Portuguese. */
export function languageOf(acceptLanguage: string | undefined): Language {
  return /^\s*en\b/i.test(acceptLanguage ?? '') ? 'en' : 'pt';
}

/**
 * The error envelope (spec §7). `message` is for a person: Portuguese by default (errors-pt.ts), with
 * the English text, often more specific, in `detail`; in English, `message` is that text.
 */
export function errorBody(e: ApiError, requestId: string, language: Language = 'pt'): ErrorBody {
  const message = language === 'en' ? e.message : mensagem(e.code, e.details);
  return {
    error: { code: e.code, message, ...(language === 'pt' ? { detail: e.message } : {}), ...(e.details ? { details: e.details } : {}) },
    meta: { requestId },
  };
}

export function errorsMarkdown(): string {
  const rows = Object.entries(ERRORS).map(([code, e]) => `| ${e.status} | \`${code}\` | ${e.meaning} |`);
  return [
    '# Errors',
    '',
    'Every error is `{"error": {"code", "message", "details"?}, "meta": {"requestId"}}` with the HTTP status below (spec §7).',
    'Branch on `error.code`, never on `message`. Errors are never charged.',
    'This file is generated from `src/platform/error-codes.ts` by `npm run docs`; a test fails when they differ.',
    '',
    '| status | code | meaning |',
    '|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
