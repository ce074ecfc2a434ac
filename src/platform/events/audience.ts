/** One recipient of an event (a leaf: the event log, the subscriptions and the delivery planner share it without a circle). */
export interface Audience {
  accountId: string;
  monitorType?: string;
  monitorId?: string;
  webhookUrl?: string | null;
}
