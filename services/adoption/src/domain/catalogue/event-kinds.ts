import { PRODUCT_EVENT_KINDS, type ProductEventKind } from '@tap/contracts';

/** The event adoption itself emits when a milestone is completed by hand. */
export const MILESTONE_COMPLETED_EVENT = 'milestone.completed';

/**
 * An event kind adoption understands: the product-event contract's, but tier.changed, which is no
 * fact (the consumer applies it as the tenant's tier, domain/tier).
 */
export type EventKind = Exclude<ProductEventKind, 'tier.changed'>;

/** Every event kind adoption understands; anything else is ignored when facts are read. */
export const EVENT_KINDS: readonly EventKind[] = PRODUCT_EVENT_KINDS.filter(
  (kind): kind is EventKind => kind !== 'tier.changed',
);

/** True when `value` is an event kind adoption understands. */
export function isEventKind(value: string): value is EventKind {
  return (EVENT_KINDS as readonly string[]).includes(value);
}
