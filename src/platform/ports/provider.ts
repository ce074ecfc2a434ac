/**
 * Sources behind a captcha are served by a provider the operator configures (docs/providers.md); the
 * port is null without one. An operation that needs it answers 503 SOURCE_NOT_CONFIGURED (never
 * charged, never an empty answer), naming the source and the setting that configures it.
 */
import { ApiError } from '../errors.ts';

export function configuredProvider<T>(port: T | null | undefined, o: { source: string; setting: string; message: string }): T {
  if (port) return port;
  throw new ApiError('SOURCE_NOT_CONFIGURED', o.message, { source: o.source, setting: o.setting });
}
