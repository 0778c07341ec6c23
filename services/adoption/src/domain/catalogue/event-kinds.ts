/** Event kinds of the product-event contract, exactly as producers publish them. */
export const PRODUCT_EVENT_KINDS = [
  'company.profile_completed',
  'user.invited',
  'user.joined',
  'product.created',
  'product.updated',
  'product.archived',
  'product.viewed',
  'product_version.published',
  'connection.invited',
  'connection.accepted',
  'connection.removed',
  'data_request.sent',
  'data_request.answered',
  'import.completed',
  'import.failed',
  'integration.succeeded',
  'integration.failed',
  'trace.recorded',
  'passport.published',
  'policy.published',
  'policy.viewed',
  'cascade.started',
  'cascade.completed',
  'data_set.expected',
] as const;

/** The event adoption itself emits when a milestone is completed by hand. */
export const MILESTONE_COMPLETED_EVENT = 'milestone.completed';

/** Every event kind adoption understands; anything else is ignored when facts are read. */
export const EVENT_KINDS = [...PRODUCT_EVENT_KINDS, MILESTONE_COMPLETED_EVENT] as const;

/** An event kind adoption understands. */
export type EventKind = (typeof EVENT_KINDS)[number];

/** True when `value` is an event kind adoption understands. */
export function isEventKind(value: string): value is EventKind {
  return (EVENT_KINDS as readonly string[]).includes(value);
}
