/** The webhooks capability's door (issue 55 item 3): what the console's webhook pages use. */
export { reenableEndpoint, resendDelivery, sendTestDelivery, updateWebhook } from './actions.ts';
export { DELIVERY_STATUSES } from './schemas.ts';
