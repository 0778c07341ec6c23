import { randomUUID } from 'node:crypto';
import type { JetStreamClient } from '@nats-io/jetstream';
import { eventSubject, type ProductEvent, type ProductEventKind } from '@tap/contracts';

/** A valid product event with a fresh id. */
export function productEvent(
  tenantId: string,
  type: ProductEventKind,
  subject: Record<string, string>,
  occurredAt: Date,
  data: Record<string, unknown> = {},
): ProductEvent {
  return { id: randomUUID(), type, tenantId, occurredAt: occurredAt.toISOString(), subject, data };
}

/**
 * Stores `event` again under another message id, so the stream's duplicate window does not
 * catch it: the consumer sees the same event twice, as after a replay or a producer that
 * retried with a new message id, and must apply it once.
 */
export async function publishCopy(js: JetStreamClient, prefix: string, event: ProductEvent): Promise<void> {
  await js.publish(eventSubject(event.tenantId, event.type, prefix), JSON.stringify(event), {
    msgID: `${event.id}-copy-${randomUUID()}`,
  });
}

const DAY = 86_400_000;
/** Partner tenants of the journey (the contract names partners by tenant id). */
export const PARTNER_1 = '7d1c6a52-1b0e-4a55-9d43-0c8f6f1b2a01';
export const PARTNER_2 = '7d1c6a52-1b0e-4a55-9d43-0c8f6f1b2a02';

/**
 * A supplier's first weeks as product events, `start` + days: profile, team, products, a
 * connection, a view over it, an import, and an invitation that is never accepted (a drift
 * risk once three days pass).
 */
export function supplierJourney(tenantId: string, start: Date): ProductEvent[] {
  const at = (days: number) => new Date(start.getTime() + days * DAY);
  return [
    productEvent(tenantId, 'company.profile_completed', {}, at(0)),
    productEvent(tenantId, 'user.invited', { invitationId: 'inv-1' }, at(0.5)),
    productEvent(tenantId, 'user.joined', { userId: 'u-2' }, at(1)),
    productEvent(tenantId, 'product.created', { productId: 'p-1' }, at(1.5)),
    productEvent(tenantId, 'product.created', { productId: 'p-2' }, at(2)),
    productEvent(tenantId, 'product_version.published', { productId: 'p-1', versionId: 'v-1' }, at(2.5)),
    productEvent(tenantId, 'connection.invited', { connectionId: 'c-1' }, at(3), {
      partnerTenantId: PARTNER_1,
    }),
    productEvent(tenantId, 'connection.accepted', { connectionId: 'c-1' }, at(3.5), {
      partnerTenantId: PARTNER_1,
    }),
    productEvent(tenantId, 'product.viewed', { productId: 'p-1', connectionId: 'c-1' }, at(4), {
      viewerTenantId: PARTNER_1,
    }),
    productEvent(tenantId, 'import.completed', { importId: 'imp-1' }, at(4.5), { rows: 40 }),
    productEvent(tenantId, 'connection.invited', { connectionId: 'c-2' }, at(5), {
      partnerTenantId: PARTNER_2,
    }),
  ];
}
