/**
 * Every product-event kind. proto/tap/events/v1/product-event.schema.json is the contract;
 * a test keeps this list equal to the schema's enum.
 */
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
  'milestone.completed',
  'tier.changed',
] as const;

export type ProductEventKind = (typeof PRODUCT_EVENT_KINDS)[number];

/** The envelope (proto3 JSON mapping of tap.events.v1.ProductEvent). */
export interface ProductEvent<K extends ProductEventKind = ProductEventKind> {
  /** UUID; also the JetStream message id, so a producer's retry is stored once. */
  readonly id: string;
  readonly type: K;
  readonly tenantId: string;
  /** ISO 8601 timestamp of when it happened at the producer. */
  readonly occurredAt: string;
  /** References to the subjects of the event, e.g. `{ productId }`. */
  readonly subject: Readonly<Record<string, string>>;
  readonly data: Readonly<Record<string, unknown>>;
}

/**
 * A product event as a consumer receives it, before its kind is checked: the envelope of
 * ProductEvent with any `type` (a consumer ignores or dead-letters kinds it does not know).
 */
export type ProductEventEnvelope = Omit<ProductEvent, 'type'> & { readonly type: string };

export function isProductEventKind(value: string): value is ProductEventKind {
  return (PRODUCT_EVENT_KINDS as readonly string[]).includes(value);
}
