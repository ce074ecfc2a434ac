/** @tramita/sdk: a typed client for Tramita's /v1 API and webhook verification. */
export { Tramita } from './client.ts';
export { TramitaError, TramitaPendingError } from './errors.ts';
export { verifyWebhook, WebhookVerificationError, type IncomingHeaders, type VerifyOptions, type WebhookEvent } from './webhooks.ts';
export type { CallOptions, ClientOptions, FileResult, PendingInfo } from './types.ts';
export type * from './generated.ts';
export { OPERATIONS } from './generated.ts';
