/**
 * The request flag that sends an operation's result to the account webhook (spec §6, "Account
 * webhook": the flags `enviar_callback` / `send_callback`): ours, and its integrators' input twin,
 * declared once for every body that has it, and the one check that the webhook can receive it.
 */
import { Type } from 'typebox';
import { ApiError } from '../errors.ts';
import type { WebhookConfigStore } from '../webhooks/config-store.ts';

/** `enviar_callback` (what it sends: `sends`) and `send_callback`, the commercial service's name for it. */
export function callbackFields(sends: string) {
  return {
    enviar_callback: Type.Optional(Type.Boolean({ description: `true: ${sends} (WEBHOOK_NOT_CONFIGURED when the account webhook has no URL).` })),
    send_callback: Type.Optional(Type.Boolean({ description: "Same as `enviar_callback` (the commercial service's name)." })),
  };
}

export interface CallbackFlag {
  enviar_callback?: boolean;
  send_callback?: boolean;
}

/**
 * Whether the body asks for the callback. When it does, the account webhook must have a URL, or the
 * request is refused before any work: 422 WEBHOOK_NOT_CONFIGURED, naming the flag the caller sent.
 */
export async function askedCallback(configs: Pick<WebhookConfigStore, 'get'>, accountId: string, body: CallbackFlag | undefined): Promise<boolean> {
  const field = body?.enviar_callback === true ? 'enviar_callback' : body?.send_callback === true ? 'send_callback' : null;
  if (field === null) return false;
  if (!(await configs.get(accountId))?.url)
    throw new ApiError(
      'WEBHOOK_NOT_CONFIGURED',
      `\`${field}\` sends the result to the account webhook, which has no URL: PUT /v1/conta/webhook first, or poll the status URL.`,
      {
        field,
        in: 'body',
      },
    );
  return true;
}
